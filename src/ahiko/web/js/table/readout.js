// The table read on demand, by keys that work in any mode: H your cards, B the board, P the
// pot, S each seat's stack, bet and last action, T the time left, ? the keys. During the
// draw, 1 to 5 pick the cards to throw away (Enter draws, in the action bar). What is read
// goes to its own polite status line, so it never mixes with the running account of the hand.

import { cardLabel } from "../cards.js";
import { h } from "../dom.js";
import { fmt, t } from "../i18n.js";
import { cardsText, potAfter, secondsLeft } from "./announce.js";
import { lastActionText } from "./describe.js";
import { hotkeysOn } from "./sizing.js";

function typingIn(target) {
  if (!(target instanceof HTMLElement)) return false;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable;
}

export function myCardsText(state) {
  const me = state.mySeat();
  const mine = (state.view?.seats ?? []).find((s) => s.seat === me);
  return mine?.cards?.length ? t("sr.your_cards", { cards: cardsText(mine.cards) }) : t("sr.no_cards");
}

export function boardText(state) {
  const board = state.view?.board ?? [];
  return board.length ? t("sr.board", { cards: cardsText(board) }) : t("sr.board_empty");
}

export function potText(state) {
  const view = state.view;
  if (!view) return t("sr.no_hand");
  return t("sr.pot", { amount: fmt(potAfter(view.history ?? [])) });
}

/** Each seat in the hand (or at the table between hands): name, stack, bet, last action. */
export function seatsText(state) {
  const me = state.mySeat();
  const inHand = state.view?.seats ?? [];
  const rows = inHand.length
    ? inHand.map((s) => ({ seat: s.seat, stack: s.stack, bet: s.bet, last: lastActionText(s) }))
    : Object.values(state.room?.players ?? {}).map((p) => ({ seat: p.seat, stack: p.stack, bet: 0, last: "" }));
  if (!rows.length) return t("sr.empty_table");
  return rows
    .map((r) => {
      const name = r.seat === me ? `${state.playerName(r.seat)} (${t("sr.seat_you")})` : state.playerName(r.seat);
      const parts = [t("sr.seat", { n: r.seat + 1, name, stack: fmt(r.stack ?? 0) })];
      if (r.bet) parts.push(t("sr.seat_bet", { amount: fmt(r.bet) }));
      if (r.last) parts.push(r.last);
      return parts.join(", ");
    })
    .join("; ");
}

export function timeText(state) {
  const seconds = secondsLeft(state);
  if (seconds === null) return t("sr.no_clock");
  const seat = state.view.to_act;
  return seat === state.mySeat() ? t("sr.clock", { s: seconds }) : t("sr.clock_of", { name: state.playerName(seat), s: seconds });
}

const READS = { h: myCardsText, b: boardText, p: potText, s: seatsText, t: timeText, "?": () => t("sr.keys") };

export class TableReader {
  /** `state`: the TableState; `actionBar`: its discard choice (toggleDiscard, selected). */
  constructor(state, actionBar) {
    this.state = state;
    this.actionBar = actionBar;
    // role "status" is a polite live region by itself.
    this.line = h("p.sr-read.visually-hidden", { role: "status", "aria-atomic": "true" });
    this.onKey = (ev) => this.key(ev);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  read(text) {
    // Said again even when it reads the same as last time: the line is emptied first.
    this.line.textContent = "";
    requestAnimationFrame(() => {
      this.line.textContent = text;
    });
  }

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !hotkeysOn() || typingIn(ev.target) || document.querySelector("dialog[open]")) return;
    const key = ev.key.toLowerCase();
    if (READS[key]) {
      ev.preventDefault();
      this.read(READS[key](this.state));
    } else if (/^[1-5]$/.test(key) && this.pickDiscard(Number(key) - 1)) {
      ev.preventDefault();
    }
  }

  /** The draw: the n-th of my cards in or out of the discards, and what that leaves. */
  pickDiscard(index) {
    const bar = this.actionBar;
    if (!bar.isOpen() || !bar.legal?.is_draw_phase) return false;
    const me = this.state.mySeat();
    const card = (this.state.view?.seats ?? []).find((s) => s.seat === me)?.cards?.[index];
    if (!card) return false;
    bar.toggleDiscard(card);
    const picked = bar.selected.has(card);
    this.read(t(picked ? "sr.discard_pick" : "sr.discard_keep", { card: cardLabel(card), n: bar.selected.size }));
    return true;
  }
}
