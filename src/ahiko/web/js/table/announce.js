// Screen-reader play: the table told as it happens. Every public event of the hand is said
// once, in order, in the page's language, through a polite live region (role "log", lines
// added, never rewritten, so a screen reader reads each new line and skips none): the deal
// ("Suas cartas: ás de espadas, rei de copas"), each action with its amount, each street with
// its board and the pot, whose turn it is (for this player: what it costs, what it may raise
// and the clock), the showdown's hands and each pot's result.

import { cardLabel } from "../cards.js";
import { h } from "../dom.js";
import { fmt, t } from "../i18n.js";
import { eventText, showdownHands } from "./describe.js";

const MODE_KEY = "ahiko.reader";
const KEPT_LINES = 60; // older lines were read long ago; the region stays small

/** "on"/"off" when the player chose; absent: on by itself when the browser asks for reduced
 *  motion or forced colours (a screen reader or a magnifier is then likely). */
export function readerModeOn() {
  let saved = null;
  try {
    saved = localStorage.getItem(MODE_KEY);
  } catch {
    // storage unavailable: the browser's own signals decide
  }
  if (saved === "on" || saved === "off") return saved === "on";
  const media = (q) => window.matchMedia?.(q).matches ?? false;
  return media("(prefers-reduced-motion: reduce)") || media("(forced-colors: active)");
}

export function setReaderMode(on) {
  try {
    localStorage.setItem(MODE_KEY, on ? "on" : "off");
  } catch {
    // not remembered: this page only
  }
}

export function cardsText(cards) {
  return (cards ?? []).map(cardLabel).join(", ");
}

/** The chips in the middle after `events`: forced bets and what each action put in, less
 *  what went back uncalled. */
export function potAfter(events) {
  let pot = 0;
  for (const e of events) {
    if (e.kind === "blind_posted" || e.kind === "ante_posted") pot += e.amount ?? 0;
    else if (e.kind === "action") pot += e.added ?? 0;
    else if (e.kind === "bet_returned") pot -= e.amount ?? 0;
  }
  return pot;
}

/** Seconds left on the seat to act's clock, or null without one. */
export function secondsLeft(state) {
  const d = state.deadline;
  if (!d || d.seat !== state.view?.to_act) return null;
  return Math.max(0, Math.ceil((d.endsAt - Date.now()) / 1000));
}

/** What this player hears when the turn comes to them. */
export function yourTurnText(view, legal, seconds, pot) {
  const parts = [t("sr.your_turn")];
  if (legal.is_draw_phase) {
    parts.push(t("sr.draw_turn", { n: legal.max_discards ?? 3 }));
  } else {
    parts.push(legal.can_check ? t("sr.can_check") : t("sr.to_call", { amount: fmt(legal.call_cost ?? 0) }));
    const kind = legal.bet_kind ? String(legal.bet_kind).toLowerCase() : null;
    const key = kind === "bet" ? "sr.can_bet" : "sr.can_raise";
    if (kind && legal.min_to === legal.max_to) parts.push(t(`${key}_one`, { amount: fmt(legal.min_to) }));
    else if (kind) parts.push(t(key, { min: fmt(legal.min_to), max: fmt(legal.max_to) }));
  }
  parts.push(t("sr.pot", { amount: fmt(pot) }));
  if (seconds !== null) parts.push(t("sr.clock", { s: seconds }));
  return parts.join(". ");
}

const FORCED = new Set(["hand_started", "blind_posted", "ante_posted"]);

export class Narrator {
  constructor() {
    // role "log" is a polite live region by itself.
    this.region = h("div.sr-log.visually-hidden", { role: "log", "aria-relevant": "additions", "aria-label": t("sr.mode") });
    this.count = 0;
    this.handNo = null;
    this.seen = 0;
    this.cardsSaid = "";
    this.turnSaid = null;
  }

  /** One line, added after the others (data-n numbers them in the order said). */
  say(text) {
    if (!text) return;
    this.count += 1;
    this.region.append(h("p", { dataset: { n: String(this.count) } }, text));
    while (this.region.childElementCount > KEPT_LINES) this.region.firstElementChild.remove();
  }

  /** Say what is new on the table since the last call (the TablePage calls it per frame). */
  follow(state) {
    const view = state.view;
    if (state.handNo !== this.handNo) {
      this.handNo = state.handNo;
      this.seen = 0;
      this.cardsSaid = "";
      this.turnSaid = null;
    }
    if (!view) return;
    const history = view.history ?? [];
    if (history.length < this.seen) this.seen = 0; // a fresh snapshot of the same hand
    const me = state.mySeat();
    const mine = (view.seats ?? []).find((s) => s.seat === me);
    const nameOf = (seat) => state.playerName(seat);
    const hands = history.some((e) => e.kind === "pot_awarded" || e.kind === "cards_shown") ? showdownHands(view) : {};
    for (let i = this.seen; i < history.length; i += 1) {
      const e = history[i];
      if (!FORCED.has(e.kind) && !this.cardsSaid) this.sayCards(mine, "sr.your_cards");
      const line = eventText(e, nameOf, state.handNo, hands);
      if (e.kind === "street") {
        this.say(`${line}. ${t("sr.pot", { amount: fmt(potAfter(history.slice(0, i + 1))) })}`);
      } else if (e.kind === "cards_shown" && hands[e.seat]?.name) {
        this.say(t("sr.shows_hand", { line, hand: hands[e.seat].name }));
      } else {
        this.say(line);
      }
      if (e.kind === "discarded" && e.seat === me) this.sayCards(mine, "sr.new_cards");
    }
    this.seen = history.length;
    if (!this.cardsSaid && view.street !== "over") this.sayCards(mine, "sr.your_cards");
    this.sayTurn(state, view, me, history);
  }

  /** My cards, once per set of cards: after the forced bets, then the draw's new ones. */
  sayCards(mine, key) {
    const cards = mine?.cards ?? [];
    const text = cards.join(" ");
    if (!cards.length || text === this.cardsSaid) return;
    this.cardsSaid = text;
    this.say(t(key, { cards: cardsText(cards) }));
  }

  sayTurn(state, view, me, history) {
    const seat = view.to_act;
    if (seat === null || seat === undefined || ["showdown", "over"].includes(view.street)) return;
    const key = `${history.length}:${seat}`;
    if (key === this.turnSaid) return;
    this.turnSaid = key;
    if (seat === me && view.legal) this.say(yourTurnText(view, view.legal, secondsLeft(state), potAfter(history)));
    else this.say(t("sr.turn_of", { name: state.playerName(seat) }));
  }
}
