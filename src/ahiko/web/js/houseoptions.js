// A home game's hand options (straddle, run it twice, bomb pots, seven-deuce): the fields of
// the create form and of the host's menu, the body they send (rooms/hand_options.py), and
// the short line the table and the lobby show. The server checks every value.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const NUMBERS = ["bomb_pot_ante", "bomb_pot_every", "seven_deuce"];
const FLAGS = ["run_twice", "bomb_pot_double_board"];

/** The option fields, filled with `current` (the room's ``hand_options``, or none). */
export function optionFields(current = {}) {
  const number = (name) =>
    h(
      "label.house-field",
      t(`house.${name}`),
      h("input", { type: "number", min: "0", step: "1", inputMode: "numeric", name: `opt_${name}`, value: String(current[name] ?? 0), dataset: { house: name } }),
    );
  const flag = (name) =>
    h("label.home-check", h("input", { type: "checkbox", name: `opt_${name}`, checked: Boolean(current[name]), dataset: { house: name } }), t(`house.${name}`));
  return h(
    "fieldset.house-options",
    { dataset: { field: "house" } },
    h("legend", t("home.options")),
    h(
      "label.house-field",
      t("house.straddle"),
      h(
        "select",
        { name: "opt_straddle", dataset: { house: "straddle" } },
        ["off", "utg", "button"].map((v) => h("option", { value: v, selected: v === (current.straddle ?? "off") }, t(`house.straddle.${v}`))),
      ),
    ),
    ...FLAGS.map(flag),
    ...NUMBERS.map(number),
  );
}

/** The options the form's fields say, as the server takes them. */
export function readOptions(form) {
  const out = { straddle: form.elements.opt_straddle.value };
  for (const name of FLAGS) out[name] = form.elements[`opt_${name}`].checked;
  for (const name of NUMBERS) out[name] = Number.parseInt(form.elements[`opt_${name}`].value || "0", 10);
  return out;
}

/** Only the options that differ from `current` (a host's change names what it changes). */
export function changedOptions(form, current = {}) {
  const wanted = readOptions(form);
  const changed = Object.entries(wanted).filter(([k, v]) => v !== (current[k] ?? (k === "straddle" ? "off" : FLAGS.includes(k) ? false : 0)));
  return changed.length ? Object.fromEntries(changed) : null;
}

/** "Straddle · Run it twice · Bomb pot 20 every 5 hands, two boards · 7-2: 10", or "". */
export function houseText(o) {
  if (!o) return "";
  const parts = [];
  if (o.straddle && o.straddle !== "off") parts.push(t(`table.house.straddle.${o.straddle}`));
  if (o.run_twice) parts.push(t("table.house.run_twice"));
  if (o.bomb_pot_ante) {
    const bomb = o.bomb_pot_every
      ? t("table.house.bomb_every", { ante: o.bomb_pot_ante, n: o.bomb_pot_every })
      : t("table.house.bomb", { ante: o.bomb_pot_ante });
    parts.push(o.bomb_pot_double_board ? `${bomb}, ${t("table.house.double")}` : bomb);
  }
  if (o.seven_deuce) parts.push(t("table.house.seven_deuce", { amount: o.seven_deuce }));
  return parts.join(" · ");
}
