// Draws the table from a TableState: felt, seats around it, bets, pots, board, own cards,
// clocks, showdown. Pure rendering: user intent goes out through the callbacks given.

import { cardSvg } from "../cards.js";
import { clear, h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";
import { fingerprint } from "../tablestate.js";
import { lastActionText, potAwards, potResultText, showdownHands } from "./describe.js";
import { seatPlacement } from "./layout.js";

function blindSeats(view) {
  const out = {};
  for (const e of view?.history ?? []) {
    if (e.kind === "blind_posted") out[e.seat] = e.blind === "sb" ? "SB" : "BB";
  }
  return out;
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
  }

  /** Seat numbers shown: every seat of the room, or those in the hand without a room. */
  seatNumbers(state) {
    const count = state.room?.seatCount;
    if (count) return Array.from({ length: count }, (_, i) => i);
    const seats = (state.view?.seats ?? []).map((s) => s.seat);
    const max = seats.length ? Math.max(...seats) + 1 : 2;
    return Array.from({ length: max }, (_, i) => i);
  }

  render(state, { hideCards = false, selected = new Set(), discardMode = false } = {}) {
    this.selected = selected;
    const view = state.view;
    const me = state.mySeat();
    const numbers = this.seatNumbers(state);
    const count = numbers.length;
    const anchor = me ?? 0;
    const bySeat = new Map((view?.seats ?? []).map((s) => [s.seat, s]));
    const blinds = blindSeats(view);
    const hands = view && ["showdown", "over"].includes(view.street) ? showdownHands(view) : {};
    const awards = view ? potAwards(view) : [];
    for (const a of awards) {
      for (const [seat, names] of Object.entries(a.hand_names ?? {})) {
        const name = names[lang()] ?? names["pt-BR"];
        if (name) hands[seat] = { value: hands[seat]?.value ?? null, name };
      }
    }
    const winners = new Set(awards.flatMap((a) => a.winners ?? []));
    const lifted = new Set();
    for (const seat of winners) for (const c of hands[seat]?.value?.cards ?? []) lifted.add(c);

    this.felt.classList.toggle("phone-tall", count > 0);
    this.felt.dataset.seats = String(count);
    clear(this.seatLayer);
    const compact = this.root.clientWidth > 0 && this.root.clientWidth < 560;
    for (const seat of numbers) {
      const place = seatPlacement(seat, anchor, count, compact);
      const sv = bySeat.get(seat);
      const player = state.player(seat);
      const node = this.seatNode(state, place, sv, player, {
        me,
        blinds,
        hands,
        winners,
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
              style: { left: `${place.bet.x}%`, top: `${place.bet.y}%` },
              "aria-label": t("table.bet", { amount: fmt(sv.bet) }),
            },
            chipStack(sv.bet),
            h("span.bet-amount", fmt(sv.bet)),
          ),
        );
      }
    }
    this.renderCentre(state, { hideCards, hands, awards, lifted });
  }

  seatNode(state, place, sv, player, ctx) {
    const { seat } = place;
    const view = state.view;
    const classes = [`seat`, `side-${place.side}`];
    const attrs = {
      dataset: { seat: String(seat) },
      style: { left: `${place.pos.x}%`, top: `${place.pos.y}%` },
    };
    if (!sv && !player) {
      const canSit = ctx.me === null && state.room && state.room.status !== "closed";
      return h(
        `div.${classes.join(".")}.seat-empty`,
        attrs,
        canSit
          ? h(
              "button.sit-btn",
              {
                type: "button",
                "aria-label": t("table.sit_label", { n: seat + 1 }),
                onclick: () => this.onSit?.(seat),
              },
              t("table.sit"),
            )
          : h("span.empty-label.visually-hidden", t("table.empty_seat", { n: seat + 1 })),
      );
    }
    const isMe = seat === ctx.me;
    if (isMe) classes.push("me");
    if (sv?.status === "folded") classes.push("folded");
    if (sv?.status === "allin") classes.push("allin");
    if (view?.to_act === seat) classes.push("to-act");
    if (ctx.winners.has(seat)) classes.push("winner");
    if (player && !player.connected) classes.push("offline");
    if (!sv && player) classes.push("sitting-out");

    const name = player?.name || t("table.seat_n", { n: seat + 1 });
    const stack = sv ? sv.stack : (player?.stack ?? 0);
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
    if (player && !player.connected) badges.push(h("span.badge.badge-off", t("table.disconnected")));
    if (player?.reserved) badges.push(h("span.badge", t("table.reserved")));
    else if (player?.waiting && !sv) badges.push(h("span.badge", t("table.next_hand")));
    if (player?.leaving) badges.push(h("span.badge", t("table.leave_after_hand")));

    const markers = [];
    if (view && view.button === seat) markers.push(h("span.marker.marker-d", { title: "Dealer" }, "D"));
    if (ctx.blinds[seat]) {
      markers.push(h(`span.marker.marker-${ctx.blinds[seat].toLowerCase()}`, ctx.blinds[seat]));
    }

    const box = h(
      "div.seat-box",
      h("div.seat-name", { title: name }, player?.bot ? h("span.bot-icon", { "aria-hidden": "true" }, "⚙ ") : null, isMe ? `${name} (${t("table.you")})` : name),
      badges.length ? h("div.seat-badges", badges) : null,
      h("div.seat-stack", { "aria-label": t("table.stack", { amount: fmt(stack) }) }, fmt(stack)),
      this.clockNode(state, seat),
    );
    const last = sv ? lastActionText(sv) : "";
    const hand = ctx.hands[seat];
    return h(
      `div.${classes.join(".")}`,
      attrs,
      this.seatCards(sv, isMe, ctx),
      h("div.markers", markers),
      box,
      h("div.seat-last", { "aria-live": "off" }, last),
      hand && ctx.winners.has(seat) ? h("div.seat-hand", hand.name) : null,
      hand && !ctx.winners.has(seat) ? h("div.seat-hand.loser", hand.name) : null,
    );
  }

  seatCards(sv, isMe, ctx) {
    const wrap = h("div.seat-cards");
    if (!sv || ctx.hideCards) return wrap;
    const count = sv.card_count ?? sv.cards?.length ?? 0;
    if (sv.cards?.length) {
      sv.cards.forEach((card, i) => {
        const cls = ctx.lifted.has(card) ? "lifted" : "";
        const svg = cardSvg(card, cls);
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
    } else if (sv.status !== "folded" || isMe) {
      for (let i = 0; i < count; i += 1) wrap.append(cardSvg(null));
    } else {
      for (let i = 0; i < Math.min(count, 2); i += 1) wrap.append(cardSvg(null, "mucked"));
    }
    if (isMe) wrap.classList.add("my-cards");
    if (count > 2) wrap.classList.add("five");
    return wrap;
  }

  clockNode(state, seat) {
    const d = state.deadline;
    if (!d || d.seat !== seat || state.view?.to_act !== seat || !d.endsAt) return null;
    const total = d.totalMs || 20000;
    const left = Math.max(0, d.endsAt - Date.now());
    const elapsed = total - Math.min(total, left);
    const fill = h("div.clock-fill");
    fill.style.animationDuration = `${total}ms`;
    fill.style.animationDelay = `-${elapsed}ms`;
    return h(
      "div.clock",
      { role: "timer", "aria-label": t("table.time_left", { s: Math.ceil(left / 1000) }) },
      fill,
    );
  }

  renderCentre(state, { hideCards, hands, awards, lifted }) {
    const view = state.view;
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
    const board = h("div.board", { "aria-label": t("table.board") });
    if (!hideCards) {
      for (const card of view?.board ?? []) board.append(cardSvg(card, lifted.has(card) ? "lifted" : ""));
    }
    this.centre.append(board);
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
    const status = this.statusText(state);
    if (status) this.centre.append(h("div.table-status", status));
  }

  statusText(state) {
    const st = state.room?.status;
    if (st === "paused") return t("table.paused");
    if (st === "closed" || state.closed) return t("table.closed");
    if (state.cancelled) return t("table.cancelled", { n: state.cancelled.handNo });
    if (!state.view && st !== "running") return t("table.waiting");
    return "";
  }

  /** Screen position (px) of a seat's box, a bet, or the pot, for chip animations. */
  anchorPoint(selector) {
    const el = this.root.querySelector(selector);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
}
