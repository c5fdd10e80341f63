// Table dialogs: the host's "Sala" menu (R-RM-05, R-RM-07, R-RM-08), the Ahiko buy-in
// confirmation and reservation (R-RM-12, R-RM-16), reloads (R-RM-13) and the tournament's
// results table (R-TN-04).

import { api } from "../api.js";
import { h } from "../dom.js";
import { fmt, t } from "../i18n.js";
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

function modal(className, title, ...content) {
  const dialog = h(`dialog.${className}`, h("h2", title), ...content);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

export function openRoomMenu(state, command) {
  const room = state.room;
  const level = h(
    "select#bot-level",
    { "aria-label": t("menu.bot_level") },
    ["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === "normal" }, t(`level.${l}`))),
  );
  const act = (name, args) => () => {
    command(name, args?.() ?? {});
    dialog.close();
  };
  const bots = Object.values(room?.players ?? {}).filter((p) => p.bot);
  const running = room?.status === "running";
  const paused = room?.status === "paused";
  const dialog = modal(
    "room-menu",
    t("menu.title"),
    h(
      "div.menu-list",
      !running && !paused
        ? h("button.primary", { type: "button", dataset: { menu: "start" }, onclick: act("start") }, t("menu.start"))
        : null,
      running
        ? h("button", { type: "button", dataset: { menu: "pause" }, onclick: act("pause") }, t("menu.pause"))
        : null,
      paused
        ? h("button", { type: "button", dataset: { menu: "resume" }, onclick: act("resume") }, t("menu.resume"))
        : null,
      h(
        "div.menu-row",
        h("label", { htmlFor: "chat-mode" }, t("menu.chat")),
        h(
          "select#chat-mode",
          { dataset: { menu: "chat" }, onchange: (ev) => command("chat_setting", { mode: ev.target.value }) },
          ["everyone", "seated", "off"].map((m) => h("option", { value: m, selected: m === (room?.chat ?? "seated") }, t(`menu.chat.${m}`))),
        ),
      ),
      h(
        "div.menu-row",
        h("label", { htmlFor: "bot-level" }, t("menu.bot_level")),
        level,
        h(
          "button",
          { type: "button", dataset: { menu: "add_bot" }, onclick: act("add_bot", () => ({ level: level.value })) },
          t("menu.add_bot"),
        ),
      ),
      bots.map((b) =>
        h(
          "button",
          { type: "button", dataset: { menu: "remove_bot", seat: String(b.seat) }, onclick: act("remove_bot", () => ({ seat: b.seat })) },
          t("menu.remove_bot", { name: b.name }),
        ),
      ),
      h(
        "button.danger",
        {
          type: "button",
          dataset: { menu: "close" },
          onclick: () => {
            if (window.confirm(t("menu.close_confirm"))) act("close")();
          },
        },
        t("menu.close"),
      ),
      h("button", { type: "button", onclick: () => dialog.close() }, t("verify.close")),
    ),
  );
  return dialog;
}

/** Buy-in for an Ahiko room: the amount leaving the wallet, confirmed before sitting. */
export async function openBuyIn(state, seat, { reload = false, onError = () => {}, onDone = () => {} } = {}) {
  const range = state.room?.buyIn ?? TIER_BUY_IN[tierKey(state.room?.tier)] ?? {};
  const min = range.buy_in_min ?? range.min ?? 0;
  const max = range.buy_in_max ?? range.max ?? min;
  const key = `${reload ? "reload" : "buyin"}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let balance = null;
  try {
    const wallet = await api.wallet();
    balance = wallet?.balance ?? null;
  } catch {
    balance = null;
  }
  // Fair re-entry (issue 19): back at this tier within 30 minutes, bring what you left with.
  let reentry = null;
  if (!reload) {
    try {
      reentry = (await api.ahikoBuyInRange(state.room.id))?.reentry ?? null;
    } catch {
      reentry = null;
    }
  }
  const stack = reload ? (state.player(state.mySeat())?.stack ?? 0) : 0;
  const ceiling = Math.max(0, max - stack);
  const floor = reload ? 1 : Math.max(min, reentry?.minimum ?? 0);
  const start = Math.min(reload ? ceiling : max, balance ?? max);
  const input = h("input#buyin-amount", {
    type: "number",
    min: String(floor),
    max: String(reload ? ceiling : max),
    step: "1",
    value: String(Math.max(floor, start)),
  });
  const leaves = h("p.buyin-leaves", { role: "status" });
  const confirm = h("button.primary", { type: "submit", dataset: { buyin: "confirm" } });
  const refresh = () => {
    const amount = Number.parseInt(input.value, 10) || 0;
    const wallet = balance === null ? "—" : fmt(balance);
    leaves.textContent = reload
      ? t("reload.leaves", { amount: fmt(amount), balance: wallet, stack: fmt(stack + amount) })
      : t("buyin.leaves", { amount: fmt(amount), balance: wallet });
    confirm.textContent = t(reload ? "reload.confirm" : "buyin.confirm", { amount: fmt(amount) });
  };
  input.addEventListener("input", refresh);
  const form = h(
    "form.buyin-form",
    { method: "dialog" },
    reload ? h("p.reload-stack", t("reload.stack", { stack: fmt(stack), max: fmt(max) })) : null,
    h("label", { htmlFor: "buyin-amount" }, t(reload ? "reload.amount" : "buyin.amount")),
    input,
    h("p.hint", t(reload ? "reload.range" : "buyin.range", { min: fmt(floor), max: fmt(reload ? ceiling : max) })),
    reentry
      ? h(
          "p.reentry-note",
          { role: "note", dataset: { reentry: String(reentry.minimum) } },
          t("buyin.reentry", {
            left: fmt(reentry.left_with),
            min: fmt(reentry.minimum),
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
    const amount = Number.parseInt(input.value, 10);
    if (!Number.isInteger(amount) || amount < floor || amount > (reload ? ceiling : max)) {
      input.setCustomValidity(t("buyin.range", { min: fmt(floor), max: fmt(reload ? ceiling : max) }));
      input.reportValidity();
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
      leaves.textContent = errorText(err.code, err.message);
      onError(err);
    }
  });
  refresh();
  const dialog = modal("buyin-dialog", t(reload ? "reload.title" : "buyin.title"), form);
  return dialog;
}

export function resultsTable(results) {
  if (!results?.length) return null;
  const paid = results.some((r) => r.prize);
  return h(
    "section.tournament-results",
    h("h2", t("table.tournament_results")),
    h(
      "table",
      h(
        "thead",
        h("tr", h("th", t("table.rank")), h("th", t("table.player")), paid ? h("th.num", t("table.prize")) : null),
      ),
      h(
        "tbody",
        results.map((r, i) =>
          h(
            "tr",
            h("td", String(r.rank ?? r.place ?? i + 1)),
            h("td", r.name ?? r.username ?? ""),
            // A paid sit & go's prizes (issue 20), coins by place.
            paid ? h("td.num", { dataset: { prize: String(r.prize ?? 0) } }, r.prize ? fmt(r.prize) : "—") : null,
          ),
        ),
      ),
    ),
  );
}
