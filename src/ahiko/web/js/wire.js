// The one place that knows the WebSocket wire format (docs/protocol.md,
// ahiko/server/protocol.py). Incoming frames become the client's own messages; outgoing
// commands are built here. If the protocol changes, only this file changes.
//
// Client messages produced by decodeFrame():
//   {type: "snapshot", seq, you, room, hand, lastHand, results}   full state on (re)connect
//   {type: "room", seq, room}                                     seats, players, status
//   {type: "commitment", seq, handNo, commitment, cardsInS}       a new hand's commitment
//   {type: "hand", seq, handNo, events, view, openings, deadline, names, autoAction}
//                                                                 the hand after a change
//   {type: "countdown", seq, countdowns}                          the server's waits, in s
//   {type: "cancelled", seq, handNo, rule, reason}                R-FD-06
//   {type: "results", seq, results}                               tournament over
//   {type: "closed", seq, reason}
//   {type: "ack", seq, id, data} / {type: "error", seq, id, code, rule, message}
//   {type: "notice", seq, code, rule, message}                    to this player only
//   {type: "wallet", seq, event, amount}                          chips back to the wallet
//   {type: "time_bank", seq, handNo, deadline}                  the seat to act started its bank
//   {type: "chat", seq, msg}                                      a table chat message
//   {type: "host", seq, action, by, handNo, ...}                  a home game's host acted
//   {type: "ignored", seq}                                        anything unknown

import { gameOf, rememberGame } from "./games.js";

let nextId = 0;

function frameId() {
  nextId += 1;
  return `c${Date.now().toString(36)}-${nextId}`;
}

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

/** Cards as text: history events may carry the engine's card numbers (rank*4 + suit). */
export function cardText(card) {
  return typeof card === "number" ? RANKS[card >> 2] + SUITS[card & 3] : card;
}

function normalizeEvent(event) {
  const out = { ...event };
  for (const key of ["cards", "new_cards"]) {
    if (Array.isArray(out[key])) out[key] = out[key].map(cardText);
  }
  return out;
}

function normalizeView(view) {
  if (!view || !Array.isArray(view.history)) return view ?? null;
  return { ...view, history: view.history.map(normalizeEvent) };
}

/** The hand's seat -> name map at deal time (C-NAMES), wherever the server put it. */
function handNames(raw) {
  const names = raw?.names ?? raw?.view?.names ?? null;
  return names && typeof names === "object" ? names : null;
}

function handState(raw) {
  if (!raw) return null;
  return {
    handNo: raw.hand_no,
    phase: raw.phase ?? null,
    commitment: raw.commitment ?? null,
    view: normalizeView(raw.view),
    openings: raw.openings ?? [],
    deadline: raw.deadline ?? null,
    names: handNames(raw),
    cardsInS: typeof raw.cards_in_s === "number" ? raw.cards_in_s : null,
  };
}

/** {next_hand, bot_ahiko}: seconds left as the server counted them (absent: not running). */
function countdowns(raw) {
  const out = {};
  for (const [name, left] of Object.entries(raw ?? {})) if (typeof left === "number") out[name] = left;
  return out;
}

export function decodeFrame(text) {
  let frame;
  try {
    frame = JSON.parse(text);
  } catch {
    return { type: "error", seq: null, code: "bad_frame", message: "unreadable frame" };
  }
  const seq = Number.isInteger(frame.seq) ? frame.seq : null;
  const epoch = typeof frame.epoch === "string" ? frame.epoch : null;
  const msg = decodeBody(frame, seq);
  msg.epoch = epoch; // the room's run (docs/protocol.md), with seq the frame's name
  return msg;
}

function decodeBody(frame, seq) {
  switch (frame.t) {
    case "snapshot":
      return {
        type: "snapshot",
        seq,
        you: frame.you ?? {},
        room: frame.room ?? null,
        hand: handState(frame.hand),
        lastHand: handState(frame.last_hand),
        results: frame.results ?? null,
        chat: frame.chat ?? null,
      };
    case "room":
      return { type: "room", seq, room: frame.room };
    case "commitment":
      return {
        type: "commitment",
        seq,
        handNo: frame.hand_no ?? frame.commitment?.hand_no,
        commitment: frame.commitment,
        cardsInS: typeof frame.cards_in_s === "number" ? frame.cards_in_s : null,
        contributors: frame.contributors ?? null, // pokerfair/2: reveal now, until the cards
      };
    case "fair_mix":
      return {
        type: "fair_mix",
        seq,
        handNo: frame.hand_no,
        reveals: frame.reveals ?? [],
        mix: frame.mix,
        transcript: frame.transcript ?? {},
      };
    case "hand":
      return {
        type: "hand",
        seq,
        handNo: frame.hand_no,
        events: (frame.events ?? []).map(normalizeEvent),
        view: normalizeView(frame.view),
        openings: frame.openings ?? [],
        deadline: frame.deadline ?? null,
        names: handNames(frame),
        autoAction: frame.auto_action ?? null,
      };
    case "time_bank":
      return { type: "time_bank", seq, handNo: frame.hand_no, deadline: frame.deadline ?? null };
    case "countdown":
      return { type: "countdown", seq, countdowns: countdowns(frame.countdowns) };
    case "hand_cancelled":
      return { type: "cancelled", seq, handNo: frame.hand_no, rule: frame.rule, reason: frame.reason };
    case "tournament_over":
      return { type: "results", seq, results: frame.results ?? [] };
    case "closed":
      return { type: "closed", seq, reason: frame.reason, stacks: frame.stacks ?? {} };
    case "ack":
      return { type: "ack", seq, id: frame.id, data: frame.data ?? {} };
    case "error":
      return {
        type: "error",
        seq,
        id: frame.id ?? null,
        code: frame.code ?? frame.error,
        rule: frame.rule ?? null,
        message: frame.message ?? "",
      };
    case "notice":
      return { type: "notice", seq, code: frame.code ?? null, rule: frame.rule ?? null, message: frame.message ?? "" };
    case "chat":
      return { type: "chat", seq, msg: frame.msg ?? null };
    case "host":
      return { ...frame, type: "host", seq, handNo: frame.hand_no ?? null };
    case "straddle_offer":
    case "straddle_answer":
    case "runs_asked": // a home game's hand asks a seat (table/handprompts.js)
      return { ...frame, type: "prompt", kind: frame.t, seq, handNo: frame.hand_no };
    case "moved":
      return { type: "moved", seq, roomId: frame.room_id, table: frame.table, seat: frame.seat };
    case "owner":
      return { type: "owner", seq, roomId: frame.room_id, route: String(frame.route ?? "") };
    case "wallet":
      return { type: "wallet", seq, event: frame.event ?? null, amount: frame.amount ?? 0 };
    default:
      return { type: "ignored", seq };
  }
}

