// The questions a home game's hand asks one player, in the action bar's place: the straddle
// before the cards (the straddler seat) and run it twice (the all-in players). Each comes
// with the server's short clock; no answer is the default (no straddle; run it once).

import { h } from "../dom.js";
import { t } from "../i18n.js";

export class HandPrompts {
  /** `send(name, args)`: a command to the room; `mySeat()`: this viewer's seat or null. */
  constructor({ send, mySeat }) {
    this.send = send;
    this.mySeat = mySeat;
    this.el = h("div.hand-prompt", { role: "group", hidden: true });
    this.asked = null; // {kind, handNo, amount?}
  }

  /** A `prompt` frame: an offer or a question to this seat, or its answer (hide). */
  receive(msg) {
    const me = this.mySeat();
    if (msg.kind === "straddle_offer" && msg.seat === me) this.ask({ kind: "straddle", handNo: msg.handNo, amount: msg.amount }, msg.seconds);
    else if (msg.kind === "runs_asked" && (msg.seats ?? []).includes(me)) this.ask({ kind: "runs", handNo: msg.handNo }, msg.seconds);
    else if (msg.kind === "straddle_answer" && this.asked?.kind === "straddle") this.clear();
  }

  /** A hand frame: the run-it-twice question is over once this seat is no longer asked. */
  handUpdate(view) {
    if (this.asked?.kind !== "runs") return;
    if (!view || view.hand_no !== undefined && view.hand_no !== this.asked.handNo) return this.clear();
    if (!(view.runs_pending ?? []).includes(this.mySeat())) this.clear();
  }

  ask(asked, seconds) {
    this.asked = asked;
    const answer = (name, args) => () => {
      this.send(name, args);
      this.clear();
    };
    const buttons =
      asked.kind === "straddle"
        ? [
            h("button.primary", { type: "button", dataset: { prompt: "straddle" }, onclick: answer("straddle", { take: true }) }, t("prompt.straddle_yes", { amount: asked.amount })),
            h("button", { type: "button", dataset: { prompt: "no_straddle" }, onclick: answer("straddle", { take: false }) }, t("prompt.straddle_no")),
          ]
        : [
            h("button.primary", { type: "button", dataset: { prompt: "twice" }, onclick: answer("choose_runs", { runs: 2 }) }, t("prompt.runs_twice")),
            h("button", { type: "button", dataset: { prompt: "once" }, onclick: answer("choose_runs", { runs: 1 }) }, t("prompt.runs_once")),
          ];
    const question = asked.kind === "straddle" ? t("prompt.straddle", { amount: asked.amount }) : t("prompt.runs");
    this.el.setAttribute("aria-label", question);
    this.el.replaceChildren(
      h("p.prompt-question", { role: "status" }, question, " ", h("span.prompt-clock", t("prompt.seconds", { s: Math.round(seconds ?? 0) }))),
      h("div.prompt-buttons", ...buttons),
    );
    this.el.hidden = false;
  }

  clear() {
    this.asked = null;
    this.el.hidden = true;
    this.el.replaceChildren();
  }
}
