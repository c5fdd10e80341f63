// Texts that count down in whole seconds ("Seu tempo: 14 s", "Próxima mão em 5 s"): built
// once with their end time, then refreshed in place by tickCountdowns() without a re-render.

import { h } from "../dom.js";
import { t } from "../i18n.js";

function secondsLeft(endsAt, now) {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

function textFor(el, now) {
  const s = secondsLeft(Number(el.dataset.until), now);
  if (s <= 0 && el.dataset.done) return t(el.dataset.done);
  return t(el.dataset.tpl, { s });
}

/** A span reading t(key, {s}) until `endsAt`, then t(doneKey) (or "0 s" without one). */
export function countdown(spec, endsAt, key, doneKey = null, now = Date.now()) {
  const el = h(spec, { dataset: { until: String(Math.round(endsAt)), tpl: key } });
  if (doneKey) el.dataset.done = doneKey;
  el.textContent = textFor(el, now);
  el.classList.toggle("urgent", secondsLeft(endsAt, now) <= 5);
  return el;
}

/** Refresh every countdown under `root`. */
export function tickCountdowns(root, now = Date.now()) {
  for (const el of root.querySelectorAll("[data-until][data-tpl]")) {
    const text = textFor(el, now);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("urgent", secondsLeft(Number(el.dataset.until), now) <= 5);
  }
}
