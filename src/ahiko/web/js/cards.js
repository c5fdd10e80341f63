// Cards drawn as SVG by us: large corner rank, suit shapes as paths (no font glyphs), an
// optional four-colour deck. Suits differ in shape, so colour is never the only signal.

import { s } from "./dom.js";
import { t, tList } from "./i18n.js";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

const SUIT_SHAPES = {
  h: () => [s("path", { d: "M50 90C22 68 5 50 5 31 5 16 16 6 30 6c9 0 16 5 20 13 4-8 11-13 20-13 14 0 25 10 25 25 0 19-17 37-45 59Z" })],
  d: () => [s("path", { d: "M50 3 87 50 50 97 13 50Z" })],
  s: () => [s("path", { d: "M50 4C41 24 6 38 6 62c0 14 11 22 22 22 8 0 15-4 19-10-1 10-5 17-13 22h32c-8-5-12-12-13-22 4 6 11 10 19 10 11 0 22-8 22-22C94 38 59 24 50 4Z" })],
  c: () => [
    s("circle", { cx: 50, cy: 27, r: 20 }),
    s("circle", { cx: 26, cy: 58, r: 20 }),
    s("circle", { cx: 74, cy: 58, r: 20 }),
    s("path", { d: "M45 50h10c0 20 4 33 14 46H31c10-13 14-26 14-46Z" }),
  ],
};

let fourColour = false;
try {
  fourColour = localStorage.getItem("ahiko.fourColour") === "1";
} catch {
  // storage unavailable: two colours
}

export function isFourColour() {
  return fourColour;
}

export function setFourColour(on) {
  fourColour = Boolean(on);
  try {
    localStorage.setItem("ahiko.fourColour", fourColour ? "1" : "0");
  } catch {
    // not remembered
  }
}

export function suitClass(suit) {
  if (fourColour) return { s: "suit-black", h: "suit-red", d: "suit-blue", c: "suit-green" }[suit];
  return suit === "h" || suit === "d" ? "suit-red" : "suit-black";
}

export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function cardLabel(card) {
  const r = RANKS.indexOf(card[0]);
  const su = SUITS.indexOf(card[1]);
  if (r < 0 || su < 0) return card;
  return t("card.label", { rank: tList("rank.one")[r], suit: tList("suit.names")[su] });
}

function suitGlyph(suit, x, y, size) {
  return s(
    "g",
    { transform: `translate(${x} ${y}) scale(${size / 100})` },
    ...SUIT_SHAPES[suit](),
  );
}

/** An <svg> card face ("Ah") or back (null). Size comes from CSS. */
export function cardSvg(card, extraClass = "") {
  const svg = s("svg", {
    viewBox: "0 0 60 84",
    class: `card ${extraClass}`.trim(),
    role: "img",
  });
  if (!card) {
    svg.classList.add("card-back");
    svg.setAttribute("aria-label", t("card.hidden"));
    // A ring, not a diamond: nothing on the back may read as a suit.
    svg.append(
      s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back-bg" }),
      s("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-frame" }),
      s("circle", { cx: 30, cy: 42, r: 12, class: "card-back-ring" }),
      s("circle", { cx: 30, cy: 42, r: 4, class: "card-back-mark" }),
    );
    return svg;
  }
  const rank = card[0];
  const suit = card[1];
  svg.dataset.card = card;
  svg.classList.add(suitClass(suit));
  svg.setAttribute("aria-label", cardLabel(card));
  const text = rankText(rank);
  // "10" is two glyphs in the room of one: a narrower face of the same height, both glyphs
  // squeezed together (spacingAndGlyphs) so they never touch or overlap.
  const ten = text.length > 1;
  svg.append(
    s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }),
    s(
      "text",
      {
        x: ten ? 2.5 : 6,
        y: 27,
        class: ten ? "card-rank card-rank-ten" : "card-rank",
        "font-size": ten ? 25 : 27,
        textLength: ten ? 28 : undefined,
        lengthAdjust: ten ? "spacingAndGlyphs" : undefined,
      },
      text,
    ),
    suitGlyph(suit, 6, 32, 17),
    suitGlyph(suit, 24, 46, 32),
  );
  return svg;
}
