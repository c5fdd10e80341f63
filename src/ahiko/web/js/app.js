// The single-page app: the header, and a hash router that mounts one page at a time.
//   #/login  #/signup  #/lobby[/ahiko|public|tournament]  #/create  #/room/<id>
//   #/mtt/<id> (one multi-table tournament)  #/wallet  #/hands  #/hands/<id>  #/players/<name>  #/shared/<token> (no sign-in needed)

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { keepFocusInDialogs } from "./focustrap.js";
import { registerServiceWorker } from "./install.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { authPage } from "./pages/auth.js";
import { createRoomPage } from "./pages/createroom.js";
import { handsPage } from "./pages/hands.js";
import { lobbyPage } from "./pages/lobby.js";
import { mttPage } from "./pages/mttpage.js";
import { profilePage } from "./pages/profile.js";
import { sharedPage } from "./pages/shared.js";
import { walletPage } from "./pages/wallet.js";
import { SIGNED_IN_EVENT } from "./table/seatsignin.js";
import { TablePage } from "./table/tablepage.js";

const root = document.getElementById("root");
keepFocusInDialogs();
registerServiceWorker();
const session = { user: null, checked: false };
let current = null; // the mounted page: {destroy?()}

// Remembered so a visitor who never signed in is not greeted by a 401 from /api/me.
const SIGNED_IN_KEY = "ahiko.signedIn";
// A visitor sees the lobby, watches tables and reads tournaments and players before any form
// (R-RM-01: only playing needs an account); these pages are a member's own.
const MEMBERS_ONLY = new Set(["create", "wallet", "hands"]);
// A visitor who signed up at a table's seat: the next page asks the server who they are.
window.addEventListener(SIGNED_IN_EVENT, () => {
  session.checked = false;
});

async function loadUser() {
  session.user = null;
  if (localStorage.getItem(SIGNED_IN_KEY) === "1") {
    try {
      session.user = await api.me();
    } catch {
      localStorage.removeItem(SIGNED_IN_KEY);
    }
  }
  session.checked = true;
}

function header(route) {
  const link = (href, key) =>
    h("a", { href, "aria-current": route.startsWith(href.slice(2)) ? "page" : null }, t(key));
  const langBtn = h(
    "button.lang-switch",
    {
      type: "button",
      "aria-label": t("lang.switch.label"),
      onclick: () => setLang(lang() === "en" ? "pt-BR" : "en"),
    },
    t("lang.switch"),
  );
  const user = session.user;
  return h(
    "header.app-header",
    h("a.brand", { href: "#/lobby" }, t("app.name")),
    user
      ? h(
          "nav.app-nav",
          { "aria-label": t("nav.main") },
          link("#/lobby", "nav.lobby"),
          link("#/wallet", "nav.wallet"),
          link("#/hands", "nav.hands"),
          link(`#/players/${encodeURIComponent(user.username ?? user.name ?? "")}`, "nav.profile"),
        )
      : h("nav.app-nav", { "aria-label": t("nav.main") }, link("#/lobby", "nav.lobby")),
    h(
      "div.header-right",
      user ? h("span.who", t("auth.logged_as", { name: user.username ?? user.name ?? "" })) : null,
      langBtn,
      user
        ? h(
            "button",
            {
              type: "button",
              dataset: { nav: "logout" },
              onclick: async () => {
                try {
                  await api.logOut();
                } finally {
                  localStorage.removeItem(SIGNED_IN_KEY);
                  session.user = null;
                  location.hash = "#/login";
                }
              },
            },
            t("nav.logout"),
          )
        : [h("a.button-link", { href: "#/login", dataset: { nav: "login" } }, t("nav.login")), h("a.button-link.primary", { href: "#/signup", dataset: { nav: "signup" } }, t("nav.signup"))],
    ),
  );
}

function routeOf() {
  return (location.hash || "#/lobby").slice(2);
}

/** `carried`: what the page being replaced kept for its successor (see handsPage). */
async function mount(carried = null) {
  if (!session.checked) await loadUser();
  current?.destroy?.();
  current = null;
  clear(root);
  const route = routeOf();
  const [name, arg] = route.split("/");
  document.documentElement.lang = lang();
  if (!session.user && MEMBERS_ONLY.has(name)) {
    sessionStorage.setItem("ahiko.after_login", location.hash);
    location.hash = "#/login";
    return;
  }
  if (name === "room" && arg) {
    const main = h("main.page.wide");
    root.append(main);
    current = new TablePage(main, { roomId: decodeURIComponent(arg.split("?")[0]) });
    return;
  }
  root.append(header(route));
  const main = h("main.page");
  root.append(main);
  const ctx = {
    session,
    carried,
    onLoggedIn: async () => {
      localStorage.setItem(SIGNED_IN_KEY, "1");
      await loadUser();
      const next = sessionStorage.getItem("ahiko.after_login");
      sessionStorage.removeItem("ahiko.after_login");
      location.hash = next && !next.includes("login") && !next.includes("signup") ? next : "#/lobby";
      mount();
    },
  };
  switch (name) {
    case "login":
    case "signup":
      current = authPage(main, name, ctx);
      break;
    case "create":
      current = createRoomPage(main, ctx);
      break;
    case "mtt":
      current = mttPage(main, decodeURIComponent(arg ?? ""));
      break;
    case "wallet":
      current = walletPage(main, ctx);
      break;
    case "hands":
      current = handsPage(main, arg ? decodeURIComponent(arg) : null, ctx);
      break;
    case "players":
      current = profilePage(main, decodeURIComponent(arg ?? ""));
      break;
    case "shared":
      current = sharedPage(main, decodeURIComponent(arg ?? ""));
      break;
    default:
      current = lobbyPage(main, arg || "ahiko", ctx);
  }
}

/** A change of hand inside "Minhas mãos" opens or closes its replayer in place. */
function onHashChange() {
  const [name, arg] = routeOf().split("/");
  if (name === "hands" && current?.page === "hands" && session.user) {
    current.open(arg ? decodeURIComponent(arg) : null);
    return;
  }
  mount();
}

window.addEventListener("hashchange", onHashChange);
// The table keeps its connection (and what it observed of the commitment) across a switch.
onLangChange(() => (current?.relabel ? current.relabel() : mount(current?.carry?.() ?? null)));
mount();
