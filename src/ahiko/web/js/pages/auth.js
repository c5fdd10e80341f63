// Sign-up and log-in forms.

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function authPage(main, mode, ctx) {
  const signup = mode === "signup";
  const error = h("p.error", { role: "alert" });
  // The server's rules (server/accounts.py): usernames 3–20 letters (accents too), digits or _; passwords
  // at least 8 characters. Sign-up says so up front, in the player's language.
  const user = h("input#auth-username", {
    name: "username",
    autocomplete: "username",
    required: true,
    minLength: 3,
    maxLength: signup ? 20 : 32,
    pattern: signup ? "[\\p{L}\\p{N}_]{3,20}" : null, // accents welcome ("joão")
    "aria-describedby": signup ? "auth-username-rule" : null,
  });
  const pass = h("input#auth-password", {
    name: "password",
    type: "password",
    autocomplete: signup ? "new-password" : "current-password",
    required: true,
    minLength: signup ? 8 : 1,
    "aria-describedby": signup ? "auth-password-rule" : null,
  });
  const rule = (id, key) => (signup ? h(`span#${id}.hint.field-rule`, t(key)) : null);
  if (signup) {
    for (const [input, key] of [[user, "auth.username_rule"], [pass, "auth.password_rule"]]) {
      input.addEventListener("invalid", () => input.setCustomValidity(t(key)));
      input.addEventListener("input", () => input.setCustomValidity(""));
    }
  }
  const submit = h("button.primary", { type: "submit", dataset: { auth: mode } }, t(signup ? "auth.signup" : "auth.login"));
  const form = h(
    "form.stack",
    h("label", { htmlFor: "auth-username" }, t("auth.username"), user, rule("auth-username-rule", "auth.username_rule")),
    h("label", { htmlFor: "auth-password" }, t("auth.password"), pass, rule("auth-password-rule", "auth.password_rule")),
    error,
    submit,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      if (signup) await api.signUp(user.value.trim(), pass.value);
      if (signup) {
        // Some servers open the session on sign-up; log in if not.
        try {
          await api.me();
        } catch {
          await api.logIn(user.value.trim(), pass.value);
        }
      } else {
        await api.logIn(user.value.trim(), pass.value);
      }
      await ctx.onLoggedIn();
    } catch (err) {
      error.textContent = err.status === 0 ? t("error.network") : errorText(err);
      submit.disabled = false;
    }
  });
  main.append(
    h(
      "section.auth-card",
      h("h1", t("app.name")),
      h("p.hint", t("auth.welcome")),
      h("h2", t(signup ? "auth.signup" : "auth.login")),
      form,
      h(
        "p",
        h("a", { href: signup ? "#/login" : "#/signup" }, t(signup ? "auth.have_account" : "auth.no_account")),
      ),
    ),
  );
  user.focus();
  return {};
}
