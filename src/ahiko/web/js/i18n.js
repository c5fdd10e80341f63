// Every player-facing string, pt-BR first, English second. `t(key, params)` fills {name}
// placeholders; the chosen language is remembered in localStorage.

import { EN_A11Y } from "./locales/a11y-en.js";
import { PT_A11Y } from "./locales/a11y-pt-BR.js";
import { EN as EN_TABLE } from "./locales/en.js";
import { EN_FORMS } from "./locales/forms-en.js";
import { PT_FORMS } from "./locales/forms-pt-BR.js";
import { EN_PAGES } from "./locales/pages-en.js";
import { PT_PAGES } from "./locales/pages-pt-BR.js";
import { PT as PT_TABLE } from "./locales/pt-BR.js";

const STORAGE_KEY = "ahiko.lang";

const PT = { ...PT_TABLE, ...PT_PAGES, ...PT_FORMS, ...PT_A11Y };
const EN = { ...EN_TABLE, ...EN_PAGES, ...EN_FORMS, ...EN_A11Y };
const DICTS = { "pt-BR": PT, en: EN };

function stored() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let current = stored() === "en" ? "en" : "pt-BR";
const listeners = new Set();

export function lang() {
  return current;
}

export function setLang(next) {
  current = next === "en" ? "en" : "pt-BR";
  try {
    localStorage.setItem(STORAGE_KEY, current);
  } catch {
    // private mode: the choice lasts for this page only
  }
  document.documentElement.lang = current;
  for (const fn of listeners) fn(current);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** English falls back to Portuguese for keys that read the same ("All-in", "Flop"). */
export function t(key, params = {}) {
  const text = DICTS[current][key] ?? PT[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Children for a control whose whole text would not fit a phone's one-line row: the whole
 *  text and ``key_short`` in two spans, one shown per screen size (table.css). */
export function tPhone(key, params = {}) {
  const long = document.createElement("span");
  long.className = "label-long";
  long.textContent = t(key, params);
  const short = document.createElement("span");
  short.className = "label-short";
  short.textContent = t(`${key}_short`, params);
  return [long, short];
}

export function tList(key) {
  return t(key).split(",");
}

/** Integer chips with the locale's thousands separator. */
export function fmt(amount) {
  return Number(amount).toLocaleString(current === "en" ? "en-US" : "pt-BR");
}

/** A place in a ranking: "1º" in Portuguese, "1st" in English. */
export function ordinal(place) {
  if (current !== "en") return `${place}º`;
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[place % 10] ?? "th");
  return `${place}${suffix}`;
}

export function keys(which = "pt-BR") {
  return Object.keys(DICTS[which]);
}
