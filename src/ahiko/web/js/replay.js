// Rebuilds table views from a finished hand's events, one step per event, for the replayer.
// It folds only what the events say (the server's engine decided every amount).

import { gameOf, holeCards } from "./games.js";

const SHOWN_STEPS = new Set(["blind_posted", "ante_posted", "action", "street", "discarded", "cards_shown", "pot_awarded", "bet_returned", "hole_dealt", "second_board", "bounty_paid"]);

function seatState(seat, stack) {
  return { seat, stack, bet: 0, total_bet: 0, status: "active", last_action: null, cards: null, card_count: 0, discards: null };
}

/** Views after each visible event of `events`; `viewer` is the seat whose cards are known. */
export function replayViews(events, viewer = null) {
  return replaySteps(events, viewer).map((step) => step.view);
}

/** The replayer's steps: `{view, event}`, the table after each visible event and that event. */
export function replaySteps(events, viewer = null) {
  const start = events.find((e) => e.kind === "hand_started");
  if (!start) return [];
  const variant = start.variant ?? "holdem";
  const seats = new Map();
  const stacks = start.stacks ?? [];
  (start.seats ?? start.dealt_seats ?? []).forEach((s, i) => {
    const stack = Array.isArray(stacks) ? stacks[i] : (stacks[s] ?? stacks[String(s)] ?? 0);
    seats.set(s, seatState(s, stack ?? 0));
  });
  const game = gameOf(variant); // a hand document's own game was remembered when it came
  const holeCount = holeCards(game);
  for (const s of seats.values()) s.card_count = holeCount;
  let board = [];
  // A second board (double board) or a second run-out: its cards, and how many of the first
  // board's both run-outs share (the board dealt when the players were asked to run twice).
  let secondBoard = [];
  let shared = 0;
  let street = game?.has_draw ? "predraw" : "preflop";
  let collected = 0;
  const history = [];
  const views = [];
  const snapshot = () => ({
    variant,
    viewer,
    street,
    button: start.button,
    dealt_seats: start.dealt_seats ?? [],
    stakes: start.config ?? {},
    seats: [...seats.values()].map((s) => ({ ...s, last_action: s.last_action && { ...s.last_action } })),
    board: [...board],
    second_board: [...secondBoard],
    pots: collected ? [{ amount: collected, eligible: [] }] : [],
    to_act: null,
    legal: null,
    history: [...history],
    result: null,
  });
  const pay = (s, amount) => {
    s.stack -= amount;
    s.bet += amount;
    s.total_bet += amount;
  };
  for (const e of events) {
    const s = seats.get(e.seat);
    switch (e.kind) {
      case "blind_posted":
      case "ante_posted":
        if (s) {
          if (e.kind === "ante_posted") {
            s.stack -= e.amount;
            s.total_bet += e.amount;
            collected += e.amount;
          } else pay(s, e.amount);
        }
        break;
      case "hole_dealt":
        if (s && e.cards) s.cards = [...e.cards];
        break;
      case "action": {
        if (!s) break;
        const kind = e.action ?? e.action_kind;
        pay(s, e.added ?? 0);
        if (kind === "fold") s.status = "folded";
        if (e.all_in) s.status = "allin";
        s.last_action = { kind, amount: e.amount ?? 0 };
        break;
      }
      case "street":
        for (const x of seats.values()) {
          collected += x.bet;
          x.bet = 0;
          x.last_action = null;
        }
        street = e.name;
        board = board.concat(e.cards ?? []);
        break;
      case "runout_offered":
        shared = board.length;
        break;
      case "second_board":
        if (!secondBoard.length) secondBoard = board.slice(0, shared);
        secondBoard = secondBoard.concat(e.cards ?? []);
        break;
      case "bounty_paid": // seven-deuce: every payer's chips go to the winner who showed 7-2
        for (const [seat, amount] of Object.entries(e.payers ?? {})) {
          const payer = seats.get(Number(seat));
          if (payer) payer.stack -= amount;
        }
        if (s) s.stack += e.amount;
        break;
      case "discarded":
        if (s) {
          // Only the viewer's own draw carries cards: the kept ones stay, the new ones follow.
          if (s.cards && e.cards && e.new_cards) {
            s.cards = s.cards.filter((c) => !e.cards.includes(c)).concat(e.new_cards);
          }
          s.discards = e.count;
          s.last_action = { kind: "discard", amount: e.count };
        }
        break;
      case "bet_returned":
        if (s) {
          s.bet -= e.amount;
          s.total_bet -= e.amount;
          s.stack += e.amount;
        }
        break;
      case "cards_shown":
        if (s && e.cards) s.cards = [...e.cards]; // null: a folded draw player sees none (R-DR-07)
        break;
      case "pot_awarded":
        for (const x of seats.values()) {
          collected += x.bet;
          x.bet = 0;
        }
        street = "over";
        collected = Math.max(0, collected - e.amount);
        for (const [seat, share] of Object.entries(e.shares ?? {})) {
          const w = seats.get(Number(seat));
          if (w) w.stack += share;
        }
        break;
      default:
        break;
    }
    // A showdown this viewer may not see (R-DR-07) stays out of the table's log.
    const unseen = e.kind === "hole_dealt" || (e.kind === "cards_shown" && !e.cards);
    if (!unseen) history.push(e);
    if (SHOWN_STEPS.has(e.kind) || e.kind === "hand_started") views.push({ view: snapshot(), event: e });
  }
  return views;
}
