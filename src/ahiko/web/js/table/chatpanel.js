// Table chat beside the hand log: people's messages only (the dealer's lines stay in
// the hand log), shown as plain text, never as markup or links. Quick-chat presets and emotes
// are ids the server checks and each browser writes in its own language. Each message offers
// "Silenciar" (this browser's player stops seeing its author) and "Denunciar".

import { clear, h } from "../dom.js";
import { t, tPhone } from "../i18n.js";

export const CHAT_MAX = 200;
export const PRESETS = ["gg", "nice_hand", "good_luck", "thanks", "well_played", "sorry", "brb", "back"];
export const EMOTES = ["smile", "laugh", "cool", "wow", "sad", "clap"];
const EMOTE_GLYPH = { smile: "🙂", laugh: "😄", cool: "😎", wow: "😮", sad: "🙁", clap: "👏" };
const KEEP = 100; // messages kept on screen

export class ChatPanel {
  /** `send(name, args)` sends a table command; `me()` is this browser's player id or null. */
  constructor({ send, me }) {
    this.send = send;
    this.me = me;
    this.messages = [];
    this.muted = new Set();
    this.mode = "seated";
    this.canTalk = false;
    this.list = h("ol.chat-lines", { "aria-label": t("chat.messages") });
    this.input = h("input.chat-input", {
      type: "text",
      maxLength: CHAT_MAX,
      autocomplete: "off",
      "aria-label": t("chat.input"),
      placeholder: t("chat.placeholder"),
      // Typing in the chat never presses the table's F/C/R keys.
      onkeydown: (ev) => ev.stopPropagation(),
    });
    this.sendBtn = h("button.chat-send", { type: "submit" }, t("chat.send"));
    this.form = h("form.chat-form", { onsubmit: (ev) => this.submit(ev) }, this.input, this.sendBtn);
    this.quick = h("div.chat-quick", { role: "group", "aria-label": t("chat.quick") });
    this.note = h("p.chat-note", { hidden: true });
    this.summary = h("summary", { ariaLabel: t("chat.title") }, ...tPhone("chat.title"));
    this.details = h(
      "details.chat-panel",
      { open: window.matchMedia?.("(min-width: 900px)").matches ?? true, dataset: { panel: "chat" } },
      this.summary,
      this.list,
      this.note,
      this.quick,
      this.form,
    );
    this.renderQuick();
  }

  /** The snapshot's chat part: {mode, muted, messages}. */
  load(chat) {
    if (!chat) return;
    this.mode = chat.mode ?? this.mode;
    this.muted = new Set(chat.muted ?? []);
    this.messages = (chat.messages ?? []).slice(-KEEP);
    this.renderLines();
  }

  add(msg) {
    if (!msg || this.muted.has(msg.player_id)) return;
    if (this.messages.some((m) => m.no === msg.no)) return;
    this.messages.push(msg);
    if (this.messages.length > KEEP) this.messages.shift();
    this.renderLines();
  }

  /** Who may talk now: `seated` is whether this browser's player has a seat. */
  update({ mode, seated, signedIn }) {
    if (mode) this.mode = mode;
    this.lastSeated = seated;
    this.lastSignedIn = signedIn;
    const allowed = signedIn && this.mode !== "off" && (seated || this.mode === "everyone");
    this.canTalk = allowed;
    this.input.disabled = !allowed;
    this.sendBtn.disabled = !allowed;
    for (const b of this.quick.querySelectorAll("button")) b.disabled = !allowed;
    let note = null;
    if (this.mode === "off") note = t("chat.off");
    else if (!signedIn) note = t("chat.sign_in");
    else if (!allowed) note = t("chat.seated_only");
    this.note.hidden = !note;
    this.note.textContent = note ?? "";
  }

  /** The server's answer to a mute: the full list of players muted by this player. */
  setMuted(ids) {
    this.muted = new Set(ids);
    this.messages = this.messages.filter((m) => !this.muted.has(m.player_id));
    this.renderLines();
  }

  submit(ev) {
    ev.preventDefault();
    const text = this.input.value.trim();
    if (!text || !this.canTalk) return;
    this.send("chat", { text });
    this.input.value = "";
  }

  text(msg) {
    if (msg.kind === "preset") return t(`chat.preset.${msg.text}`);
    if (msg.kind === "emote") return `${EMOTE_GLYPH[msg.text] ?? ""} ${t(`chat.emote.${msg.text}`)}`;
    return msg.text;
  }

  renderQuick() {
    clear(this.quick);
    for (const p of PRESETS) {
      this.quick.append(h("button.chat-preset", { type: "button", dataset: { preset: p }, onclick: () => this.send("chat", { preset: p }) }, t(`chat.preset.${p}`)));
    }
    for (const e of EMOTES) {
      this.quick.append(
        h("button.chat-emote", { type: "button", dataset: { preset: e }, "aria-label": t(`chat.emote.${e}`), title: t(`chat.emote.${e}`), onclick: () => this.send("chat", { preset: e }) }, EMOTE_GLYPH[e]),
      );
    }
  }

  renderLines() {
    clear(this.list);
    const me = this.me();
    for (const m of this.messages) {
      const mine = me !== null && m.player_id === me;
      const tools = mine
        ? []
        : [
            h("button.chat-mute", { type: "button", dataset: { mute: m.player_id }, "aria-label": t("chat.mute_label", { name: m.name }), title: t("chat.mute_label", { name: m.name }), onclick: () => this.send("chat_mute", { player_id: m.player_id, on: true }) }, t("chat.mute")),
            h("button.chat-report", { type: "button", dataset: { report: String(m.no) }, "aria-label": t("chat.report_label", { name: m.name }), title: t("chat.report_label", { name: m.name }), onclick: () => this.send("chat_report", { no: m.no }) }, "⚑"),
          ];
      // textContent only: a message is never markup and a link stays text.
      this.list.append(
        h(
          `li.chat-line${m.seat === null ? ".spectator" : ""}${mine ? ".mine" : ""}`,
          { dataset: { no: String(m.no), author: m.player_id } },
          h("span.chat-name", m.seat === null ? t("chat.spectator_name", { name: m.name }) : m.name),
          h("span.chat-text", this.text(m)),
          ...tools,
        ),
      );
    }
    this.list.scrollTop = this.list.scrollHeight;
  }

  relabel() {
    this.summary.replaceChildren(...tPhone("chat.title"));
    this.summary.setAttribute("aria-label", t("chat.title"));
    this.input.placeholder = t("chat.placeholder");
    this.input.setAttribute("aria-label", t("chat.input"));
    this.sendBtn.textContent = t("chat.send");
    this.renderQuick();
    this.renderLines();
    this.update({ mode: this.mode, seated: this.lastSeated, signedIn: this.lastSignedIn });
  }
}
