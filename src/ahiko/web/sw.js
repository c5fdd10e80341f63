// The service worker: the app shell kept for when the network is gone, never served instead
// of a newer one. Every request for the shell goes to the network first and refreshes the
// copy; only without a network does the copy answer, and a page never cached gets the offline
// page (the table itself always needs the server). The server writes its version into this
// file, so a deploy changes its bytes: the browser installs the new worker, which takes over
// at once, drops the old copy and tells the open pages to reload.

const VERSION = "__AHIKO_SHELL_VERSION__";
const CACHE = `ahiko-shell-${VERSION}`;
const SHELL = ["/", "/index.html", "/offline.html", "/css/app.css", "/css/table.css", "/js/app.js", "/js/offline.js", "/favicon.svg", "/manifest.webmanifest", "/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const older = (await caches.keys()).filter((n) => n.startsWith("ahiko-shell-") && n !== CACHE);
      await Promise.all(older.map((n) => caches.delete(n)));
      await self.clients.claim();
      if (older.length === 0) return; // the first install: no open page runs an older client
      // Told by message as well as by the change of controller: a page the old worker did not
      // control (opened while it was being replaced) is running an old client all the same.
      const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const page of pages) page.postMessage({ type: "ahiko-shell-replaced", version: VERSION });
    })(),
  );
});

function isShell(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/ws/") && !url.pathname.startsWith("/admin");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || !isShell(url)) return; // the game: always the server
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(async () => {
        const cached = await caches.match(request, { ignoreSearch: request.mode === "navigate" });
        if (cached) return cached;
        if (request.mode === "navigate") return (await caches.match("/offline.html")) ?? Response.error();
        return Response.error();
      }),
  );
});
