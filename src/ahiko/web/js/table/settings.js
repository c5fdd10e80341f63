// "Ajustes da mesa": this browser's choices for the table, in one dialog so the top bar keeps
// one small button for them: the screen-reader mode (on by itself when the browser asks for
// reduced motion), the four-colour deck, the keyboard shortcuts and the sounds. Esc or "Fechar" closes it; focus stays
// inside while it is open.

import { isFourColour, setFourColour } from "../cards.js";
import { h } from "../dom.js";
import { keepFocusInDialogs } from "../focustrap.js";
import { t } from "../i18n.js";
import { readerModeOn, setReaderMode } from "./announce.js";
import { modal } from "./dialogs.js";
import { hotkeysOn, presetKeys, PRESETS, saveHotkeys } from "./sizing.js";
import { saveSoundSettings, SOUND_KINDS, soundSettings } from "./sound.js";

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
/** Each sound's switch, the volume, and "your turn" as a notification (asked for here only). */
function soundFields() {
  const now = soundSettings();
  const kinds = SOUND_KINDS.map((kind) =>
    h(
      "label.setting-check",
      h("input", {
        type: "checkbox",
        checked: now.kinds[kind],
        dataset: { sound: kind },
        onchange: (ev) => saveSoundSettings({ kinds: { ...soundSettings().kinds, [kind]: ev.target.checked } }),
      }),
      t(`sounds.kind.${kind}`),
    ),
  );
  const volume = h("input#set-volume", {
    type: "range",
    min: "0",
    max: "100",
    value: String(Math.round(now.volume * 100)),
    onchange: (ev) => saveSoundSettings({ volume: Number(ev.target.value) / 100 }),
  });
  const said = h("p.hint", { role: "status" });
  const notify = h("input", {
    type: "checkbox",
    checked: now.notify && typeof Notification !== "undefined" && Notification.permission === "granted",
    dataset: { setting: "notify" },
    onchange: async (ev) => {
      const box = ev.target;
      said.textContent = "";
      if (!box.checked) return saveSoundSettings({ notify: false });
      const answer = typeof Notification === "undefined" ? "denied" : await Notification.requestPermission();
      box.checked = answer === "granted";
      saveSoundSettings({ notify: box.checked });
      if (!box.checked) said.textContent = t("sounds.notify_denied");
    },
  });
  return h(
    "fieldset.setting.sounds",
    h("legend", t("sounds.title")),
    h("p.hint", t("sounds.hint")),
    h("div.key-grid", kinds),
    h("label.volume", { htmlFor: "set-volume" }, t("sounds.volume"), volume),
    h("label.setting-check", notify, t("sounds.notify")),
    said,
  );
}

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
    soundFields(),
    h("div.dialog-buttons", h("button", { type: "button", dataset: { settings: "close" }, onclick: () => dialog.close() }, t("verify.close"))),
  );
  dialog.setAttribute("aria-labelledby", "settings-title");
  dialog.querySelector("h2").id = "settings-title";
  reader.focus();
  return dialog;
}
