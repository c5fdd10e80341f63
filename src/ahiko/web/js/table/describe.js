// Words for what happened: the last action under a seat (R-HE-06), hand-log lines, and the
// showdown's result per pot with the hand's name.

import { cardLabel } from "../cards.js";
import { gameOf } from "../games.js";
import { bestHandIn, handName } from "../handeval.js";
import { fmt, lang, t, tList } from "../i18n.js";

/** `short`: without the amount, for a seat whose bet shows it beside (the phone's table). */
export function lastActionText(seatView, { short = false } = {}) {
  const last = seatView?.last_action;
  if (!last) {
    // Later rounds keep saying why a seat is out, so dimming is not the only signal.
    if (seatView?.status === "allin") return t("last.allin");
    return seatView?.status === "folded" ? t("last.fold") : "";
  }
  const kind = String(last.kind).toLowerCase();
  const amount = last.amount ?? 0;
  if (seatView.status === "allin" && ["call", "bet", "raise", "allin"].includes(kind)) {
    return t("last.allin");
  }
  switch (kind) {
    case "fold":
      return t("last.fold");
    case "check":
      return t("last.check");
    case "call":
      return short ? t("last.call_short") : t("last.call", { amount: fmt(amount || seatView.bet || 0) });
    case "bet":
      return short ? t("last.bet_short") : t("last.bet", { amount: fmt(amount) });
    case "raise":
      return short ? t("last.raise_short") : t("last.raise", { amount: fmt(amount) });
    case "allin":
      return t("last.allin");
    case "discard":
      return amount || last.count
        ? t("last.discard", { n: amount || last.count })
        : t("last.stand_pat");
    case "sb":
    case "bb":
    case "ante":
      return t(`last.${kind}`, { amount: fmt(amount) });
    default:
      return kind;
  }
}

function cardsText(cards) {
  return (cards ?? []).map(cardLabel).join(", ");
}

/** One line for the hand log, or null for events the log does not show; `hands` names the
 *  shown hands (showdownHands). */
export function eventText(event, nameOf, handNo = null, hands = {}) {
  const name = event.seat !== undefined ? nameOf(event.seat) : "";
  switch (event.kind) {
    case "hand_started":
      return t("log.hand_started", { n: event.hand_no ?? handNo ?? "" });
    case "blind_posted":
      return t("log.blind", {
        name,
        blind: event.blind === "sb" ? "SB" : "BB",
        amount: fmt(event.amount),
      });
    case "ante_posted":
      return t("log.ante", { name, amount: fmt(event.amount) });
    case "action": {
      const kind = event.action ?? event.action_kind ?? event.kind_of ?? "";
      const fake = {
        last_action: { kind, amount: kind === "call" ? event.added : event.amount },
        status: event.all_in ? "allin" : "active",
      };
      return t("log.action", { name, text: lastActionText(fake) });
    }
    case "street":
      if (!event.cards?.length) return t(`street.${event.name}`);
      return t("log.street", {
        street: t(`street.${event.name}`),
        cards: cardsText(event.cards),
      });
    case "discarded":
      return event.count
        ? t("log.discarded", { name, n: event.count })
        : t("log.action", { name, text: t("last.stand_pat") });
    case "bet_returned":
      return t("log.returned", { name, amount: fmt(event.amount) });
    case "cards_shown":
      return t("log.shown", { name, cards: cardsText(event.cards) });
    case "mucked":
      return t("log.mucked", { name });
    case "pot_awarded":
      return potResultText(event, nameOf, hands);
    // A home game's hand options: the run-it-twice answers, the second board, the bounty.
    case "runout_offered":
      return t("log.runout_offered");
    case "runout_chosen":
      return t(event.runs === 2 ? "log.runout_twice" : "log.runout_once", { name });
    case "second_board":
      return t("log.second_board", { street: t(`street.${event.name}`), cards: cardsText(event.cards) });
    case "bounty_paid":
      return t("log.bounty", { name, amount: fmt(event.amount) });
    default:
      return null;
  }
}

/** The cards each seat showed, from the public history. */
export function shownCards(view) {
  const shown = {};
  for (const s of view?.seats ?? []) if (s.cards?.length) shown[s.seat] = s.cards;
  // A folded draw player gets cards_shown with cards: null (R-DR-07): nothing to show.
  for (const e of view?.history ?? []) if (e.kind === "cards_shown" && e.cards?.length) shown[e.seat] = e.cards;
  return shown;
}

// How many of a category's deciding ranks its name says ("Par de ases": one); the rest are
// kickers, named only when one decided between two hands of the same name.
const NAMED_RANKS = [1, 1, 2, 1, 1, 1, 2, 1, 1];

