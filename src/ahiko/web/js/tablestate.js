// What this browser knows about one table: the room, the current (or last) hand's view, the
// hand's commitment, the card openings received, the clock of the seat to act, and what this
// browser observed about the commitment's timing (R-FD-04).

import { normalizeRoom } from "./wire.js";

export const COMMITMENT_DISPLAY_MS = 2000; // R-FD-02: shown for two seconds before the cards

export function fingerprint(digest) {
  if (!digest) return "";
  return digest.slice(0, 12).replace(/(.{4})(?=.)/g, "$1 ");
}

function viewHasCards(view) {
  if (!view) return false;
  if (view.board?.length) return true;
  return (view.seats ?? []).some((s) => s.cards?.length);
}

export class TableState {
  constructor(now = () => Date.now()) {
    this.now = now;
    this.you = {};
    this.rawRoom = null;
    this.room = null;
    this.handNo = null;
    this.view = null;
    this.history = []; // the hand's public events: hand frames send only the new ones
    this.commitment = null;
    this.openings = new Map(); // position -> opening
    this.observation = null;
    this.commitmentShownAt = null;
    this.deadline = null; // {seat, endsAt, totalMs}
    this.results = null;
    this.closed = null;
    this.cancelled = null;
  }

  apply(msg) {
    switch (msg.type) {
      case "snapshot":
        this.you = msg.you ?? {};
        this.setRoom(msg.room);
        this.results = msg.results ?? this.results;
        this.loadHand(msg.hand ?? msg.lastHand);
        break;
      case "room":
        this.setRoom(msg.room);
        break;
      case "commitment":
        this.handNo = msg.handNo;
        this.view = null;
        this.history = [];
        this.deadline = null;
        this.cancelled = null;
        this.newCommitment(msg.commitment, true);
        break;
      case "hand":
        if (msg.handNo !== this.handNo) {
          this.handNo = msg.handNo;
          this.history = [];
          if (this.commitment?.hand_no !== msg.handNo) this.clearCommitment();
        }
        this.setView(msg.view, msg.events);
        this.addOpenings(msg.openings);
        this.setDeadline(msg.deadline);
        this.noteCards();
        break;
      case "cancelled":
        this.cancelled = msg;
        this.view = null;
        this.history = [];
        this.deadline = null;
        break;
      case "results":
        this.results = msg.results;
        break;
      case "closed":
        this.closed = msg;
        if (this.room) this.room.status = "closed";
        this.deadline = null;
        break;
      default:
        break;
    }
  }

  setRoom(raw) {
    if (!raw) return;
    this.rawRoom = raw;
    this.room = normalizeRoom(raw, this.you);
  }

  loadHand(hand) {
    if (!hand) {
      this.handNo = null;
      this.view = null;
      this.clearCommitment();
      this.deadline = null;
      return;
    }
    this.handNo = hand.handNo;
    this.history = [];
    this.setView(hand.view, []);
    if (hand.commitment) this.newCommitment(hand.commitment, !viewHasCards(hand.view));
    else this.clearCommitment();
    this.addOpenings(hand.openings);
    this.setDeadline(hand.deadline);
    this.noteCards();
  }

  /** The view with the whole public history: from the view itself, or accumulated. */
  setView(view, events) {
    if (!view) {
      this.view = null;
      return;
    }
    if (Array.isArray(view.history)) this.history = view.history;
    else this.history = this.history.concat(events ?? []);
    this.view = { ...view, history: this.history };
  }

  setDeadline(d) {
    if (!d || !Number.isInteger(d.seat)) {
      this.deadline = null;
      return;
    }
    const left = Math.round((d.seconds_left ?? 0) * 1000);
    this.deadline = {
      seat: d.seat,
      endsAt: this.now() + left,
      totalMs: Math.max(left, this.room?.deadlineMs ?? left),
    };
  }

  clearCommitment() {
    this.commitment = null;
    this.openings = new Map();
    this.observation = null;
    this.commitmentShownAt = null;
  }

  newCommitment(commitment, beforeCards) {
    if (this.commitment && this.commitment.digest === commitment.digest) return;
    this.commitment = commitment;
    this.openings = new Map();
    const at = this.now();
    this.commitmentShownAt = beforeCards ? at : null;
    this.observation = {
      commitment_before_cards: beforeCards,
      commitment_received_at: at,
      first_card_at: null,
    };
  }

  noteCards() {
    if (this.observation && this.observation.first_card_at === null && viewHasCards(this.view)) {
      this.observation.first_card_at = this.now();
    }
  }

  addOpenings(list) {
    for (const o of list ?? []) {
      if (o && Number.isInteger(o.position)) this.openings.set(o.position, o);
    }
  }

  /** True while the fresh commitment is on display, before cards should appear. */
  commitmentOnDisplay() {
    return (
      this.commitmentShownAt !== null &&
      !viewHasCards(this.view) &&
      this.now() - this.commitmentShownAt < COMMITMENT_DISPLAY_MS
    );
  }

  draws() {
    const out = [];
    for (const e of this.view?.history ?? []) {
      if (e.kind === "discarded") out.push([e.seat, e.count]);
    }
    return out;
  }

  /** The pokerfair-proof/1 file for the current (or just finished) hand. */
  proofFile() {
    if (!this.commitment) return null;
    const file = {
      format: "pokerfair-proof/1",
      commitment: this.commitment,
      client_observation: { ...this.observation },
      cards: [...this.openings.values()].sort((a, b) => a.position - b.position),
    };
    if (this.commitment.layout === "draw5-v1") file.public = { draws: this.draws() };
    return file;
  }

  player(seat) {
    return this.room?.players?.[seat] ?? null;
  }

  playerName(seat) {
    const p = this.player(seat);
    return p?.name || `#${seat + 1}`;
  }

  mySeat() {
    if (this.room && this.room.mySeat !== null) return this.room.mySeat;
    const v = this.view?.viewer;
    if (Number.isInteger(v)) return v;
    return Number.isInteger(this.you?.seat) ? this.you.seat : null;
  }
}
