// The Ahiko buy-in confirmation and reservation (R-RM-12, R-RM-16) and reloads (R-RM-13):
// the amount leaving the wallet, checked in the page, in the page's language, before it is
// sent; the browser's own validation bubble never speaks (it speaks the browser's language).

import { api } from "../api.js";
import { h } from "../dom.js";
import { fmt, t } from "../i18n.js";
import { buyInLimits, checkAmount } from "./buyinlimits.js";
import { modal } from "./dialogs.js";
import { errorText } from "./describe.js";

// R-RM-10: each Ahiko tier's buy-in range, in wallet coins.
export const TIER_BUY_IN = {
  iniciante: { min: 100, max: 200 },
  classica: { min: 500, max: 1000 },
  alta: { min: 1000, max: 2000 },
};

function tierKey(tier) {
  return String(tier ?? "").toLowerCase().normalize("NFD").replace(/[^a-z]/g, "");
}

/** The tier's range for this room: `{min, max}` in coins (chips at the table, one for one). */
export function tierRange(room) {
  const range = room?.buyIn ?? TIER_BUY_IN[tierKey(room?.tier)] ?? {};
  const min = range.buy_in_min ?? range.min ?? 0;
  return { min, max: range.buy_in_max ?? range.max ?? min };
}

/** Why the table's "Recarregar" cannot be used now, or null: the stack is at the ceiling. */
export function reloadBlocked(state) {
  const stack = state.player(state.mySeat())?.stack ?? 0;
  const { max } = tierRange(state.room);
  return max > 0 && stack >= max ? t("limits.reload_at_ceiling", { max: fmt(max), stack: fmt(stack) }) : null;
}

async function walletBalance() {
  try {
    return (await api.wallet())?.balance ?? null;
  } catch {
    return null;
  }
}

/** Fair re-entry: back at this tier within 30 minutes, bring what you left with. */
async function reentryRule(roomId) {
  try {
    return (await api.ahikoBuyInRange(roomId))?.reentry ?? null;
  } catch {
    return null;
  }
}

const say = ([key, params]) => t(key, params);

/** Buy-in for an Ahiko room (or, with `reload`, chips added between hands). */
export async function openBuyIn(state, seat, { reload = false, onError = () => {}, onDone = () => {} } = {}) {
  const tier = tierRange(state.room);
  const key = `${reload ? "reload" : "buyin"}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const [balance, reentry] = await Promise.all([walletBalance(), reload ? null : reentryRule(state.room.id)]);
  const stack = reload ? (state.player(state.mySeat())?.stack ?? 0) : 0;
  const limits = buyInLimits({
    reload,
    tier: state.room?.tier ? t(`lobby.tier.${tierKey(state.room.tier)}`) : "",
    tierMin: tier.min,
    tierMax: tier.max,
    stack,
    balance,
    reentry,
  });
  const blocked = limits.blocked ? say(limits.blocked) : null;
  const input = h("input#buyin-amount", {
    type: "number",
    inputMode: "numeric",
    min: String(limits.min),
    max: String(limits.max),
    step: "1",
    value: blocked ? "" : String(limits.max),
    disabled: Boolean(blocked),
    "aria-describedby": "buyin-range buyin-error",
  });
  const error = h("p#buyin-error.field-error", { role: "alert", dataset: { error: "" } });
  const leaves = h("p.buyin-leaves", { role: "status" });
  const confirm = h("button.primary", { type: "submit", dataset: { buyin: "confirm" } });
  const range = h(
    "div#buyin-range.buyin-range",
    { dataset: { min: String(limits.min), max: String(limits.max) } },
    blocked
      ? h("p.buyin-blocked", { dataset: { blocked: limits.blocked[0] } }, blocked)
      : h(
          "p.hint",
          limits.min === limits.max
            ? t("limits.exactly", { amount: fmt(limits.min) })
            : t("limits.range", { min: fmt(limits.min), max: fmt(limits.max) }),
        ),
    h("ul.buyin-why", limits.why.map((reason) => h("li", { dataset: { why: reason[0] } }, say(reason)))),
  );
  // Every keystroke is checked: the error is said at once, and the button says what it
  // would do, or nothing it cannot do.
  const check = () => {
    const seen = checkAmount(input.value, limits);
    const wallet = balance === null ? "—" : fmt(balance);
    error.textContent = seen.error && !blocked ? say(seen.error) : "";
    error.dataset.error = seen.error && !blocked ? seen.error[0] : "";
    input.setAttribute("aria-invalid", seen.error && !blocked ? "true" : "false");
    confirm.disabled = Boolean(blocked || seen.error);
    const amount = seen.amount;
    confirm.textContent = amount
      ? t(reload ? "reload.confirm" : "buyin.confirm", { amount: fmt(amount) })
      : t(reload ? "limits.reload_plain" : "limits.confirm_plain");
    leaves.textContent =
      amount === undefined
        ? ""
        : reload
          ? t("reload.leaves", { amount: fmt(amount), balance: wallet, stack: fmt(stack + amount) })
          : t("buyin.leaves", { amount: fmt(amount), balance: wallet });
    return seen;
  };
  input.addEventListener("input", check);
  const form = h(
    "form.buyin-form",
    { method: "dialog", noValidate: true },
    reload ? h("p.reload-stack", t("reload.stack", { stack: fmt(stack), max: fmt(tier.max) })) : null,
    h("label", { htmlFor: "buyin-amount" }, t(reload ? "reload.amount" : "buyin.amount")),
    input,
    error,
    range,
    reentry
      ? h(
          "p.reentry-note",
          { role: "note", dataset: { reentry: String(reentry.minimum) } },
          // The minimum and its reason are in the list above; this says how long it holds.
          t("limits.reentry_until", {
            minutes: String(Math.max(1, Math.ceil((reentry.until_ms - Date.now()) / 60000))),
          }),
        )
      : null,
    leaves,
    !reload && state.view && !["over"].includes(state.view.street) ? h("p.hint", t("buyin.reserve")) : null,
    h("div.dialog-buttons", confirm, h("button", { type: "button", value: "cancel", onclick: () => dialog.close() }, t("buyin.cancel"))),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const { amount } = check();
    if (amount === undefined) {
      input.focus();
      return;
    }
    confirm.disabled = true;
    try {
      if (reload) await api.ahikoReload(state.room.id, amount, key);
      else await api.ahikoBuyIn(state.room.id, seat, amount, key);
      dialog.close();
      onDone(amount);
    } catch (err) {
      confirm.disabled = false;
      error.textContent = errorText(err.code, err.message);
      error.dataset.error = err.code ?? "server";
      onError(err);
    }
  });
  check();
  const dialog = modal("buyin-dialog", t(reload ? "reload.title" : "buyin.title"), form);
  return dialog;
}
