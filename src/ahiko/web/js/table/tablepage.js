// One table on screen: connects to the room, keeps a TableState, and wires the renderer, the
// action bar, the log and the dialogs together.

import { api } from "../api.js";
import { isFourColour, setFourColour } from "../cards.js";
import { RoomConnection } from "../connection.js";
import { h } from "../dom.js";
import { fmt, lang, setLang, t } from "../i18n.js";
import { fingerprint, TableState, COMMITMENT_DISPLAY_MS } from "../tablestate.js";
import { encodeAction, encodeCommand, roomSocketUrl } from "../wire.js";
import { ActionBar } from "./actionbar.js";
import { slideChips } from "./anim.js";
import { openBuyIn, openRoomMenu, resultsTable } from "./dialogs.js";
import { HandLog } from "./handlog.js";
import { TableRenderer } from "./render.js";
import { openVerifyDialog } from "./verifydialog.js";

function stakesText(stakes) {
  if (!stakes) return "";
  if (stakes.small_bet) {
    return t("table.limit_stakes", {
      ante: fmt(stakes.ante ?? 0),
      small: fmt(stakes.small_bet),
      big: fmt(stakes.big_bet ?? stakes.small_bet * 2),
    });
  }
  if (stakes.big_blind) {
    return t("table.blinds", { sb: fmt(stakes.small_blind), bb: fmt(stakes.big_blind) });
  }
  return "";
}

export class TablePage {
  constructor(root, { roomId, connect = (url, handlers) => new RoomConnection(url, handlers).open() }) {
    this.root = root;
    this.roomId = roomId;
    this.state = new TableState();
    this.log = new HandLog();
    this.connState = "connecting";
    this.discardMode = false;
    this.selected = new Set();
    this.build();
    this.conn = connect(roomSocketUrl(roomId), {
      onMessage: (msg) => this.receive(msg),
      onState: (s) => this.setConnState(s),
    });
  }

  build() {
    this.topbar = h("header.table-top");
    this.feltWrap = h("div.felt-wrap");
    this.renderer = new TableRenderer(this.feltWrap, {
      onSit: (seat) => this.sit(seat),
      onCardToggle: (card) => this.actionBar.toggleDiscard(card),
    });
    this.barRoot = h("section.action-bar", { hidden: true, "aria-label": t("act.bar") });
    this.preRoot = h("div.pre-actions", { hidden: true });
    this.actionBar = new ActionBar(this.barRoot, {
      preRoot: this.preRoot,
      send: (payload) => this.sendAction(payload),
      onDiscardChange: (sel, mode) => {
        this.selected = sel;
        this.discardMode = mode;
        this.render();
      },
    });
    this.seatControls = h("div.seat-controls");
    this.extra = h("div.table-extra");
    this.toast = h("p.toast", { role: "alert", hidden: true });
    this.root.append(
      h(
        "section.table-page",
        this.topbar,
        h("div.table-main", this.feltWrap, h("aside.table-side", this.log.details, this.extra)),
        h("div.bottom-dock", this.seatControls, this.preRoot, this.barRoot),
        this.toast,
        this.log.live,
      ),
    );
  }

  /** Redraw every label in the language just chosen. */
  relabel() {
    document.documentElement.lang = lang();
    this.actionBar.render();
    this.render();
  }

  destroy() {
    this.conn?.close();
    this.actionBar.destroy();
    clearTimeout(this.commitTimer);
  }

  command(name, args = {}) {
    if (!this.conn.sendRaw(encodeCommand(name, args))) this.showToast(t("conn.offline"));
  }

  sendAction(payload) {
    if (!this.conn.sendRaw(encodeAction(payload, this.state.handNo))) {
      this.actionBar.refused();
      this.showToast(t("conn.offline"));
    }
  }

  sit(seat) {
    if (this.state.room?.kind === "ahiko") openBuyIn(this.state, seat);
    else this.command("sit", { seat });
  }

