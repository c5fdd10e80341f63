// Draws the table from a TableState: felt, seats around it, bets, pots, board, own cards,
// clocks, showdown. Pure rendering: user intent goes out through the callbacks given.

import { cardSvg } from "../cards.js";
import { clear, h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";
import { fingerprint } from "../tablestate.js";
import { totalPot } from "./actionbar.js";
import { countdown } from "./countdown.js";
import { lastActionText, potAwards, potResultText, showdownHands } from "./describe.js";
import { placementAt } from "./layout.js";
import { attachPlayerLine, playerLineNode } from "./playerline.js";

/** Seats whose cards went unseen at the showdown (R-HE-12): dimmed like folded ones. */
function muckedSeats(view) {
  const out = new Set();
  for (const e of view?.history ?? []) if (e.kind === "mucked") out.add(e.seat);
  return out;
}

function blindSeats(view) {
  const out = {};
  for (const e of view?.history ?? []) {
    if (e.kind === "blind_posted") out[e.seat] = e.blind === "sb" ? "SB" : "BB";
  }
  return out;
}

/** A seat nobody may take now, drawn as a faint ring with its number, out of the way. */
function freeRing(place) {
  const seat = place.seat;
  return h(
    `div.seat.seat-empty.seat-free.side-${place.side}`,
    { dataset: { seat: String(seat) }, style: { left: `${place.pos.x}%`, top: `${place.pos.y}%` } },
    h("span.free-dot", { "aria-label": t("table.empty_seat", { n: seat + 1 }) }, String(seat + 1)),
  );
}

function chipStack(amount) {
  const chips = Math.min(5, Math.max(1, Math.ceil(Math.log10(amount + 1))));
  return h(
    "span.chips",
    { "aria-hidden": "true" },
    Array.from({ length: chips }, (_, i) => h(`span.chip.chip-${i % 3}`)),
  );
}

export class TableRenderer {
  constructor(root, { onSit, onCardToggle }) {
    this.root = root;
    this.onSit = onSit;
    this.onCardToggle = onCardToggle;
    this.felt = h("div.felt", { role: "group", "aria-label": t("table.board") });
    this.centre = h("div.centre");
    this.seatLayer = h("div.seat-layer");
    this.felt.append(h("div.felt-rim"), this.centre, this.seatLayer);
    root.append(this.felt);
    this.selected = new Set();
    this.dealt = new Map(); // card -> when first drawn this hand: only new ones are dealt in
    this.dealtHand = null;
  }

  /** A card seen for the first time this hand slides in (CSS, off with reduced motion); a
   *  redraw for the same frame keeps it coming in. */
  dealIn(svg, key) {
    if (!this.dealt.has(key)) this.dealt.set(key, this.primed ? this.frameNo : -1);
    if (this.dealt.get(key) === this.frameNo) svg.classList.add("deal-in");
    return svg;
  }

  /** Labels set once at construction, in the language just chosen. */
  relabel() {
    this.felt.setAttribute("aria-label", t("table.board"));
  }

  /** Seat numbers shown: every seat of the room, or those in the hand without a room. */
  seatNumbers(state) {
    const count = state.room?.seatCount;
    if (count) return Array.from({ length: count }, (_, i) => i);
    const seats = (state.view?.seats ?? []).map((s) => s.seat);
    const max = seats.length ? Math.max(...seats) + 1 : 2;
    return Array.from({ length: max }, (_, i) => i);
  }

  /** Where each seat goes, as {seat, angle, slots, free}: a spectator sees every seat by
   *  number (seat 1 at the bottom), free ones to take; a seated player sees the seats in play
   *  spread evenly round the oval in seat order, themselves at the bottom centre (heads-up:
   *  face to face), and the free seats drawn faintly in the gaps between them. */
  seatSlots(state, view) {
    const numbers = this.seatNumbers(state);
    const me = state.feltSeat();
    const full = Math.PI * 2;
    if (me === null || !state.room) {
      return numbers.map((seat, i) => ({ seat, angle: Math.PI / 2 + (i * full) / numbers.length, slots: numbers.length, free: false }));
    }
    const inPlay = new Set([me]);
    for (const p of Object.values(state.room.players ?? {})) inPlay.add(p.seat);
    for (const s of view?.seats ?? []) if (state.handSeatNow(s.seat) !== "moved") inPlay.add(s.seat);
    const start = numbers.indexOf(me);
    const ring = numbers.slice(start).concat(numbers.slice(0, start)); // seat order from me
    const taken = ring.filter((n) => inPlay.has(n));
    const step = full / taken.length;
    const out = [];
    taken.forEach((seat, i) => {
      const angle = Math.PI / 2 + i * step;
      out.push({ seat, angle, slots: taken.length, free: false });
      const next = taken[(i + 1) % taken.length];
      const from = ring.indexOf(seat);
      const to = next === seat ? ring.length : (ring.indexOf(next) - from + ring.length) % ring.length;
      const gap = ring.slice(from + 1, from + to);
      gap.forEach((free, j) => out.push({ seat: free, angle: angle + ((j + 1) * step) / (gap.length + 1), slots: taken.length, free: true }));
    });
    return out;
  }

  render(state, { hideCards = false, selected = new Set(), discardMode = false, stale = false, pendingReload = null, frameNo = 0 } = {}) {
    this.selected = selected;
    this.frameNo = frameNo; // which frame this drawing shows: cards new to it are dealt in
    this.pendingReload = pendingReload;
    const handKey = `${state.handNo}`;
    // the first drawing of a hand (a reload, a late join) deals nothing in: it is all there
    this.primed = this.dealtHand === handKey;
    if (this.dealtHand !== handKey) {
      this.dealtHand = handKey;
      this.dealt = new Map();
    }
    const view = stale ? null : state.view; // a finished hand nobody follows leaves the felt
    const me = state.feltSeat();
    const slots = this.seatSlots(state, view);
    const count = slots.filter((x) => !x.free).length;
    const bySeat = new Map((view?.seats ?? []).map((s) => [s.seat, s]));
    const blinds = blindSeats(view);
    const hands = view && ["showdown", "over"].includes(view.street) ? showdownHands(view) : {};
    const awards = view ? potAwards(view) : [];
    for (const a of awards) {
      // an older archive's words, for a hand whose cards this browser never saw
      for (const [seat, names] of Object.entries(a.hand_names ?? {})) {
        const name = names[lang()] ?? names["pt-BR"];
        if (name && !hands[seat]) hands[seat] = { value: null, name };
      }
    }
    const winners = new Set(awards.flatMap((a) => a.winners ?? []));
    const mucked = muckedSeats(view);
    const lifted = new Set();
    for (const seat of winners) for (const c of hands[seat]?.value?.cards ?? []) lifted.add(c);

    this.felt.classList.toggle("phone-tall", count > 0);
    this.felt.dataset.seats = String(count);
    this.felt.classList.toggle("no-hand", !view);
    clear(this.seatLayer);
    const compact = this.root.clientWidth > 0 && this.root.clientWidth < 560;
    for (const { seat, angle, slots: slotCount, free } of slots) {
      const place = placementAt(seat, angle, slotCount, compact);
      if (free) {
        // not the seated player's to take: a faint ring with its number, out of the way
        this.seatLayer.append(freeRing(place));
        continue;
      }
      const player = state.player(seat);
      // A seat of the hand on the table is drawn only for who played it: not once that
      // person sits elsewhere or someone else sits there; faded if they left (R-RM-14).
      const was = bySeat.has(seat) ? state.handSeatNow(seat) : "here";
      const sv = was === "moved" || was === "replaced" ? undefined : bySeat.get(seat);
      const node = this.seatNode(state, place, sv, player, {
        view,
        was,
        compact,
        me,
        blinds,
        hands,
        winners,
        mucked,
        lifted,
        hideCards,
        discardMode,
      });
      this.seatLayer.append(node);
      if (sv?.bet > 0) {
        this.seatLayer.append(
          h(
            "div.bet",
            {
              dataset: { betSeat: String(seat) },
              style: {
                left: `calc(${place.bet.x}% + ${place.bet.dx ?? 0}rem)`,
                top: `calc(${place.bet.y}% + ${place.bet.dy ?? 0}rem)`,
              },
              "aria-label": t("table.bet", { amount: fmt(sv.bet) }),
            },
            chipStack(sv.bet),
            h("span.bet-amount", fmt(sv.bet)),
          ),
        );
      }
    }
    this.renderCentre(state, { view, hideCards, hands, awards, lifted });
  }

  seatNode(state, place, sv, player, ctx) {
    const { seat } = place;
    const view = ctx.view;
    const classes = [`seat`, `side-${place.side}`];
    const attrs = {
      dataset: { seat: String(seat) },
      style: { left: `${place.pos.x}%`, top: `${place.pos.y}%` },
    };
    // A replayed hand is a record: nobody sits in it.
    const replaying = state.room?.status === "replay";
    const canSit = ctx.me === null && state.room && !replaying && state.room.status !== "closed" && !state.tournamentOver();
    const sitButton = () =>
      h(
        "button.sit-btn",
        {
          type: "button",
          "aria-label": t("table.sit_label", { n: seat + 1 }),
          onclick: () => this.onSit?.(seat),
        },
        t("table.sit"),
      );
    if (!sv && !player) {
      // A tournament under way has closed its seats (R-TN-02): a spectator sees the ring.
      if (state.room?.kind === "tournament" && state.room.status !== "waiting" && !state.tournamentOver()) {
        return freeRing(place);
      }
      if (state.tournamentOver()) classes.push("after-tournament"); // nobody sits there again
      return h(
        `div.${classes.join(".")}.seat-empty`,
        attrs,
        canSit ? sitButton() : h("span.empty-label.visually-hidden", t("table.empty_seat", { n: seat + 1 })),
      );
    }
    // The seat is free now; the last hand's player, gone, shows faded under the way in. My
    // own seat, left after the hand (R-RM-14), is drawn as I played it while the result shows.
    const lastHand = ctx.was === "gone" && !(seat === ctx.me && state.mySeat() === null);
    if (lastHand) classes.push("last-hand");
    // Someone sits where another played the hand on the table: that hand is not theirs.
    const ofHand = ctx.was !== "replaced";
    const isMe = seat === ctx.me;
    if (isMe) classes.push("me");
    if (sv?.status === "folded") classes.push("folded");
    if (sv && ctx.mucked.has(seat) && !sv.cards?.length) classes.push("mucked");
    if (sv?.status === "allin") classes.push("allin");
    const over = state.closed || state.room?.status === "closed";
    if (view?.to_act === seat && !over) classes.push("to-act");
    if (ofHand && ctx.winners.has(seat)) classes.push("winner");
    if (player && !player.connected) classes.push("offline");
    if (!sv && player) classes.push("sitting-out");

    // Who sits here now; an empty seat still in the last hand keeps that hand's name.
    const name = player?.name || state.playerName(seat);
    // Once the hand is over the room's stack is the one that counts (a reload shows at once);
    // a replayed hand has no room behind it, so its own last stacks stand.
    const live = sv && view?.street !== "over";
    const stack = live || !Number.isFinite(player?.stack) ? (sv?.stack ?? 0) : player.stack;
    const badges = [];
    if (player?.bot) {
      badges.push(
        h(
          "span.badge.badge-bot",
          { title: t("table.bot") },
          player.level ? t("table.bot_level", { level: t(`level.${player.level}`) }) : t("table.bot"),
        ),
      );
    }
    if (player && !player.connected) {
      // R-TM-02: a disconnected player's clock, said in the badge while it is their turn
      const d = state.deadline;
      const counting = d && d.seat === seat && view?.to_act === seat && d.endsAt;
      badges.push(
        counting
          ? countdown("span.badge.badge-off", d.endsAt, "table.disconnected_in")
          : h("span.badge.badge-off", t("table.disconnected")),
      );
    }
    if (player?.reserved) badges.push(h("span.badge", t("table.reserved")));
    else if (player?.awaitsBigBlind) badges.push(h("span.badge", t("table.awaits_big_blind")));
    else if (player?.waiting && !sv) badges.push(h("span.badge", t("table.next_hand")));
    if (player?.leaving) badges.push(h("span.badge", t("table.leave_after_hand")));
    if (player?.sittingOut) badges.push(h("span.badge.badge-sitout", t("table.sitting_out")));
    if (isMe && this.pendingReload) {
      badges.push(h("span.badge.badge-reload", t("reload.next_hand", { amount: fmt(this.pendingReload.amount) })));
    }

    const markers = [];
    if (ofHand && view && view.button === seat) markers.push(h("span.marker.marker-d", { title: "Dealer" }, "D"));
    if (ofHand && ctx.blinds[seat]) {
      markers.push(h(`span.marker.marker-${ctx.blinds[seat].toLowerCase()}`, ctx.blinds[seat]));
    }

    const clock = this.clockNode(state, seat);
    const opponent = player && !player.bot && !isMe ? player.playerId : null;
    const nameNode = h(
        "div.seat-name",
        { title: name, dataset: opponent ? { playerId: String(opponent) } : {} },
        player?.bot ? h("span.bot-icon", { "aria-hidden": "true" }, "⚙ ") : null,
        h("span.name-text", name),
        // "(Você)" never shrinks: a long name gives way first
        isMe ? h("span.you-tag", ` (${t("table.you")})`) : null,
      );
    const box = h(
      "div.seat-box",
      nameNode,
      opponent ? playerLineNode(String(opponent)) : null,
      badges.length ? h("div.seat-badges", badges) : null,
      h(
        "div.seat-stack",
        h("span", { "aria-label": t("table.stack", { amount: fmt(stack) }) }, fmt(stack)),
        clock ? clock.secs : null,
      ),
      clock ? clock.bar : null,
    );
    if (opponent) attachPlayerLine(nameNode, opponent, box);
    const hand = ofHand ? ctx.hands[seat] : null;
    let last = sv ? lastActionText(sv, { short: ctx.compact && sv.bet > 0 }) : "";
    if (classes.includes("mucked")) last = t("last.mucked");
    // The room answered for this seat (its clock ran out, it is away): the line says so.
    const auto = state.autoAction;
    const kind = sv?.last_action?.kind;
    if (auto && auto.seat === seat && auto.handNo === state.handNo && kind === auto.action) {
      const key = `last.${auto.reason}.${auto.action}`;
      if (t(key) !== key) last = t(key);
    }
    // The hand's name takes the last-action line: nothing grows under the seat at showdown.
    const under = hand
      ? h(`div.seat-hand${ctx.winners.has(seat) ? "" : ".loser"}`, hand.name)
      : h("div.seat-last", { "aria-live": "off" }, last);
    if (lastHand) attrs.title = t("table.last_hand_seat", { name });
    return h(
      `div.${classes.join(".")}`,
      attrs,
      this.seatCards(sv, isMe, ctx),
      h("div.markers", markers),
      box,
      under,
      lastHand && canSit ? sitButton() : null,
    );
  }

  seatCards(sv, isMe, ctx) {
    const wrap = h("div.seat-cards");
    if (!sv || ctx.hideCards) return wrap;
    const count = sv.card_count ?? sv.cards?.length ?? 0;
    if (sv.cards?.length) {
      sv.cards.forEach((card, i) => {
        const cls = ctx.lifted.has(card) ? "lifted" : "";
        const svg = this.dealIn(cardSvg(card, cls), `${sv.seat}:${i}:${card}`);
        if (isMe && ctx.discardMode) {
          const picked = this.selected.has(card);
          const btn = h(
            "button.card-pick",
            {
              type: "button",
              "aria-pressed": picked ? "true" : "false",
              dataset: { card, index: String(i) },
              onclick: () => this.onCardToggle?.(card),
            },
            svg,
          );
          if (picked) btn.classList.add("picked");
          wrap.append(btn);
        } else {
          wrap.append(svg);
        }
      });
    } else if ((sv.status !== "folded" && !ctx.mucked.has(sv.seat)) || isMe) {
      for (let i = 0; i < count; i += 1) wrap.append(this.dealIn(cardSvg(null), `${sv.seat}:${i}:back`));
    } else {
      for (let i = 0; i < Math.min(count, 2); i += 1) wrap.append(cardSvg(null, "mucked"));
    }
    if (isMe) wrap.classList.add("my-cards");
    if (count > 2) wrap.classList.add("five"); // overlapped, as draw's five
    if (count === 4) wrap.classList.add("four"); // Omaha's four: a little larger than five
    return wrap;
  }

  /** The clock of the seat to act: a bar draining along the box's bottom edge and the
   *  seconds left beside the stack, so the box keeps its size when the turn comes. */
  clockNode(state, seat) {
    const d = state.deadline;
    if (!d || d.seat !== seat || state.view?.to_act !== seat || !d.endsAt) return null;
    const total = d.totalMs || 20000;
    const left = Math.max(0, d.endsAt - Date.now());
    const elapsed = total - Math.min(total, left);
    const fill = h("div.clock-fill");
    fill.style.animationDuration = `${total}ms`;
    fill.style.animationDelay = `-${elapsed}ms`;
    // While the time bank runs the clock says so (and is drawn in its own colour).
    const key = d.bank !== null && d.bank !== undefined ? "table.time_bank_left" : "table.time_left";
    return {
      bar: h(`div.clock${key === "table.time_bank_left" ? ".bank" : ""}`, { role: "timer", "aria-label": t(key, { s: Math.ceil(left / 1000) }) }, fill),
      secs: countdown(`span.clock-secs${key === "table.time_bank_left" ? ".bank" : ""}`, d.endsAt, key),
    };
  }

  renderCentre(state, { view, hideCards, hands, awards, lifted }) {
    clear(this.centre);
    const pots = view?.pots ?? [];
    const potRow = h("div.pots");
    const awarded = new Set(awards.map((a) => a.index ?? 0));
    pots.forEach((pot, i) => {
      if (!pot.amount || awarded.has(i)) return; // an awarded pot has gone to its winners
      const label =
        i === 0 ? t("table.pot", { amount: fmt(pot.amount) }) : t("table.side_pot", { n: i, amount: fmt(pot.amount) });
      potRow.append(h("div.pot", { dataset: { pot: String(i) } }, chipStack(pot.amount), h("span", label)));
    });
    // While bets are out, the whole pot (collected + bets) is what a raise is sized on.
    const bets = (view?.seats ?? []).some((s) => s.bet > 0);
    const closed = state.closed || state.room?.status === "closed";
    const showTotal = view && !closed && view.street !== "over" && !awards.length && (bets || pots.length > 1);
    if (state.commitmentOnDisplay() && state.commitment) {
      this.centre.append(
        h(
          "div.commit-banner",
          { role: "status" },
          h("span.commit-title", t("table.commitment")),
          h("code.commit-fp", fingerprint(state.commitment.digest)),
          h("span.commit-sub", t("table.deal_soon")),
        ),
      );
    }
    this.centre.append(potRow);
    // Its row stays while a hand is on, even empty, so the board never moves when bets go in.
    if (view) {
      const total = h("div.pot-total", showTotal ? t("table.total_pot", { amount: fmt(totalPot(view)) }) : "");
      if (!showTotal) total.classList.add("empty");
      this.centre.append(total);
    }
    const board = h("div.board", { role: "group", "aria-label": t("table.board") });
    if (!hideCards) {
      for (const card of view?.board ?? []) board.append(this.dealIn(cardSvg(card, lifted.has(card) ? "lifted" : ""), `board:${card}`));
    }
    this.centre.append(board);
    // A hand run twice or a double-board bomb pot: the second board under the first.
    if (!hideCards && view?.second_board?.length) {
      const second = h("div.board.board2", { "aria-label": t("table.board2") });
      for (const card of view.second_board) second.append(this.dealIn(cardSvg(card), `board2:${card}`));
      board.classList.add("board1");
      board.setAttribute("aria-label", t("table.board1"));
      this.centre.append(second);
    }
    if (awards.length) {
      const nameOf = (s) => state.playerName(s);
      this.centre.append(
        h(
          "div.results",
          { role: "status" },
          awards.map((a) => h("div.result-line", potResultText(a, nameOf, hands))),
        ),
      );
    }
    if (state.tournamentOver()) {
      this.centre.append(tournamentEnd(state));
      return;
    }
    const status = this.statusText(state, view);
    // After a showdown the pots' row is empty (all awarded): the countdown takes it, clear
    // of the results and of the cards under them.
    if (status && awards.length && !potRow.childElementCount) potRow.append(h("div.table-status", status));
    else if (status) this.centre.append(h("div.table-status", status));
  }

  /** What the table is waiting for, in words, with the server's countdown where one runs:
   *  the same line before the first hand and after any other. */
  statusText(state, view = state.view) {
    const room = state.room;
    const st = room?.status;
    if (st === "paused") return t("table.paused");
    if (st === "closed" || state.closed) return t("table.closed");
    if (state.cancelled) return t("table.cancelled", { n: state.cancelled.handNo });
    if (st !== "running") return view ? "" : t("table.waiting");
    if (!state.betweenHands?.()) return "";
    if (!state.view && state.commitment) return ""; // committed: the banner says the cards come
    if (view && state.resultShownForMs() > 0 && state.mySeat() === null) return ""; // my last hand's result
    const ready = state.readyPlayers();
    if (state.nextHandAt !== null && ready.length >= 2) {
      return countdown("span.next-hand", state.nextHandAt, "table.next_hand_in", "table.next_hand_soon");
    }
    if (ready.length >= 2) return view ? "" : t("table.next_hand_soon");
    if (room.kind === "ahiko") {
      if (state.botAhikoAt !== null) {
        return h(
          "span.waiting-opponent",
          t("table.waiting_opponent"),
          h("br"),
          countdown("span.bot-ahiko", state.botAhikoAt, "table.bot_ahiko_in", "table.bot_ahiko_soon"),
        );
      }
      return state.mySeat() === null ? t("table.pick_seat") : t("table.waiting_opponent");
    }
    return t("table.waiting");
  }

  /** Screen position (px) of a seat's box, a bet, or the pot, for chip animations. */
  anchorPoint(selector) {
    const el = this.root.querySelector(selector);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
}

/** The card on the felt once a tournament is over: where this viewer finished, their prize,
 *  and the way back to the tournaments (the full standings are beside the table). */
function tournamentEnd(state) {
  const mine = state.myResult();
  const field = state.results.length;
  return h(
    "div.tournament-end",
    { role: "status" },
    h("h2", t("table.tournament_over")),
    mine ? h("p.tournament-place", t("table.you_finished", { place: mine.place ?? mine.rank, n: field })) : null,
    mine?.prize ? h("p.tournament-prize", t("table.your_prize", { amount: fmt(mine.prize) })) : null,
    h("a.button-link.primary", { href: "#/lobby/tournament" }, t("table.back_to_tournaments")),
  );
}
