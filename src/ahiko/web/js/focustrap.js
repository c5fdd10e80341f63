// Focus kept inside an open modal dialog: Tab from its last control goes to its first, and
// Shift+Tab from its first to its last. Chromium's own modal dialogs let Tab leave for the
// browser's toolbar, where a keyboard or screen-reader user loses the dialog.

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

let installed = false;

function visible(el) {
  return el.getClientRects().length > 0 && !el.closest("[hidden]");
}

function onKey(ev) {
  if (ev.key !== "Tab" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const dialogs = [...document.querySelectorAll("dialog[open]")].filter((d) => d.matches(":modal"));
  const dialog = dialogs.at(-1);
  if (!dialog) return;
  const items = [...dialog.querySelectorAll(FOCUSABLE)].filter(visible);
  if (!items.length) return;
  const first = items[0];
  const last = items.at(-1);
  const inside = dialog.contains(document.activeElement);
  if (ev.shiftKey && (!inside || document.activeElement === first)) {
    ev.preventDefault();
    last.focus();
  } else if (!ev.shiftKey && (!inside || document.activeElement === last)) {
    ev.preventDefault();
    first.focus();
  }
}

/** Once per page: every modal dialog, whoever opens it, keeps the focus. */
export function keepFocusInDialogs() {
  if (installed) return;
  installed = true;
  document.addEventListener("keydown", onKey);
}
