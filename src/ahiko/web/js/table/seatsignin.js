// A visitor watching a table who chooses a seat: playing needs an account (R-RM-01), so the
// seat's own dialog asks for one (a new account, or a returning player's log-in) and the
// visitor is seated at the seat chosen without leaving the table.

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { modal } from "./dialogs.js";

export const SIGNED_IN_EVENT = "ahiko:signed-in";

async function signIn(mode, username, password) {
  if (mode === "signup") {
    await api.signUp(username, password);
    try {
      await api.me(); // some servers open the session on sign-up
    } catch {
      await api.logIn(username, password);
    }
  } else {
    await api.logIn(username, password);
  }
  try {
    localStorage.setItem("ahiko.signedIn", "1");
  } catch {
    // not remembered: the page asks the server anyway
  }
  window.dispatchEvent(new Event(SIGNED_IN_EVENT));
}

/** The server's rules for a new account (server/accounts.py), said before asking it. */
function newAccountProblem(username, password) {
  if (!/^[\p{L}\p{N}_]{3,20}$/u.test(username)) return t("error.invalid_username");
  if (password.length < 8) return t("error.invalid_password");
  return null;
}

/** `onSignedIn()`: the session is open; the table reconnects as this player and sits. */
export function openSeatSignIn(seat, onSignedIn) {
  const user = h("input#seat-username", { name: "username", autocomplete: "username", required: true, minLength: 3, maxLength: 32 });
  const pass = h("input#seat-password", { name: "password", type: "password", autocomplete: "current-password", required: true, minLength: 1 });
  const error = h("p#seat-auth-error.error", { role: "alert" });
  const button = (mode, key) => h(`button${mode === "signup" ? ".primary" : ""}`, { type: "submit", value: mode, dataset: { seatauth: mode } }, t(key));
  const form = h(
    "form.stack",
    h("p", t("seat_auth.why")),
    h("label", { htmlFor: "seat-username" }, t("auth.username"), user),
    h("label", { htmlFor: "seat-password" }, t("auth.password"), pass, h("span.hint.field-rule", t("seat_auth.rules"))),
    error,
    h("div.dialog-buttons", button("login", "seat_auth.login"), button("signup", "seat_auth.signup")),
  );
  const dialog = modal("seat-auth-dialog", t("seat_auth.title", { n: seat + 1 }), form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const mode = ev.submitter?.value === "login" ? "login" : "signup";
    error.textContent = "";
    const refused = mode === "signup" ? newAccountProblem(user.value.trim(), pass.value) : null;
    if (refused) {
      error.textContent = refused;
      return;
    }
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    try {
      await signIn(mode, user.value.trim(), pass.value);
      dialog.close();
      onSignedIn();
    } catch (err) {
      error.textContent = err.status === 0 ? t("error.network") : errorText(err);
      for (const b of form.querySelectorAll("button")) b.disabled = false;
      user.setAttribute("aria-invalid", "true");
      user.focus();
    }
  });
  user.focus();
  return dialog;
}
