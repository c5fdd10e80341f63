// "Criar um torneio" in the lobby's tournament tab: a signed-in player hosts a multi-table
// tournament (POST /api/mtt) with a name, a buy-in, a start and, if they like, blind levels
// by hands. Every field is checked in the page, in its language, before anything is sent.

import { api } from "../api.js";
import { h } from "../dom.js";
import { allGames, gameTitle, postsBlinds } from "../games.js";
import { fmt, lang, t } from "../i18n.js";

// The server's limits (api_mtt.CreateBody, mtt_lobby.MAX_BUY_IN / MAX_LEVEL_HANDS).
const LIMITS = {
  buy_in: { min: 0, max: 10000 },
  starts_in_minutes: { min: 1, max: 24 * 60 },
  level_hands: { min: 1, max: 100 },
};
const NAME_MAX = 40;

function whole(text, { min, max }) {
  const clean = String(text ?? "").trim();
  if (!/^\d+$/.test(clean)) return { error: t("mtthost.not_whole", { min: fmt(min), max: fmt(max) }) };
  const n = Number.parseInt(clean, 10);
  if (n < min || n > max) return { error: t("mtthost.out_of_range", { min: fmt(min), max: fmt(max) }) };
  return { value: n };
}

/** The fields' values, or an error per field: `{body}` or `{errors: {field: text}}`. */
export function checkMtt({ name, buyIn, minutes, levelHands, variant }) {
  const errors = {};
  const title = String(name ?? "").trim();
  if (!title) errors.name = t("mtthost.name_missing");
  else if (title.length > NAME_MAX) errors.name = t("mtthost.name_long", { max: NAME_MAX });
  const buy = whole(buyIn, LIMITS.buy_in);
  if (buy.error) errors.buy_in = buy.error;
  const start = whole(minutes, LIMITS.starts_in_minutes);
  if (start.error) errors.starts_in_minutes = start.error;
  let levels = null;
  if (String(levelHands ?? "").trim()) {
    const found = whole(levelHands, LIMITS.level_hands);
    if (found.error) errors.level_hands = found.error;
    else levels = found.value;
  }
  if (Object.keys(errors).length) return { errors };
  const body = { name: title, buy_in: buy.value, starts_in_minutes: start.value };
  if (levels !== null) body.level_hands = levels;
  if (variant) body.variant = variant;
  return { body };
}

/** `run(job)`: the tab's one-call-at-a-time runner, which refreshes the list after. */
export function mttHostForm(run) {
  const field = (id, key, props, hintKey, hintArgs) => {
    const input = h(`input#${id}`, { ...props, "aria-describedby": `${id}-hint ${id}-error` });
    const error = h(`p#${id}-error.field-error`, { role: "alert" });
    const wrap = h(
      "div.form-row",
      h("label", { htmlFor: id }, t(key)),
      input,
      h(`p#${id}-hint.hint`, t(hintKey, hintArgs)),
      error,
    );
    return { input, error, wrap };
  };
  const name = field("mtt-name", "mtthost.name", { type: "text", maxLength: NAME_MAX, value: "" }, "mtthost.name_hint", { max: NAME_MAX });
  const buyIn = field("mtt-buy-in", "mtthost.buy_in", { type: "text", inputMode: "numeric", value: "0" }, "mtthost.buy_in_hint", {
    max: fmt(LIMITS.buy_in.max),
  });
  const minutes = field("mtt-minutes", "mtthost.minutes", { type: "text", inputMode: "numeric", value: "10" }, "mtthost.minutes_hint", {
    max: fmt(LIMITS.starts_in_minutes.max),
  });
  const levels = field("mtt-levels", "mtthost.levels", { type: "text", inputMode: "numeric", value: "" }, "mtthost.levels_hint", {
    max: fmt(LIMITS.level_hands.max),
  });
  // The games an MTT's nine-seat tables deal with blinds (hold'em, Pot-Limit Omaha).
  const games = allGames().filter((g) => postsBlinds(g) && g.max_players >= 9);
  const variant = h(
    "select#mtt-variant",
    games.map((g) => h("option", { value: g.name }, gameTitle(g.name, lang()))),
  );
  const fields = { name, buy_in: buyIn, starts_in_minutes: minutes, level_hands: levels };
  const form = h(
    "form.mtt-host",
    { noValidate: true, "aria-label": t("mtthost.title") },
    name.wrap,
    buyIn.wrap,
    minutes.wrap,
    levels.wrap,
    h("div.form-row", h("label", { htmlFor: "mtt-variant" }, t("create.variant")), variant),
    h("div.dialog-buttons", h("button.primary", { type: "submit", dataset: { mtthost: "create" } }, t("mtthost.create"))),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const found = checkMtt({
      name: name.input.value,
      buyIn: buyIn.input.value,
      minutes: minutes.input.value,
      levelHands: levels.input.value,
      variant: variant.value,
    });
    for (const [key, f] of Object.entries(fields)) {
      const said = found.errors?.[key] ?? "";
      f.error.textContent = said;
      f.input.setAttribute("aria-invalid", said ? "true" : "false");
    }
    if (found.errors) {
      fields[Object.keys(found.errors)[0]].input.focus();
      return;
    }
    run(async () => {
      await api.mttCreate(found.body);
      name.input.value = "";
      return t("mtthost.done", { name: found.body.name });
    });
  });
  return h("details.mtt-host-box", h("summary", { dataset: { mtthost: "open" } }, t("mtthost.title")), form);
}
