// One table on screen: connects to the room, keeps a TableState, and wires the renderer, the
// action bar, the log and the dialogs together. The bottom dock keeps one fixed place for the
// action bar, the pre-actions and the host's checklist, so the table never jumps when a turn
// starts or ends.

import { api } from "../api.js";
import { RoomConnection } from "../connection.js";
import { h } from "../dom.js";
import { fmt, lang, setLang, t } from "../i18n.js";
import { fingerprint, TableState } from "../tablestate.js";
import { encodeAction, encodeCommand, roomSocketUrl } from "../wire.js";
import { houseText } from "../houseoptions.js";
import { HandPrompts } from "./handprompts.js";
import { ActionBar } from "./actionbar.js";
import { Narrator, readerModeOn } from "./announce.js";
import { openSeatSignIn } from "./seatsignin.js";
import { settingsButton } from "./settings.js";
import { TableReader } from "./readout.js";
import { ChatPanel } from "./chatpanel.js";
import { Attention, setSound, soundOn } from "./attention.js";
import { slideChips } from "./anim.js";
import { tickCountdowns } from "./countdown.js";
import { errorText } from "./describe.js";
import { openBuyIn } from "./buyin.js";
import { openRoomMenu, resultsTable } from "./dialogs.js";
import { hostChecklist } from "./hostchecklist.js";
import { hostText, openLedger } from "./hostdesk.js";
import { tournamentInfo } from "./tournamentinfo.js";
import { HandLog } from "./handlog.js";
import { TableRenderer } from "./render.js";
import { renderSeatControls, renderSocial } from "./seatcontrols.js";
import { openVerifyDialog } from "./verifydialog.js";
import { SeatSeed } from "../fairseed.js";

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


// A multi-table tournament moved me (the `moved` frame): the page of the new table says so,
// the old one being gone by then ({roomId, text}).
let arrival = null;

export class TablePage {
  constructor(root, { roomId, connect = (url, handlers) => new RoomConnection(url, handlers).open() }) {
    this.root = root;
    this.roomId = roomId;
    this.state = new TableState();
    this.log = new HandLog({ sheetTop: () => this.feltWrap?.getBoundingClientRect().bottom ?? null });
    // Sitting out and the time bank live beside the table, not in the bottom dock,
    // whose height must not change when a turn starts or ends.
    this.social = h("div.social-controls", { role: "group" });
    this.chat = new ChatPanel({ send: (name, args) => this.command(name, args), me: () => this.state.you?.player_id ?? null });
    this.connState = "connecting";
    this.discardMode = false;
    this.selected = new Set();
    this.botLevel = "normal"; // the host checklist's choice, kept across re-renders
    this.pendingReload = null; // {amount, handNo}: a reload that joins the stack next hand
    this.attention = new Attention();
    this.narrator = new Narrator();
    this.build();
    this.reader = new TableReader(this.state, this.actionBar);
    this.narrator.region.after(this.reader.line);
    // In the screen-reader mode the narrator says every line; the log's own line stays quiet.
    this.log.narrate = (text) => readerModeOn() && (this.narrator.say(text), true);
    if (arrival?.roomId === roomId) {
      this.showToast(arrival.text, "info");
      this.log.announce(arrival.text);
    }
    arrival = null;
    this.ticker = setInterval(() => this.tick(), 250);
    this.connect = () =>
      connect(roomSocketUrl(roomId), {
        onMessage: (msg) => this.receive(msg),
        onState: (s) => this.setConnState(s),
      });
    this.conn = this.connect();
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
    this.prompts = new HandPrompts({ send: (name, args) => this.command(name, args), mySeat: () => this.state.mySeat() });
    this.seatControls = h("div.seat-controls", { role: "group", "aria-label": t("table.actions") });
    this.dockInfo = h("div.dock-info", { hidden: true });
    // On a phone the showdown's result lines read here, under the felt, not over its seats.
    this.dockResults = h("div.dock-results", { hidden: true });
    this.dock = h(
      "div.bottom-dock",
      this.seatControls,
      h("div.dock-main", this.dockInfo, this.dockResults, this.prompts.el, this.preRoot, this.barRoot),
    );
    this.extra = h("div.table-extra");
    // A click puts it away at once: it sits over the top bar's buttons for a few seconds.
    this.toast = h("p.toast", { role: "alert", hidden: true, onclick: () => (this.toast.hidden = true) });
    this.root.append(
      h(
        "section.table-page",
        this.topbar,
        h("div.table-main", this.feltWrap, h("aside.table-side", this.social, this.log.details, this.chat.details, this.extra)),
        this.dock,
        this.toast,
        this.log.live,
        this.narrator.region,
      ),
    );
  }

