// Names a poker hand from its cards ("Full house, damas e cincos") and picks the five cards
// that make it, so the showdown can lift them. The server decides who wins; this only labels.

import { t, tList } from "./i18n.js";

const RANKS = "23456789TJQKA";

export const CATEGORY = Object.freeze({
  HIGH_CARD: 0,
  PAIR: 1,
  TWO_PAIR: 2,
  TRIPS: 3,
  STRAIGHT: 4,
  FLUSH: 5,
  FULL_HOUSE: 6,
  QUADS: 7,
  STRAIGHT_FLUSH: 8,
});

function straightHigh(ranksDesc) {
  const set = new Set(ranksDesc);
  if (set.size !== 5) return -1;
  const [hi] = ranksDesc;
  if (ranksDesc[0] - ranksDesc[4] === 4) return hi;
  if (hi === 12 && ranksDesc[1] === 3 && ranksDesc[4] === 0) return 3; // A-2-3-4-5
  return -1;
}

/** Value of exactly five cards: {category, key: [category, ranks...]} comparable lexically. */
export function evaluateFive(cards) {
  const ranks = cards.map((c) => RANKS.indexOf(c[0])).sort((a, b) => b - a);
  const flush = cards.every((c) => c[1] === cards[0][1]);
  const high = straightHigh(ranks);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const byGroup = groups.map(([r]) => r);
  const shape = groups.map(([, n]) => n).join("");
  let category;
  let key;
  if (high >= 0 && flush) [category, key] = [CATEGORY.STRAIGHT_FLUSH, [high]];
  else if (shape === "41") [category, key] = [CATEGORY.QUADS, byGroup];
  else if (shape === "32") [category, key] = [CATEGORY.FULL_HOUSE, byGroup];
  else if (flush) [category, key] = [CATEGORY.FLUSH, ranks];
  else if (high >= 0) [category, key] = [CATEGORY.STRAIGHT, [high]];
  else if (shape === "311") [category, key] = [CATEGORY.TRIPS, byGroup];
  else if (shape === "221") [category, key] = [CATEGORY.TWO_PAIR, byGroup];
  else if (shape === "2111") [category, key] = [CATEGORY.PAIR, byGroup];
  else [category, key] = [CATEGORY.HIGH_CARD, ranks];
  return { category, key: [category, ...key], cards };
}

function compareKeys(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

function* combinations(items, k, start = 0, chosen = []) {
  if (chosen.length === k) {
    yield chosen.slice();
    return;
  }
  for (let i = start; i <= items.length - (k - chosen.length); i += 1) {
    chosen.push(items[i]);
    yield* combinations(items, k, i + 1, chosen);
    chosen.pop();
  }
}

/** Best five of five to seven cards (R-RK-06). Returns null with fewer than five. */
export function bestHand(cards) {
  if (!cards || cards.length < 5) return null;
  let best = null;
  for (const five of combinations(cards, 5)) {
    const value = evaluateFive(five);
    if (!best || compareKeys(value.key, best.key) > 0) best = value;
  }
  return best;
}

/** Best Omaha hand: exactly two of the hole cards and three of the board, never more or
 *  fewer of either (a four-flush in the hand with one suited board card is no flush).
 *  Returns null before the flop. */
export function bestOmahaHand(hole, board) {
  if (!hole || !board || hole.length < 2 || board.length < 3) return null;
  let best = null;
  for (const two of combinations(hole, 2)) {
    for (const three of combinations(board, 3)) {
      const value = evaluateFive([...two, ...three]);
      if (!best || compareKeys(value.key, best.key) > 0) best = value;
    }
  }
  return best;
}

/** The best hand a player holds in `game` (its `evaluator`, from the server's definition):
 *  two plus three in Omaha, any five of the cards and the board otherwise. */
export function bestHandIn(game, hole, board = []) {
  if (game?.evaluator === "omaha") return bestOmahaHand(hole, board);
  return bestHand([...(hole ?? []), ...board]);
}

export function compareHands(a, b) {
  return compareKeys(a.key, b.key);
}

/** Localised name: "Full house, damas e cincos", "Sequência, de 9 a K". */
export function handName(value) {
  if (!value) return "";
  const one = tList("rank.one");
  const many = tList("rank.many");
  const short = tList("rank.short");
  const [category, a, b] = value.key;
  switch (category) {
    case CATEGORY.STRAIGHT_FLUSH:
      if (a === 12) return t("hand.royal_flush");
      return t("hand.straight_flush", { lo: a === 3 ? "A" : short[a - 4], hi: short[a] });
    case CATEGORY.QUADS:
      return t("hand.quads", { p1: many[a] });
    case CATEGORY.FULL_HOUSE:
      return t("hand.full_house", { p1: many[a], p2: many[b] });
    case CATEGORY.FLUSH:
      return t("hand.flush", { r1: one[a] });
    case CATEGORY.STRAIGHT:
      return t("hand.straight", { lo: a === 3 ? "A" : short[a - 4], hi: short[a] });
    case CATEGORY.TRIPS:
      return t("hand.trips", { p1: many[a] });
    case CATEGORY.TWO_PAIR:
      return t("hand.two_pair", { p1: many[a], p2: many[b] });
    case CATEGORY.PAIR:
      return t("hand.pair", { p1: many[a] });
    default:
      return t("hand.high_card", { r1: one[a] });
  }
}
