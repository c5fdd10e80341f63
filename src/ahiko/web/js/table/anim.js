// Chips sliding: bets into the pot at the end of a round, pots to their winners. Clones move
// above the table for at most 300 ms and never take input.

import { h } from "../dom.js";

export const SLIDE_MS = 280;

export function slideChips(from, to, layer = document.body) {
  if (!from || !to) return;
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
  const chip = h(
    "div.flying-chips",
    { "aria-hidden": "true" },
    h("span.chip.chip-0"),
    h("span.chip.chip-1"),
  );
  chip.style.left = `${from.x}px`;
  chip.style.top = `${from.y}px`;
  layer.append(chip);
  const anim = chip.animate(
    [
      { transform: "translate(-50%, -50%)" },
      { transform: `translate(calc(-50% + ${to.x - from.x}px), calc(-50% + ${to.y - from.y}px))` },
    ],
    { duration: SLIDE_MS, easing: "ease-out" },
  );
  anim.onfinish = () => chip.remove();
  anim.oncancel = () => chip.remove();
}