/** A decision: `action` is {kind, amount?, cards?} with kind as in ActionKind. */
export function encodeAction(action, handNo) {
  const frame = { t: "act", id: frameId(), hand_no: handNo, action: action.kind };
  if (action.kind === "bet" || action.kind === "raise") frame.amount = action.amount;
  if (action.kind === "discard") frame.cards = action.cards ?? [];
  return JSON.stringify(frame);
}

/** sit {seat}, leave, new_entry, show {hand_no}, start, pause, resume, close,
 *  add_bot {level, seat?}, remove_bot {seat}. */
export function encodeCommand(name, args = {}) {
  return JSON.stringify({ t: name, id: frameId(), ...args });
}

export function encodeSnapshotRequest() {
  return encodeCommand("snapshot");
}

export function roomSocketUrl(roomId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/rooms/${encodeURIComponent(roomId)}`;
}

function pick(obj, ...names) {
  for (const n of names) if (obj && obj[n] !== undefined && obj[n] !== null) return obj[n];
  return undefined;
}

/** A bot's name without an older server's level suffix ("Bot 1 (hard)"): the badge says it. */
export function botName(name) {
  return String(name ?? "").replace(/\s*\((easy|normal|hard|random)\)$/i, "");
}

/** A room's seat entry as the client uses it. */
function normalizePlayer(p) {
  const bot = Boolean(pick(p, "is_bot", "bot"));
  const name = pick(p, "name", "username") ?? "";
  return {
    seat: p.seat,
    playerId: pick(p, "player_id") ?? null,
    name: bot ? botName(name) : name,
    bot,
    level: pick(p, "bot_level", "level") ?? null,
    stack: pick(p, "stack", "chips") ?? 0,
    connected: pick(p, "connected") ?? true,
    waiting: Boolean(pick(p, "waiting")),
    reserved: Boolean(pick(p, "reserved")),
    leaving: Boolean(pick(p, "leaving", "leave_after_hand")),
    sittingOut: Boolean(pick(p, "sitting_out")),
    awaitsBigBlind: Boolean(pick(p, "awaits_big_blind")),
    timeBank: pick(p, "time_bank") ?? null,
  };
}

/** The room summary as the client uses it; `you` is the snapshot's {player_id, seat, host}. */
export function normalizeRoom(raw, you = {}) {
  if (!raw) return null;
  const players = {};
  for (const p of pick(raw, "seats", "players") ?? []) {
    if (p && Number.isInteger(p.seat)) players[p.seat] = normalizePlayer(p);
  }
  for (const r of pick(raw, "reserved") ?? []) {
    if (Number.isInteger(r.seat) && !players[r.seat]) {
      players[r.seat] = normalizePlayer({ ...r, reserved: true });
    }
  }
  const me = Object.values(players).find((p) => you.player_id && p.playerId === you.player_id);
  const deadlineS = pick(raw, "action_deadline_s");
  return {
    id: pick(raw, "id", "room_id"),
    name: pick(raw, "name") ?? "",
    kind: pick(raw, "kind") ?? "recreational",
    variant: pick(raw, "variant") ?? "holdem",
    game: rememberGame(pick(raw, "game")) ?? gameOf(pick(raw, "variant") ?? "holdem"),
    tier: pick(raw, "tier") ?? null,
    seatCount: pick(raw, "seats_total", "seat_count") ?? 9,
    stakes: pick(raw, "blinds", "stakes") ?? {},
    status: pick(raw, "status") ?? "waiting",
    handNo: pick(raw, "hand_no") ?? null,
    // The room's host_id wins over the snapshot's `host`: the host role may be handed on.
    host: you.player_id != null && "host_id" in raw ? raw.host_id === you.player_id : Boolean(you.host),
    mySeat: me ? me.seat : null,
    players,
    deadlineMs: deadlineS ? Math.round(deadlineS * 1000) : null,
    buyIn: pick(raw, "buy_in") ?? null,
    visibility: raw.public === false ? "private" : "public",
    startingChips: pick(raw, "starting_chips") ?? null,
    chat: pick(raw, "chat") ?? "seated",
    waitList: pick(raw, "wait_list") ?? { waiting: [], offers: [] },
    countdowns: countdowns(raw.countdowns),
    home: {
      approvePlayers: Boolean(raw.approve_players),
      seatRequests: raw.seat_requests ?? [],
      maxRebuys: raw.max_rebuys ?? null,
      pendingChange: raw.pending_change ?? null,
      options: raw.hand_options ?? null, // the hand options (houseoptions.js)
      bombPotNext: Boolean(raw.bomb_pot_next),
    },
  };
}
