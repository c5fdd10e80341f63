// Installable: the service worker registers (where the browser has them), and a page whose
// worker was replaced by a newer version reloads, so no tab keeps running an old client.

export function registerServiceWorker() {
  // Only the site served at its root has the worker (its scope is the whole site); a copy
  // of the client served from elsewhere (a test's static server) runs without it.
  const atRoot = location.pathname === "/" || location.pathname === "/index.html";
  if (!("serviceWorker" in navigator) || !atRoot) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  const reloadOnce = () => {
    if (reloading) return;
    reloading = true;
    location.reload();
  };
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first worker taking over a fresh page changes nothing it shows; a newer one does.
    if (hadController) reloadOnce();
  });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "ahiko-shell-replaced") reloadOnce();
  });
  navigator.serviceWorker.startMessages();
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {
    // no worker (a private window, a file:// page): the site works as before, online only
  });
}
