// Bet sizing presets and this browser's keys for them: ½ pot, ⅔ pot, pot ("Pote") and all-in,
// each within what the server's legal actions allow (a pot-limit game's maximum included),
// and the choice of keys, or none: the single-key shortcuts can be turned off as a whole.

import { t } from "../i18n.js";

const STORE = "ahiko.hotkeys";
export const PRESETS = ["half", "two_thirds", "pot", "allin"];
const FRACTIONS = { half: 0.5, two_thirds: 2 / 3, pot: 1 };
const DEFAULT_KEYS = { half: "1", two_thirds: "2", pot: "3", allin: "4" };
// Keys the table already answers to (actions, reads): a preset may not take them.
const TAKEN = new Set(["f", "c", "r", "h", "b", "p", "s", "t", "?", " "]);

export function totalPot(view) {
  const pots = (view.pots ?? []).reduce((sum, p) => sum + (p.amount ?? 0), 0);
  const bets = (view.seats ?? []).reduce((sum, s) => sum + (s.bet ?? 0), 0);
  return pots + bets;
}

/** Raise-to amount for a preset: call first, then add the fraction of that pot; never
 *  under the minimum nor over the maximum the server allows. */
export function presetAmount(view, legal, preset) {
  if (preset === "allin") return legal.max_to;
  const toCall = legal.call_cost ?? 0;
  const facing = (legal.committed ?? 0) + toCall;
  const target = facing + Math.floor(FRACTIONS[preset] * (totalPot(view) + toCall));
  return Math.max(legal.min_to, Math.min(legal.max_to, target));
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) ?? "null");
    if (saved && typeof saved === "object") return { on: saved.on !== false, keys: { ...DEFAULT_KEYS, ...saved.keys } };
  } catch {
    // unreadable: the defaults
  }
  return { on: true, keys: { ...DEFAULT_KEYS } };
}

export function hotkeysOn() {
  return load().on;
}

export function presetKeys() {
  return load().keys;
}

/** The preset whose key this is, when the keys are on. */
export function presetForKey(key) {
  const saved = load();
  if (!saved.on) return null;
  return PRESETS.find((p) => saved.keys[p] === key) ?? null;
}

/** Keep new settings, or say what is wrong with them (and keep nothing). */
export function saveHotkeys(on, keys) {
  const seen = new Map();
  for (const preset of PRESETS) {
    const key = String(keys[preset] ?? "").toLowerCase();
    const name = t(`act.preset.${preset}`);
    if ([...key].length !== 1) return t("keys.error_one", { name });
    if (TAKEN.has(key)) return t("keys.error_taken", { name, key });
    if (seen.has(key)) return t("keys.error_twice", { key, a: seen.get(key), b: name });
    seen.set(key, name);
  }
  const clean = Object.fromEntries(PRESETS.map((p) => [p, String(keys[p]).toLowerCase()]));
  try {
    localStorage.setItem(STORE, JSON.stringify({ on: Boolean(on), keys: clean }));
  } catch {
    return t("keys.error_storage");
  }
  return null;
}
