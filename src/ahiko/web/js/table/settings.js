// "Ajustes da mesa": this browser's choices for the table, in one dialog so the top bar keeps
// one small button for them on a phone: the screen-reader mode (on by itself when the browser
// asks for reduced motion). Esc or "Fechar" closes it; focus stays inside while it is open.

import { h } from "../dom.js";
import { keepFocusInDialogs } from "../focustrap.js";
import { t } from "../i18n.js";
import { readerModeOn, setReaderMode } from "./announce.js";
import { modal } from "./dialogs.js";

/** The top bar's button; `onReaderOn`: say the table so far when the mode is turned on. */
export function settingsButton({ onReaderOn }) {
  return h(
    "button.settings-btn",
    {
      type: "button",
      dataset: { open: "settings" },
      "aria-label": t("settings.title"),
      title: t("settings.title"),
      onclick: () => openSettings({ onReaderOn }),
    },
    h("span", { "aria-hidden": "true" }, "⚙"),
  );
}

export function openSettings({ onReaderOn }) {
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
    h("div.dialog-buttons", h("button", { type: "button", dataset: { settings: "close" }, onclick: () => dialog.close() }, t("verify.close"))),
  );
  dialog.setAttribute("aria-labelledby", "settings-title");
  dialog.querySelector("h2").id = "settings-title";
  reader.focus();
  return dialog;
}
