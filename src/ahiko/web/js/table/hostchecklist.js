// The host's checklist in a recreational room before its first hand: sit, add players, start.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** R-RM-03/05: what the host does before the first hand, with the buttons to do it;
 *  `page`: the TablePage (its state, `sit`, `command` and the chosen bot level). */
export function hostChecklist(page) {
  const state = page.state;
  const room = state.room;
  const me = state.mySeat();
  const seated = Object.values(room.players ?? {}).filter((p) => !p.reserved).length;
  const free = Array.from({ length: room.seatCount }, (_, i) => i).find((i) => !room.players?.[i]);
  const step = (n, done, title, ...content) =>
    h(
      `li.host-step${done ? ".done" : ""}`,
      { dataset: { step: String(n) } },
      h("span.step-n", { "aria-hidden": "true" }, done ? "✓" : String(n)),
      h("div.step-body", h("span.step-title", title), ...content),
    );
  const level = h(
    "select.host-bot-level",
    { "aria-label": t("menu.bot_level"), onchange: (ev) => { page.botLevel = ev.target.value; } },
    ["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === page.botLevel }, t(`level.${l}`))),
  );
  return h(
    "section.host-checklist",
    { "aria-label": t("host.label") },
    h("h2.host-title", t("host.title")),
    h(
      "ol.host-steps",
      step(
        1,
        me !== null,
        me !== null ? t("host.step_sit_done", { n: me + 1 }) : t("host.step_sit"),
        me === null && free !== undefined
          ? h("button", { type: "button", dataset: { host: "sit" }, onclick: () => page.sit(free) }, t("table.sit"))
          : null,
      ),
      step(
        2,
        seated >= 2,
        t("host.step_players"),
        h(
          "span.step-row",
          level,
          h("button", { type: "button", dataset: { host: "add_bot" }, disabled: free === undefined, onclick: () => page.command("add_bot", { level: page.botLevel }) }, t("menu.add_bot")),
        ),
        h("span.step-note", t("host.players", { n: seated })),
      ),
      step(
        3,
        false,
        t("host.step_start"),
        h("button.primary", { type: "button", dataset: { host: "start" }, disabled: seated < 2, onclick: () => page.command("start") }, t("menu.start")),
        seated < 2 ? h("span.step-note", t("host.need_two")) : null,
      ),
    ),
  );
}