  /** Redraw every label in the language just chosen, those built once included. */
  relabel() {
    document.documentElement.lang = lang();
    this.barRoot.setAttribute("aria-label", t("act.bar"));
    this.seatControls.setAttribute("aria-label", t("table.actions"));
    this.renderer.relabel();
    this.log.relabel();
    this.chat.relabel();
    this.actionBar.render();
    this.render();
  }

  /** Four times a second: the countdowns' texts, the clock alert, and a finished hand whose
   *  result has had its few seconds, or that has been on the felt long enough with nothing to
   *  follow it. */
  tick() {
    tickCountdowns(this.root);
    this.attention.tick(this.state);
    const stale = this.state.finishedHandStale();
    if (stale !== this.stale || this.state.resultShownForMs() > 0 !== this.resultShown) this.render();
  }

  destroy() {
    clearTimeout(this.cashOutTimer);
    this.attention.destroy();
    this.reader.destroy();
    this.log.destroy();
    this.conn?.close();
    this.actionBar.destroy();
    clearTimeout(this.commitTimer);
    clearTimeout(this.toastTimer);
    clearInterval(this.ticker);
  }

  isClosed() {
    return this.state.room?.status === "closed" || Boolean(this.state.closed);
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
    if (!this.state.you?.player_id) {
      // A visitor: the seat's dialog opens the account, then the socket comes back as it.
      openSeatSignIn(seat, () => {
        this.sitOnReturn = seat;
        this.conn.close();
        this.conn = this.connect();
      });
    } else if (this.state.room?.kind === "ahiko") openBuyIn(this.state, seat);
    else this.command("sit", { seat });
  }

  /** Ahiko rooms pay out through the wallet (HTTP), not the table socket. */
  async leaveAhiko(afterHand) {
    try {
      await api.ahikoLeave(this.state.room.id, afterHand);
    } catch (err) {
      this.showToast(errorText(err.code, err.message));
    }
  }

  /** pokerfair/2: reveal this browser's secret for the hand just committed (if the set holds
   *  it) and commit one for the next. A browser without WebCrypto simply does not contribute. */
  async contribute(msg) {
    this.seed ??= new SeatSeed((name, args) => this.command(name, args));
    try {
      const revealed = await this.seed.onCommitment(msg.commitment?.table_id, msg.handNo, msg.contributors, this.state.mySeat());
      if (revealed) this.state.noteOwnSecret(msg.handNo, revealed.seat, revealed.secret);
    } catch {
      // no crypto.subtle (an insecure context): this hand is dealt as pokerfair/1 for us
    }
  }

  setConnState(s) {
    this.connState = s;
    this.renderTopbar();
  }