  /** Ahiko rooms pay out through the wallet (HTTP), not the table socket. */
  async leaveAhiko(afterHand) {
    try {
      await api.ahikoLeave(this.state.room.id, afterHand);
    } catch (err) {
      this.showToast(err.message);
    }
  }

  setConnState(s) {
    this.connState = s;
    this.renderTopbar();
  }

  showToast(text) {
    this.toast.textContent = text;
    this.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast.hidden = true;
    }, 4000);
  }

  receive(msg) {
    const before = this.capturePositions();
    const prevView = this.state.view;
    const prevCommit = this.state.commitment?.digest;
    this.state.apply(msg);
    if (msg.type === "ack" || msg.type === "ignored") return;
    if (msg.type === "error") {
      this.actionBar.refused();
      const text = [msg.rule, msg.message || msg.code].filter(Boolean).join(": ");
      this.showToast(text);
      this.log.announce(text);
      return;
    }
    if (msg.type === "cancelled") this.showToast(t("table.cancelled", { n: msg.handNo }));
    if (msg.type === "closed") this.showToast(t("table.closed"));
    if (this.state.commitment?.digest !== prevCommit && this.state.commitmentOnDisplay()) {
      clearTimeout(this.commitTimer);
      this.commitTimer = setTimeout(() => this.render(), COMMITMENT_DISPLAY_MS + 20);
    }
    this.render();
    this.animate(prevView, this.state.view, before);
  }

  capturePositions() {
    const out = { bets: {}, pot: this.renderer.anchorPoint(".pots") };
    for (const el of this.feltWrap.querySelectorAll("[data-bet-seat]")) {
      const r = el.getBoundingClientRect();
      out.bets[el.dataset.betSeat] = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    }
    return out;
  }

  animate(prev, next, before) {
    if (!prev || !next) return;
    const pot = this.renderer.anchorPoint(".pots") ?? this.renderer.anchorPoint(".board");
    for (const s of next.seats ?? []) {
      const had = before.bets[String(s.seat)];
      if (had && !s.bet) slideChips(had, pot);
    }
    const oldAwards = (prev.history ?? []).filter((e) => e.kind === "pot_awarded").length;
    const awards = (next.history ?? []).filter((e) => e.kind === "pot_awarded");
    awards.slice(oldAwards).forEach((a, i) => {
      for (const w of a.winners ?? []) {
        const to = this.renderer.anchorPoint(`[data-seat="${w}"] .seat-box`);
        setTimeout(() => slideChips(before.pot ?? pot, to), i * 300);
      }
    });
  }

  handKey() {
    return this.state.commitment?.digest ?? this.state.room?.handNo ?? null;
  }

  render() {
    const state = this.state;
    const me = state.mySeat();
    this.actionBar.update(state.view, me, state.handNo);
    this.renderer.render(state, { selected: this.selected, discardMode: this.discardMode });
    const fresh = this.log.update(state.view, (s) => state.playerName(s), this.handKey(), state.handNo);
    const myTurn = state.view && me !== null && state.view.to_act === me && state.view.legal;
    if (myTurn && !this.wasMyTurn) fresh.push(t("table.your_turn"));
    this.wasMyTurn = Boolean(myTurn);
    if (fresh.length) this.log.announce(fresh.slice(-3).join(". "));
    this.renderTopbar();
    this.renderSeatControls();
    this.renderExtra();
  }

  renderTopbar() {
    const state = this.state;
    const room = state.room;
    const stakes = stakesText(room?.stakes && Object.keys(room.stakes).length ? room.stakes : state.view?.stakes);
    const handNo = state.commitment?.hand_no ?? room?.handNo;
    const c = state.commitment;
    const items = [
      h("a.back", { href: "#/lobby", "aria-label": t("table.back_lobby") }, "←"),
      h("h1.room-name", room?.name || t("table.room")),
      stakes ? h("span.top-item.stakes", stakes) : null,
      handNo ? h("span.top-item.hand-no", t("table.hand_no", { n: handNo })) : null,
      c
        ? h(
            "span.top-item.commit",
            h("code", { title: c.digest, "aria-label": t("table.commitment_label", { fp: fingerprint(c.digest) }) }, fingerprint(c.digest)),
            h("button.check-cards", { type: "button", dataset: { open: "verify" }, onclick: () => openVerifyDialog(state) }, t("table.check_cards")),
          )
        : null,
      room?.host
        ? h("button.room-menu-btn", { type: "button", dataset: { open: "room-menu" }, onclick: () => openRoomMenu(state, (n, a) => this.command(n, a)) }, t("menu.title"))
        : null,
      h(
        "label.top-item.four-colour",
        h("input", {
          type: "checkbox",
          checked: isFourColour(),
          onchange: (ev) => {
            setFourColour(ev.target.checked);
            this.render();
          },
        }),
        t("table.four_colour"),
      ),
      h(
        "button.lang-switch",
        { type: "button", "aria-label": t("lang.switch.label"), onclick: () => setLang(lang() === "en" ? "pt-BR" : "en") },
        t("lang.switch"),
      ),
      h(`span.conn.conn-${this.connState}`, { role: "status", dataset: { conn: this.connState } }, t(`conn.${this.connState}`)),
    ];
    this.topbar.replaceChildren(...items.filter(Boolean));
  }

  renderSeatControls() {
    const state = this.state;
    const me = state.mySeat();
    const room = state.room;
    const player = me !== null ? state.player(me) : null;
    const controls = [];
    if (me !== null && room) {
      const inHand = state.view && !["over"].includes(state.view.street);
      if (room.kind === "ahiko") {
        controls.push(
          h(
            "button.leave-after",
            {
              type: "button",
              "aria-pressed": player?.leaving ? "true" : "false",
              dataset: { control: "leave" },
              disabled: Boolean(player?.leaving),
              onclick: () => this.leaveAhiko(true),
            },
            t("table.leave_after_hand"),
          ),
        );
        if (!inHand) {
          controls.push(
            h("button", { type: "button", dataset: { control: "leave-now" }, onclick: () => this.leaveAhiko(false) }, t("table.leave")),
            h("button", { type: "button", dataset: { control: "reload" }, onclick: () => openBuyIn(state, me, { reload: true, onError: (e) => this.showToast(e.message) }) }, t("table.reload")),
          );
        }
      } else {
        controls.push(h("button", { type: "button", dataset: { control: "leave" }, onclick: () => this.command("leave") }, t("table.leave")));
        if (player && player.stack === 0 && !inHand && room.kind === "recreational") {
          controls.push(h("button", { type: "button", dataset: { control: "new_entry" }, onclick: () => this.command("new_entry") }, t("table.new_entry")));
        }
      }
    } else if (room) {
      controls.push(h("span.spectating", t("table.spectating")));
    }
    if (this.canShow(me)) {
      controls.push(
        h("button", { type: "button", dataset: { control: "show" }, onclick: () => this.command("show", { hand_no: state.handNo }) }, t("table.show")),
      );
    }
    this.seatControls.replaceChildren(...controls);
  }

  /** R-HE-12: after the hand, a player whose cards nobody saw may show them. */
  canShow(me) {
    const view = this.state.view;
    if (me === null || !view || view.street !== "over" || !this.state.handNo) return false;
    const mine = (view.seats ?? []).find((s) => s.seat === me);
    if (!mine?.cards?.length) return false;
    return !(view.history ?? []).some((e) => e.kind === "cards_shown" && e.seat === me);
  }

  renderExtra() {
    const room = this.state.room;
    const parts = [];
    const results = resultsTable(this.state.results);
    if (results) parts.push(results);
    if (room?.host && room.visibility === "private") {
      const link = `${location.origin}${location.pathname}#/room/${encodeURIComponent(room.id)}`;
      parts.push(h("p.private-link", t("table.private_link"), " ", h("code", link)));
    }
    this.extra.replaceChildren(...parts);
  }
}
