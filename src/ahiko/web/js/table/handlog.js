// The short hand log beside the table and the aria-live line that reads new events aloud.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { eventText } from "./describe.js";

export class HandLog {
  constructor() {
    this.list = h("ol.log-lines");
    this.summary = h("summary", t("table.log"));
    this.details = h(
      "details.hand-log",
      { open: window.matchMedia?.("(min-width: 900px)").matches ?? true },
      this.summary,
      this.list,
    );
    this.live = h("p.live-line.visually-hidden", { role: "status", "aria-live": "polite" });
    this.seen = 0;
    this.handKey = null;
  }

  /** Re-render the lines; returns the texts of the events new since last time. */
  update(view, nameOf, handKey, handNo = null) {
    const history = view?.history ?? [];
    if (handKey !== this.handKey || history.length < this.seen) {
      this.handKey = handKey;
      this.seen = 0;
    }
    const lines = history.map((e) => eventText(e, nameOf, handNo)).filter(Boolean);
    clear(this.list);
    for (const line of lines) this.list.append(h("li", line));
    this.list.scrollTop = this.list.scrollHeight;
    const fresh = history.slice(this.seen).map((e) => eventText(e, nameOf, handNo)).filter(Boolean);
    this.seen = history.length;
    return fresh;
  }

  /** The title in the language just chosen (every line is rewritten on the next update). */
  relabel() {
    this.summary.textContent = t("table.log");
  }

  announce(text) {
    if (!text) return;
    this.live.textContent = text;
  }
}
