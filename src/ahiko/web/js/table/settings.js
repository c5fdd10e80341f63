// "Ajustes da mesa": this browser's choices for the table, in one dialog so the top bar keeps
// one small button for them: the screen-reader mode (on by itself when the browser asks for
// reduced motion), the four-colour deck and the keyboard shortcuts. Esc or "Fechar" closes it; focus stays
// inside while it is open.

import { isFourColour, setFourColour } from "../cards.js";
import { h } from "../dom.js";
import { keepFocusInDialogs } from "../focustrap.js";
import { t } from "../i18n.js";
import { readerModeOn, setReaderMode } from "./announce.js";
import { modal } from "./dialogs.js";
import { hotkeysOn, presetKeys, PRESETS, saveHotkeys } from "./sizing.js";

/** The top bar's button; `onReaderOn`: say the table so far when the mode is turned on. */
export function settingsButton({ onReaderOn, onDeck }) {
  return h(
    "button.settings-btn",
    {
      type: "button",
      dataset: { open: "settings" },
      "aria-label": t("settings.title"),
      title: t("settings.title"),
      onclick: () => openSettings({ onReaderOn, onDeck }),
    },
    h("span", { "aria-hidden": "true" }, "⚙"),
  );
}

/** The single-key shortcuts on or off, and the bet-size presets' keys; saved together, or
 *  not at all with the reason said. */
function hotkeysFields() {
  const on = h("input#set-hotkeys", { type: "checkbox", checked: hotkeysOn(), dataset: { setting: "hotkeys" } });
  const keys = presetKeys();
  const inputs = Object.fromEntries(
    PRESETS.map((p) => [p, h(`input#set-key-${p}.key-box`, { value: keys[p], maxLength: 1, size: 2, autocomplete: "off", dataset: { presetKey: p } })]),
  );
  const said = h("p#set-keys-said.hint", { role: "status" });
  const save = () => {
    const problem = saveHotkeys(on.checked, Object.fromEntries(PRESETS.map((p) => [p, inputs[p].value])));
    said.textContent = problem ?? t("keys.saved");
    said.classList.toggle("error", Boolean(problem));
  };
  return h(
    "fieldset.setting.hotkeys",
    h("legend", t("keys.title")),
    h("label.setting-check", { htmlFor: "set-hotkeys" }, on, t("keys.on")),
    h(
      "div.key-grid",
      PRESETS.map((p) => h("label", { htmlFor: `set-key-${p}` }, t("keys.preset", { name: t(`act.preset.${p}`) }), inputs[p])),
    ),
    h("button", { type: "button", dataset: { settings: "save-keys" }, onclick: save }, t("keys.save")),
    said,
  );
}

/** `onDeck()`: redraw the cards in the deck just chosen. */
export function openSettings({ onReaderOn, onDeck }) {
  keepFocusInDialogs();
  const reader = h("input#set-reader", {
    type: "checkbox",
    checked: readerModeOn(),
    dataset: { setting: "reader" },
    "aria-describedby": "set-reader-hint",
    onchange: (ev) => {
      setReaderMode(ev.target.checked);
      if (ev.target.checked) onReaderOn();
    },
  });
  const dialog = modal(
    "settings-dialog",
    t("settings.title"),
    h("div.setting", h("label.setting-check", { htmlFor: "set-reader" }, reader, t("sr.mode")), h("p#set-reader-hint.hint", t("sr.mode_hint"))),
    h(
      "div.setting",
      h(
        "label.setting-check",
        h("input", {
          type: "checkbox",
          checked: isFourColour(),
          dataset: { setting: "four-colour" },
          onchange: (ev) => {
            setFourColour(ev.target.checked);
            onDeck();
          },
        }),
        t("table.four_colour"),
      ),
    ),
    hotkeysFields(),
    h("div.dialog-buttons", h("button", { type: "button", dataset: { settings: "close" }, onclick: () => dialog.close() }, t("verify.close"))),
  );
  dialog.setAttribute("aria-labelledby", "settings-title");
  dialog.querySelector("h2").id = "settings-title";
  reader.focus();
  return dialog;
}
