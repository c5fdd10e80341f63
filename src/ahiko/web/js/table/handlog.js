// The short hand log beside the table and the aria-live line that reads new events aloud.
// On a phone the log opens as a sheet over the bottom of the screen, below the felt (whose
// size never changes): it closes by a tap on its title or its close button, by Esc, and by
// itself when the next hand starts.

import { clear, h } from "../dom.js";
import { t, tPhone } from "../i18n.js";
import { eventText, showdownHands } from "./describe.js";

const PHONE = "(max-width: 700px)";

function isPhone() {
  return window.matchMedia?.(PHONE).matches ?? false;
}

export class HandLog {
  /** `sheetTop()`: where the phone sheet may start at the highest (px: under the felt); it
   *  starts under the log's own title, which stays there to be tapped closed. */
  constructor({ sheetTop = () => null } = {}) {
    this.sheetTop = () => {
      const felt = sheetTop();
      const title = this.summary.getBoundingClientRect().bottom;
      return felt === null ? title : Math.max(felt, title);
    };
    this.list = h("ol.log-lines");
    this.summary = h("summary", { ariaLabel: t("table.log") }, ...tPhone("table.log"));
    this.closeBtn = h(
      "button.log-close",
      { type: "button", "aria-label": t("table.log_close"), onclick: () => this.close() },
      "✕",
    );
    this.body = h("div.log-body", h("div.log-head", h("span.log-title", t("table.log")), this.closeBtn), this.list);
    this.details = h(
      "details.hand-log",
      { open: window.matchMedia?.("(min-width: 900px)").matches ?? true },
      this.summary,
      this.body,
    );
    this.details.addEventListener("toggle", () => this.place());
    this.onKey = (ev) => {
      if (ev.key === "Escape" && this.details.open && isPhone()) {
        ev.preventDefault();
        this.close();
      }
    };
    document.addEventListener("keydown", this.onKey);
    this.onResize = () => this.place();
    window.addEventListener("resize", this.onResize);
    this.live = h("p.live-line.visually-hidden", { role: "status", "aria-live": "polite" });
    this.seen = 0;
    this.handKey = null;
    this.notes = []; // [{at: history index, text}]: what the table said (timeouts, departures)
    this.historyLength = 0;
    this.narrate = null; // (text) => true when the screen-reader mode said it instead
  }

  /** The phone sheet spans from under the felt to the bottom of the screen. */
  place() {
    const top = this.details.open && isPhone() ? this.sheetTop() : null;
    this.body.style.top = top === null ? "" : `${Math.round(top)}px`;
    this.details.classList.toggle("sheet", top !== null);
    if (this.details.open) this.list.scrollTop = this.list.scrollHeight; // the latest lines
  }

  close() {
    this.details.open = false;
    this.place();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
  }

  /** A line of the table's own (not an engine event), kept with this hand's lines. */
  note(text) {
    this.notes.push({ at: this.historyLength, text });
    this.list.append(h("li.log-note", text));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Re-render the lines; returns the texts of the events new since last time. */
  update(view, nameOf, handKey, handNo = null) {
    const history = view?.history ?? [];
    if (handKey !== this.handKey || history.length < this.seen) {
      if (this.handKey !== null && handKey !== this.handKey && isPhone()) this.close(); // the next hand
      this.handKey = handKey;
      this.seen = 0;
      this.notes = [];
    }
    this.historyLength = history.length;
    const hands = history.some((e) => e.kind === "pot_awarded") ? showdownHands(view) : {};
    clear(this.list);
    history.forEach((e, i) => {
      for (const n of this.notes) if (n.at === i) this.list.append(h("li.log-note", n.text));
      const line = eventText(e, nameOf, handNo, hands);
      if (line) this.list.append(h("li", line));
    });
    for (const n of this.notes) if (n.at >= history.length) this.list.append(h("li.log-note", n.text));
    this.list.scrollTop = this.list.scrollHeight;
    const fresh = history.slice(this.seen).map((e) => eventText(e, nameOf, handNo, hands)).filter(Boolean);
    this.seen = history.length;
    return fresh;
  }

  /** The title in the language just chosen (every line is rewritten on the next update). */
  relabel() {
    this.summary.replaceChildren(...tPhone("table.log"));
    this.summary.setAttribute("aria-label", t("table.log"));
    this.body.querySelector(".log-title").textContent = t("table.log");
    this.closeBtn.setAttribute("aria-label", t("table.log_close"));
  }

  announce(text) {
    if (!text || this.narrate?.(text)) return;
    this.live.textContent = text;
  }
}
