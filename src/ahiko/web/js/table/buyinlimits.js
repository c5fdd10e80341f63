// What a buy-in or a reload may be, and why (R-RM-10, R-RM-12, R-RM-13, fair re-entry): the
// dialog says the range with its reasons in the page's language, checks what was typed before
// anything is sent, and shuts what cannot be done instead of offering an empty range.

import { fmt } from "../i18n.js";

/** Reasons are `[key, params]` pairs for `t()`; the caller words them. */
export function buyInLimits({ reload = false, tier = "", tierMin = 0, tierMax = 0, stack = 0, balance = null, reentry = null }) {
  const why = [];
  let min;
  let max;
  if (reload) {
    // R-RM-13: a reload tops the stack up to the tier's ceiling, never past it.
    min = 1;
    max = Math.max(0, tierMax - stack);
    why.push(["limits.why_ceiling", { max: fmt(tierMax), stack: fmt(stack) }]);
    if (max < 1) return { min, max: 0, why, blocked: ["limits.reload_at_ceiling", { max: fmt(tierMax), stack: fmt(stack) }] };
  } else {
    min = tierMin;
    max = tierMax;
    why.push(["limits.why_tier", { tier, min: fmt(tierMin), max: fmt(tierMax) }]);
    if (reentry && reentry.minimum > min) {
      min = Math.min(reentry.minimum, tierMax);
      why.push(["limits.why_reentry", { left: fmt(reentry.left_with), min: fmt(min) }]);
    }
  }
  if (balance !== null && balance < max) {
    max = Math.max(0, balance);
    why.push(["limits.why_wallet", { balance: fmt(balance) }]);
  }
  if (max < min) {
    return { min, max, why, blocked: ["limits.wallet_short", { balance: fmt(balance ?? 0), min: fmt(min) }] };
  }
  return { min, max, why, blocked: null };
}

/** What the player typed, checked: `{amount}` or `{error: [key, params]}`. */
export function checkAmount(text, limits) {
  const clean = String(text ?? "").trim();
  if (!/^\d+$/.test(clean)) return { error: ["limits.not_whole", {}] };
  const amount = Number.parseInt(clean, 10);
  if (amount < limits.min) return { error: ["limits.below", { min: fmt(limits.min) }] };
  if (amount > limits.max) return { error: ["limits.above", { max: fmt(limits.max) }] };
  return { amount };
}