/** The first kicker (index in value.key) that tells `a` from `b`, when both read the same. */
function kickerIndex(a, b) {
  if (a[0] !== b[0]) return null;
  const named = 1 + NAMED_RANKS[a[0]];
  for (let i = 1; i < named; i += 1) if (a[i] !== b[i]) return null;
  for (let i = named; i < Math.max(a.length, b.length); i += 1) if (a[i] !== b[i]) return i;
  return null;
}

/** Best hand per showing seat: {seat: {value, name}}. The server's value for a pot's hands
 *  (`pot_awarded.hands`: category and deciding ranks) wins over ours; the words are ours, with
 *  the kicker when it decided between hands of one name ("Par de ases, kicker rei"). */
export function showdownHands(view) {
  const out = {};
  const board = view?.board ?? [];
  const game = gameOf(view?.variant);
  for (const [seat, cards] of Object.entries(shownCards(view))) {
    const value = bestHandIn(game, cards, board);
    if (value) out[seat] = { value };
  }
  const awards = potAwards(view);
  for (const a of awards) {
    for (const [seat, v] of Object.entries(a.hands ?? {})) {
      if (!Number.isInteger(v?.category) || !Array.isArray(v.ranks)) continue;
      out[seat] = { value: { category: v.category, key: [v.category, ...v.ranks], cards: out[seat]?.value.cards ?? [] } };
    }
  }
  // The kicker is decided between hands the table saw: a viewer's own cards that were not
  // shown (mucked) are theirs alone, and the result line is the same for everyone.
  const seen = seenSeats(view, awards);
  const kicker = {};
  for (const a of awards) {
    const winners = new Set((a.winners ?? []).map(String));
    const inPot = (a.eligible ?? Object.keys(out).map(Number)).map(String)
      .filter((s) => out[s] && seen.has(s));
    for (const seat of inPot) {
      const rivals = inPot.filter((o) => o !== seat && (winners.has(seat) ? !winners.has(o) : winners.has(o)));
      for (const o of rivals) {
        const i = kickerIndex(out[seat].value.key, out[o].value.key);
        if (i !== null && (kicker[seat] === undefined || i > kicker[seat])) kicker[seat] = i;
      }
    }
  }
  const one = tList("rank.one");
  for (const [seat, hand] of Object.entries(out)) {
    const i = kicker[seat];
    hand.name = handName(hand.value) + (i === undefined ? "" : t("hand.kicker", { r: one[hand.value.key[i]] }));
  }
  return out;
}

/** The seats whose hand every viewer saw: shown, valued in a pot, or another seat's cards. */
function seenSeats(view, awards) {
  const seen = new Set();
  for (const s of view?.seats ?? []) if (s.cards?.length && s.seat !== view.viewer) seen.add(String(s.seat));
  for (const e of view?.history ?? []) if (e.kind === "cards_shown" && e.cards?.length) seen.add(String(e.seat));
  for (const a of awards) for (const seat of Object.keys(a.hands ?? {})) seen.add(String(seat));
  return seen;
}

export function potAwards(view) {
  return (view?.history ?? []).filter((e) => e.kind === "pot_awarded");
}

export function potLabel(index) {
  return index === 0 ? t("table.main_pot") : t("table.side_pot", { n: index, amount: "" })
    .replace(/[:\s]+$/, "");
}

/** Our name for a seat's hand in this pot (an older archive's words as a last resort). */
function awardHandName(award, seat, hands) {
  if (hands[seat]?.name) return hands[seat].name;
  const names = award.hand_names?.[seat] ?? award.hand_names?.[String(seat)];
  return names?.[lang()] ?? names?.["pt-BR"] ?? null;
}

export function potResultText(award, nameOf, hands) {
  const shares = award.shares ?? {};
  const winners = award.winners ?? Object.keys(shares).map(Number);
  const parts = winners.map((seat) => {
    const amount = fmt(shares[seat] ?? shares[String(seat)] ?? award.amount);
    const hand = awardHandName(award, seat, hands);
    return hand
      ? t("table.wins_with", { name: nameOf(seat), amount, hand })
      : t("table.wins", { name: nameOf(seat), amount });
  });
  return `${potLabel(award.index ?? 0)}: ${parts.join("; ")}`;
}

/**
 * Words for a refusal (C-ERRORS): the player's language for a known code (`error.<code>`),
 * else the server's message without rule ids, else the generic line.
 */
export function errorText(code, message = "") {
  if (code) {
    const key = `error.${code}`;
    const text = t(key);
    if (text !== key) return text;
  }
  const plain = String(message ?? "").replace(/\s*\(?\bR-[A-Z]{2}-\d+\)?/g, "").trim();
  return plain || t("error.generic", { message: code ?? "" });
}
