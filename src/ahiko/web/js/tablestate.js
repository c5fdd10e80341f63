// What this browser knows about one table: the room, the current (or last) hand's view, the
// hand's commitment, the card openings received, the clock of the seat to act, and what this
// browser observed about the commitment's timing (R-FD-04). The proof of the hand before
// stays here after the next commitment, so "Conferir cartas" can still check it.

import { gameOfLayout } from "./games.js";
import { t } from "./i18n.js";
import { botName, normalizeRoom } from "./wire.js";

// The waits (the commitment's display, the next hand, the Bot Ahiko) are the server's: it
// sends what is left of them (`countdown` frames, the room's `countdowns`, `cards_in_s`) and
// this browser counts down from those numbers; it holds none of the durations.

/** How long a finished hand stays on the felt once nothing follows it (a UI choice). */
export const FINISHED_HAND_SHOWN_MS = 6000;

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
    this.fair = null; // pokerfair/2: {contributors, mix, own, receipts} of this commitment
    this.openings = new Map(); // position -> opening
    this.observation = null;
    this.commitmentShownAt = null;
    this.deadline = null; // {seat, endsAt, totalMs}
    this.results = null;
    this.closed = null;
    this.cancelled = null;
    this.handNames = {}; // seat -> name at deal time (C-NAMES), kept after the players leave
    this.namesHandNo = null;
    this.previous = null; // {handNo, file}: the proof of the hand before the current one
    this.nextHandAt = null; // when the next hand is committed, as the server counts it
    this.botAhikoAt = null; // when the Bot Ahiko joins a lone person, as the server counts it
    this.cardsAt = null; // when the committed hand's cards come (R-FD-02), from the server
    this.handOverAt = null; // when this browser saw the hand on the table end
    this.autoAction = null; // the room's last answer for a seat (timeout, away, limit)
  }

  /** The server's waits, in seconds from now: {next_hand, bot_ahiko} (absent: none). */
  setCountdowns(countdowns) {
    const at = (name) => (typeof countdowns?.[name] === "number" ? this.now() + countdowns[name] * 1000 : null);
    this.nextHandAt = at("next_hand");
    this.botAhikoAt = at("bot_ahiko");
  }

  apply(msg) {
    switch (msg.type) {
      case "snapshot":
        this.you = msg.you ?? {};
        this.setRoom(msg.room);
        this.results = msg.results ?? this.results;
        this.loadHand(msg.hand ?? msg.lastHand);
        if (msg.hand && msg.lastHand) this.keepLastHand(msg.lastHand);
        break;
      case "room":
        this.setRoom(msg.room);
        break;
      case "countdown":
        this.setCountdowns(msg.countdowns);
        break;
      case "commitment":
        this.handNo = msg.handNo;
        this.view = null;
        this.history = [];
        this.deadline = null;
        this.cancelled = null;
        this.nextHandAt = null;
        this.handOverAt = null;
        this.autoAction = null;
        this.newCommitment(msg.commitment, true, msg.cardsInS, msg.contributors);
        break;
      case "fair_mix":
        if (this.fair && this.commitment?.hand_no === msg.handNo) this.fair.mix = msg;
        break;
      case "hand":
        if (msg.handNo !== this.handNo) {
          this.handNo = msg.handNo;
          this.history = [];
          if (this.commitment?.hand_no !== msg.handNo) this.clearCommitment();
        }
        this.setView(msg.view, msg.events);
        this.setNames(msg.handNo, msg.names);
        this.addOpenings(msg.openings);
        this.setDeadline(msg.deadline);
        if (msg.autoAction) this.autoAction = { ...msg.autoAction, handNo: msg.handNo };
        this.noteCards();
        this.noteHandEnd();
        break;
      case "time_bank":
        if (msg.handNo === this.handNo) this.setDeadline(msg.deadline);
        break;
      case "cancelled":
        this.cancelled = msg;
        this.view = null;
        this.history = [];
        this.deadline = null;
        this.clearCommitment(); // no card was dealt: nothing of it to check
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
    this.setCountdowns(this.room.countdowns);
  }

  /** Seats that can play the next hand: chips, and not on their way out. */
  readyPlayers() {
    return Object.values(this.room?.players ?? {}).filter((p) => p.stack > 0 && !p.leaving && !p.reserved);
  }

  /** True while no hand is being played (none yet, or the last one is over). */
  betweenHands() {
    return !this.view || this.view.street === "over";
  }

  /** When this browser first saw the hand on the table over (for clearing it later). */
  noteHandEnd() {
    if (this.view?.street === "over") {
      if (this.handOverAt === null) this.handOverAt = this.now();
    } else {
      this.handOverAt = null;
    }
  }

  /** The finished hand no longer belongs on the felt: nobody who played it is still seated
   *  (the room emptied), or it has been shown a while and no next hand can follow it (a
   *  player left alone waits for an opponent). */
  finishedHandStale() {
    const view = this.view;
    if (!view || view.street !== "over" || this.room?.status === "replay") return false;
    const seats = (view.seats ?? []).map((s) => s.seat);
    // Everyone who played it left (R-RM-14, "Sair após esta mão"): its result still stays
    // the usual few seconds for who watched it end; a page that comes later finds it gone.
    if (this.room?.players && seats.every((s) => this.handSeatNow(s) !== "here")) return this.resultShownForMs() === 0;
    if (this.nextHandAt !== null || this.readyPlayers().length >= 2) return false; // a hand follows
    return this.handOverAt !== null && this.now() - this.handOverAt >= FINISHED_HAND_SHOWN_MS;
  }

  /** How much longer the hand this browser saw end stays on the felt (ms; 0: not any more). */
  resultShownForMs() {
    if (this.view?.street !== "over" || this.handOverAt === null || this.room?.status === "replay") return 0;
    return Math.max(0, this.handOverAt + FINISHED_HAND_SHOWN_MS - this.now());
  }

  /** Where the felt is seen from: my seat, or, while the hand I left after ("Sair após esta
   *  mão") still shows its result, the seat I played it from, so it ends as it was played. */
  feltSeat() {
    const mine = this.mySeat();
    if (mine !== null || this.resultShownForMs() === 0) return mine;
    const viewer = this.view?.viewer;
    return Number.isInteger(viewer) && this.handSeatNow(viewer) === "gone" ? viewer : null;
  }

  /** Names of the hand's seats: the server's (C-NAMES), else those seated when it began. */
  setNames(handNo, names) {
    if (handNo !== this.namesHandNo) {
      this.handNames = {};
      this.namesHandNo = handNo;
    }
    for (const [seat, name] of Object.entries(names ?? {})) {
      if (name) this.handNames[String(seat)] = String(name);
    }
    for (const s of this.view?.seats ?? []) {
      const key = String(s.seat);
      const p = this.player(s.seat);
      if (!this.handNames[key] && p?.name) this.handNames[key] = p.name;
    }
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
    this.setNames(hand.handNo, hand.names);
    if (hand.commitment) this.newCommitment(hand.commitment, !viewHasCards(hand.view), hand.cardsInS);
    else this.clearCommitment();
    this.addOpenings(hand.openings);
    this.setDeadline(hand.deadline);
    this.noteCards();
    this.noteHandEnd();
  }

  /** A snapshot's finished hand, when a new one is already committed: its proof stays at
   *  hand for "Conferir cartas" (this browser did not see its commitment before the cards). */
  keepLastHand(last) {
    if (!last?.commitment || !last.openings?.length) return;
    if (this.previous?.handNo === last.handNo || this.commitment?.digest === last.commitment.digest) return;
    const at = this.now();
    this.previous = {
      handNo: last.handNo,
      file: this.buildProof(
        last.commitment,
        { commitment_before_cards: false, commitment_received_at: at, first_card_at: at },
        last.openings,
        last.view?.history ?? [],
      ),
    };
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

  /** Which turn this is: the same seat acting twice in a row is two turns. */
  turnKey(seat) {
    const acts = (this.view?.history ?? []).filter((e) => e.kind === "action" || e.kind === "discarded").length;
    return `${this.handNo}:${seat}:${acts}`;
  }

  /** The clock of the seat to act (C-DEADLINE). When a frame brings none for a person to
   *  act (an older server sent none on your own turn), the room's full time per decision is
   *  counted from the turn's first frame. */
  setDeadline(d) {
    const toAct = this.view?.to_act;
    const known = Number.isInteger(toAct);
    if (d && Number.isInteger(d.seat) && (!known || d.seat === toAct)) {
      const left = Math.round((d.seconds_left ?? 0) * 1000);
      this.deadline = {
        seat: d.seat,
        endsAt: this.now() + left,
        totalMs: Math.max(left, this.room?.deadlineMs ?? left),
        key: this.turnKey(d.seat),
        bank: d.time_bank_running ?? null, // The time bank's seconds while it runs
        bankLeft: d.time_bank ?? null, // what the seat's bank holds
      };
      return;
    }
    const total = this.room?.deadlineMs;
    // Bots answer on their own time, with no clock to show.
    if (!known || !total || this.view?.street === "over" || this.player(toAct)?.bot) {
      this.deadline = null;
      return;
    }
    const key = this.turnKey(toAct);
    if (this.deadline?.key === key) return; // the same turn: its clock runs on
    this.deadline = { seat: toAct, endsAt: this.now() + total, totalMs: total, key, estimated: true };
  }

  clearCommitment() {
    this.keepPrevious();
    this.commitment = null;
    this.fair = null;
    this.openings = new Map();
    this.observation = null;
    this.commitmentShownAt = null;
    this.cardsAt = null;
  }

  /** Before a commitment is replaced: keep its proof if this browser got any of its cards. */
  keepPrevious() {
    if (!this.commitment || !this.openings.size) return;
    this.previous = { handNo: this.commitment.hand_no ?? this.handNo, file: this.proofFile() };
  }

  /** `cardsInS`: the server's seconds left before the cards (none: the cards are out). */
  newCommitment(commitment, beforeCards, cardsInS = null, contributors = null) {
    if (this.commitment && this.commitment.digest === commitment.digest) return;
    this.keepPrevious();
    this.commitment = commitment;
    // pokerfair/2: the signed contributor set, then the mix; this browser's secret and receipt
    this.fair = contributors ? { contributors, mix: null, own: null, receipts: [] } : null;
    this.openings = new Map();
    const at = this.now();
    this.commitmentShownAt = beforeCards ? at : null;
    this.cardsAt = beforeCards && typeof cardsInS === "number" ? at + cardsInS * 1000 : null;
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
    return this.commitmentShownAt !== null && !viewHasCards(this.view) && (this.cardsAt === null || this.now() < this.cardsAt);
  }

  draws(history = this.view?.history ?? []) {
    const out = [];
    for (const e of history) {
      if (e.kind === "discarded") out.push([e.seat, e.count]);
    }
    return out;
  }

  buildProof(commitment, observation, openings, history, fair = null) {
    const file = {
      format: "pokerfair-proof/1",
      commitment,
      client_observation: { ...observation },
      cards: [...openings].sort((a, b) => a.position - b.position),
    };
    // a deal with a draw: the public order of the replacements places them (FAIRNESS.md)
    if (gameOfLayout(commitment.layout)?.has_draw) file.public = { draws: this.draws(history) };
    if (!fair?.mix) return file;
    const { reveals, mix, transcript } = fair.mix; // pokerfair-proof/2 (docs/fairness.md)
    Object.assign(file, { format: "pokerfair-proof/2", contributors: fair.contributors, reveals, mix, transcript });
    file.receipts = fair.receipts;
    if (fair.own) file.own = fair.own;
    return file;
  }

  /** pokerfair/2: this browser's secret for ``handNo`` and the server's receipt of it. */
  noteOwnSecret(handNo, seat, secretHex) {
    if (this.fair && this.commitment?.hand_no === handNo) this.fair.own = { seat, secret: secretHex };
  }

  noteReceipt(handNo, seat, receipt) {
    if (this.fair && this.commitment?.hand_no === handNo && receipt) this.fair.receipts = [[seat, receipt]];
  }

  /** The tournament's final standings arrived: this table is over for good (no seat to
   *  take, no next hand to wait for). */
  tournamentOver() {
    return Boolean(this.results?.length);
  }

  /** This viewer's line of the final standings, when they played the tournament. */
  myResult() {
    const id = this.you?.player_id;
    if (id === undefined || id === null) return null;
    return (this.results ?? []).find((r) => String(r.player_id) === String(id)) ?? null;
  }

  /** The pokerfair-proof/1 file for the current (or just finished) hand. */
  proofFile() {
    if (!this.commitment) return null;
    return this.buildProof(this.commitment, this.observation, this.openings.values(), this.view?.history ?? [], this.fair);
  }

  /** The proofs "Conferir cartas" can offer, newest first: this hand's once it has cards,
   *  and the hand before, kept until it is replaced. */
  proofs() {
    const out = [];
    const current = this.proofFile();
    if (current?.cards.length) out.push({ handNo: this.commitment.hand_no ?? this.handNo, file: current, current: true });
    if (this.previous?.file?.cards.length && this.previous.file.commitment.digest !== current?.commitment.digest) {
      out.push({ handNo: this.previous.handNo, file: this.previous.file, current: false });
    }
    return out;
  }

  player(seat) {
    return this.room?.players?.[seat] ?? null;
  }

  /** Where the person who played a seat of the hand on the table is now, as the room says:
   *  "here" (still at that seat, or nothing to compare), "moved" (they sit at another seat
   *  now), "replaced" (someone else sits there now) or "gone" (the seat is empty and they
   *  sit nowhere in the room). Names are compared as the room shows them (C-NAMES). */
  handSeatNow(seat) {
    if (!this.room?.players || this.room.status === "replay") return "here";
    const was = this.handNames[String(seat)] ?? null;
    const same = (a, b) => Boolean(a) && Boolean(b) && botName(a) === botName(b);
    const now = this.player(seat);
    if (now) return !was || same(was, now.name) ? "here" : "replaced";
    const mine = this.mySeat();
    if (mine !== null && mine !== seat && this.view?.viewer === seat) return "moved"; // my seat in that hand
    const elsewhere = Object.values(this.room.players).some((p) => p.seat !== seat && same(p.name, was));
    return elsewhere ? "moved" : "gone";
  }

  /** The name for a seat in the hand's words (log, results): who played it, even gone. */
  playerName(seat) {
    return this.handNames[String(seat)] || this.player(seat)?.name || t("table.seat_n", { n: seat + 1 });
  }

  /** The seat this browser's player holds (or reserved), from the room when it is known:
   *  a seat in the last hand is not a seat now. Without a room (the replayer's state sets
   *  its own), the hand's viewer. */
  mySeat() {
    if (this.room) return Number.isInteger(this.room.mySeat) ? this.room.mySeat : null;
    const v = this.view?.viewer;
    if (Number.isInteger(v)) return v;
    return Number.isInteger(this.you?.seat) ? this.you.seat : null;
  }
}
