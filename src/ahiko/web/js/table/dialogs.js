// Table dialogs: the host's "Sala" menu (R-RM-05, R-RM-07, R-RM-08) and the tournament's
// results table (R-TN-04); the Ahiko buy-in and reload live in buyin.js.

import { h } from "../dom.js";
import { fmt, t } from "../i18n.js";
import { homeGameMenu } from "./hostdesk.js";

export function modal(className, title, ...content) {
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
      homeGameMenu(state, command, () => dialog.close()),
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
            // A paid sit & go's prizes, coins by place.
            paid ? h("td.num", { dataset: { prize: String(r.prize ?? 0) } }, r.prize ? fmt(r.prize) : "—") : null,
          ),
        ),
      ),
    ),
  );
}