  /** A short message over the table: `error` (red) for refusals, `info` for news. */
  showToast(text, kind = "error") {
    this.toast.textContent = text;
    this.toast.dataset.kind = kind;
    this.toast.setAttribute("role", kind === "error" ? "alert" : "status");
    this.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast.hidden = true;
    }, kind === "error" ? 4000 : 6000);
  }

  receive(msg) {
    this.frameNo = (this.frameNo ?? 0) + 1;
    const prevPlayers = this.state.room?.players ?? null;
    const before = this.capturePositions();
    const prevView = this.state.view;
    const prevCommit = this.state.commitment?.digest;
    this.state.apply(msg);
    if (msg.type === "commitment") this.contribute(msg);
    if (msg.type === "ack" && msg.data?.receipt) this.state.noteReceipt(msg.data.hand_no, msg.data.seat, msg.data.receipt);
    if (msg.type === "error" && String(msg.code).startsWith("fair_")) return; // told in "Conferir cartas"
    if (msg.type === "chat") {
      this.chat.add(msg.msg);
      return;
    }
    if (msg.type === "snapshot") this.chat.load(msg.chat);
    if (msg.type === "snapshot" && this.sitOnReturn !== undefined && this.state.you?.player_id) {
      this.sit(this.sitOnReturn);
      delete this.sitOnReturn;
    }
    if (msg.type === "ack") {
      if (Array.isArray(msg.data?.muted)) this.chat.setMuted(msg.data.muted);
      if (msg.data?.filed !== undefined) this.showToast(t("chat.reported"), "info");
    }
    if (msg.type === "ack" && msg.data?.awaiting_approval) this.showToast(t("home.awaiting"), "info");
    if (msg.type === "ack" || msg.type === "ignored") return;
    if (msg.type === "prompt") return this.prompts.receive(msg);
    if (msg.type === "hand") this.prompts.handUpdate(this.state.view);
    if (msg.type === "host") {
      const text = hostText(msg);
      this.log.note(text); // every host action is in the hand log
      this.log.announce(text);
      this.showToast(text, "info");
    }
    if (msg.type === "error") {
      this.actionBar.refused();
      const text = errorText(msg.code, msg.message);
      this.showToast(text);
      this.log.announce(text);
      return;
    }
    if (msg.type === "notice") {
      const text = errorText(msg.code, msg.message);
      this.showToast(text, "info");
      this.log.announce(text);
      return;
    }
    if (msg.type === "moved") {
      // A multi-table tournament moved me to another table: open it (no page reload); the
      // new table's page says where I am.
      const text = t("table.moved", { n: msg.table });
      if (!msg.roomId) {
        this.showToast(text, "info");
        return;
      }
      arrival = { roomId: msg.roomId, text };
      location.hash = `#/room/${encodeURIComponent(msg.roomId)}`;
      return;
    }
    if (msg.type === "wallet") {
      if (msg.amount > 0) this.tellCashedOut(msg.amount);
      return;
    }
    if (msg.type === "cancelled") this.showToast(t("table.cancelled", { n: msg.handNo }), "info");
    if (msg.type === "closed") this.showToast(this.closedText(msg.reason), "info");
    if (msg.type === "closed" && msg.reason === "ended") openLedger(this.state.room?.id, (e) => this.showToast(e));
    if (msg.type === "hand" && msg.autoAction) this.tellAutoAction(msg.autoAction);
    if (msg.type === "room" || msg.type === "snapshot") this.tellDepartures(prevPlayers);
    if (msg.type === "commitment") this.pendingReload = null; // it is in the stack now
    if (this.state.commitment?.digest !== prevCommit && this.state.commitmentOnDisplay()) {
      clearTimeout(this.commitTimer);
      const left = this.state.cardsAt === null ? 0 : Math.max(0, this.state.cardsAt - Date.now());
      if (left > 0) this.commitTimer = setTimeout(() => this.render(), left + 20);
    } else if (!this.state.commitmentOnDisplay()) {
      clearTimeout(this.commitTimer); // the cards came: nothing to redraw for
    }
    this.render();
    this.animate(prevView, this.state.view, before);
  }

  /** The room answered for a seat (docs/protocol.md `auto_action`): said on the table, in
   *  the log's live line, and under the seat. */
  tellAutoAction(auto) {
    const name = this.state.playerName(auto.seat);
    const key = `auto.${auto.reason}.${auto.action}`;
    let text = t(key, { name });
    if (text === key) text = t(`auto.${auto.reason}`, { name });
    if (auto.seat === this.state.mySeat()) this.showToast(text, "info");
    this.log.announce(text);
    this.log.note(text);
  }

  /** Someone left the table or lost the connection: news for everyone at it. */
  tellDepartures(prev) {
    const now = this.state.room?.players ?? {};
    if (!prev) return;
    const me = this.state.mySeat();
    for (const [seat, p] of Object.entries(prev)) {
      const cur = now[seat];
      if (Number(seat) === me || p.reserved) continue;
      let text = null;
      if (!cur || cur.playerId !== p.playerId) text = t("table.left_table", { name: p.name });
      else if (p.connected && !cur.connected) text = t("table.lost_connection", { name: p.name });
      else if (!p.connected && cur.connected) text = t("table.back_online", { name: p.name });
      if (text) {
        this.log.announce(text);
        this.log.note(text);
      }
    }
  }

  /** The chips went back to the wallet (R-RM-14): said at once to screen readers, and shown
   *  over the table only once the hand's result has had its few seconds on the felt. */
  tellCashedOut(amount) {
    const text = t("table.cashed_out", { amount: fmt(amount) });
    this.log.announce(text);
    clearTimeout(this.cashOutTimer);
    const wait = this.state.resultShownForMs();
    if (wait === 0) this.showToast(text, "info");
    else this.cashOutTimer = setTimeout(() => this.showToast(text, "info"), wait);
  }

  /** A confirmed reload: the stack shows it at once, or says it joins the next hand. */
  reloaded(amount) {
    const me = this.state.mySeat();
    const mine = (this.state.view?.seats ?? []).some((s) => s.seat === me);
    const running = this.state.view && this.state.view.street !== "over" && mine;
    if (running) this.pendingReload = { amount, handNo: this.state.handNo };
    this.showToast(t(running ? "reload.done_next" : "reload.done", { amount: fmt(amount) }), "info");
    this.render();
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

  closedText(reason) {
    const key = `table.closed.${reason}`;
    const text = t(key);
    return text === key ? t("table.closed") : text;
  }

  render() {
    const state = this.state;
    const me = state.mySeat();
    this.actionBar.update(this.isClosed() ? null : state.view, me, state.handNo, state.deadline);
    this.stale = state.finishedHandStale();
    this.resultShown = state.resultShownForMs() > 0;
    this.renderer.render(state, {
      selected: this.selected,
      discardMode: this.discardMode,
      stale: this.stale,
      pendingReload: this.pendingReload,
      frameNo: this.frameNo,
    });
    const fresh = this.log.update(state.view, (s) => state.playerName(s), this.handKey(), state.handNo);
    const myTurn = state.view && me !== null && state.view.to_act === me && state.view.legal;
    if (myTurn && !this.wasMyTurn) {
      fresh.push(t("table.your_turn"));
      this.attention.yourTurn(state.room?.name);
    }
    this.wasMyTurn = Boolean(myTurn);
    this.attention.follow(state);
    if (readerModeOn()) this.narrator.follow(state);
    else if (fresh.length) this.log.announce(fresh.slice(-3).join(". "));
    this.renderTopbar();
    renderSeatControls(this);
    this.renderDock();
    this.renderExtra();
    renderSocial(this);
    this.chat.update({ mode: state.room?.chat, seated: me !== null, signedIn: Boolean(state.you?.player_id) });
  }

  renderTopbar() {
    const state = this.state;
    const room = state.room;
    const stakes = stakesText(room?.stakes && Object.keys(room.stakes).length ? room.stakes : state.view?.stakes);
    const closed = this.isClosed();
    const handNo = state.commitment?.hand_no ?? room?.handNo ?? state.handNo;
    const c = state.commitment;
    // Only a hand this browser got cards of can be checked: the current one, or the one before.
    const checkable = state.proofs().length > 0;
    const items = [
      h("a.back", { href: "#/lobby", "aria-label": t("table.back_lobby") }, "←"),
      h("h1.room-name", room?.name || t("table.room")),
      stakes ? h("span.top-item.stakes", stakes) : null,
      houseText(room?.home?.options) ? h("span.top-item.house", { title: houseText(room.home.options) }, houseText(room.home.options)) : null,
      handNo ? h("span.top-item.hand-no", t("table.hand_no", { n: handNo })) : null,
      h("span.top-break", { "aria-hidden": "true" }), // a phone's second row starts here, always
      c || checkable
        ? h(
            "span.top-item.commit",
            { title: t("table.commitment_what") },
            c ? h("span.commit-label", t("table.commitment_short")) : null,
            c ? h("code", { title: c.digest, "aria-label": t("table.commitment_label", { fp: fingerprint(c.digest) }) }, fingerprint(c.digest)) : null,
            checkable
              ? h("button.check-cards", { type: "button", dataset: { open: "verify" }, onclick: () => openVerifyDialog(state) }, t("table.check_cards"))
              : null,
          )
        : null,
      room?.host && !closed
        ? h("button.room-menu-btn", { type: "button", dataset: { open: "room-menu" }, onclick: () => openRoomMenu(state, (n, a) => this.command(n, a)) }, t("menu.title"))
        : null,
      h(
        "button.sound-toggle",
        {
          type: "button",
          "aria-pressed": soundOn() ? "true" : "false",
          "aria-label": t("sound.label"),
          title: t(soundOn() ? "sound.on" : "sound.off"),
          dataset: { sound: soundOn() ? "on" : "off" },
          onclick: () => {
            setSound(!soundOn());
            this.renderTopbar();
          },
        },
        h("span.sound-glyph", { "aria-hidden": "true" }, "♪"),
      ),
      settingsButton({ onReaderOn: () => this.narrator.follow(this.state), onDeck: () => this.render() }),
      h(
        "button.lang-switch",
        { type: "button", "aria-label": t("lang.switch.label"), onclick: () => setLang(lang() === "en" ? "pt-BR" : "en") },
        h("span.lang-long", t("lang.switch")),
        h("span.lang-short", { "aria-hidden": "true" }, t("lang.switch.short")),
      ),
      h(`span.conn.conn-${this.connState}`, { role: "status", dataset: { conn: this.connState } }, h("span.conn-text", t(`conn.${this.connState}`))),
    ];
    this.topbar.replaceChildren(...items.filter(Boolean));
  }

  /** The dock keeps its height while this browser plays (or the host sets up), so a turn
   *  starting or ending never moves the table; a spectator's dock is small. */
  renderDock() {
    const room = this.state.room;
    const setup = Boolean(room?.host && room.status === "waiting" && room.kind !== "ahiko" && !this.isClosed());
    this.dockInfo.hidden = !setup;
    this.dockInfo.replaceChildren(...(setup ? [hostChecklist(this)] : []));
    const results = this.feltWrap.querySelector(".results");
    const phone = window.matchMedia?.("(max-width: 700px)").matches ?? false;
    // On a phone, or where the felt's lines would cover this player's own cards, they read here.
    const inDock = Boolean(results) && (phone || overlaps(results, this.feltWrap.querySelector(".seat.me .seat-cards")));
    this.feltWrap.classList.toggle("results-in-dock", inDock && !phone);
    const copy = inDock ? h("div.dock-result-lines", [...results.children].map((line) => h("div.dock-result-line", line.textContent))) : null;
    this.dockResults.replaceChildren(...(copy ? [copy] : [])); // the felt's lines are read aloud
    this.dockResults.hidden = !copy;
    this.dock.classList.toggle("reserved", !this.isClosed() && (this.state.mySeat() !== null || setup));
    this.dock.classList.toggle("setup", setup);
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
    const standing = tournamentInfo(this.state);
    if (standing) parts.push(standing);
    const results = resultsTable(this.state.results);
    if (results) parts.push(results);
    if (room?.host && room.visibility === "private") {
      const link = `${location.origin}${location.pathname}#/room/${encodeURIComponent(room.id)}`;
      parts.push(h("p.private-link", t("table.private_link"), " ", h("code", link)));
    }
    this.extra.replaceChildren(...parts);
  }
}

/** Whether two elements' boxes on the screen share any area (false when either is missing). */
function overlaps(a, b) {
  if (!a || !b) return false;
  const r = a.getBoundingClientRect();
  const q = b.getBoundingClientRect();
  return r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom;
}
