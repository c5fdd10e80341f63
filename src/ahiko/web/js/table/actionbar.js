// The action bar: only the legal actions (R-HE-06) with their amounts, a slider and a number
// box bounded by the legal min/max (R-HE-07), presets, the draw's discard choice, the time
// left to decide, and the keyboard shortcuts F / C / R / Enter / Esc. The buttons sit in
// fixed slots (fold | check/call | bet/raise | all-in) so none moves from one turn to the next.

import { clear, h } from "../dom.js";
import { fmt, t } from "../i18n.js";
import { countdown } from "./countdown.js";
import { hotkeysOn, presetAmount, presetForKey, presetKeys } from "./sizing.js";

export { totalPot } from "./sizing.js";

function clamp(n, lo, hi) {
  return Math.max(lo, Math.min(hi, n));
}

export class ActionBar {
  constructor(root, { send, onDiscardChange, preRoot = null }) {
    this.root = root;
    this.preRoot = preRoot; // "Passar/Desistir", "Pagar qualquer" while waiting
    this.pre = null;
    this.preHand = null;
    this.send = send;
    this.onDiscardChange = onDiscardChange;
    this.legal = null;
    this.view = null;
    this.deadline = null;
    this.amount = 0;
    this.selected = new Set();
    this.pending = false;
    this.keyHandler = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() {
    document.removeEventListener("keydown", this.keyHandler);
  }

  isOpen() {
    return Boolean(this.legal) && !this.pending;
  }

  /** Called on every new view. The bar shows only when the viewer is the seat to act;
   *  `deadline` is the table's clock ({seat, endsAt}) for the countdown. */
  update(view, mySeat, handNo = null, deadline = null) {
    const legal = view && mySeat !== null && view.to_act === mySeat ? view.legal : null;
    const mine = legal && deadline && deadline.seat === mySeat ? deadline : null;
    const clockChanged = (mine?.endsAt ?? null) !== (this.deadline?.endsAt ?? null);
    this.deadline = mine;
    if (handNo !== this.preHand) {
      this.preHand = handNo;
      this.pre = null;
    }
    this.renderPre(view, mySeat, legal);
    const changed = JSON.stringify(legal) !== JSON.stringify(this.legal);
    if (changed) {
      this.pending = false;
      this.legal = legal;
      this.view = view;
      this.selected = new Set();
      this.amount = legal ? legal.min_to : 0;
      this.onDiscardChange?.(this.selected, Boolean(legal?.is_draw_phase));
    } else {
      this.view = view;
    }
    if (changed) this.render();
    else if (clockChanged) this.renderTimer();
    if (changed && legal && this.pre && !legal.is_draw_phase) this.firePre(legal);
  }

  /** "Seu tempo: 14 s", ticking (tickCountdowns), or nothing in a room without a clock. */
  renderTimer() {
    if (!this.timerSlot) return;
    const d = this.deadline;
    const bank = d && d.bank !== null && d.bank !== undefined;
    this.timerSlot.replaceChildren(
      d ? countdown(bank ? "span.act-timer.bank" : "span.act-timer", d.endsAt, bank ? "act.time_bank_left" : "act.time_left", "act.time_up") : "",
    );
  }

  /** The pre-chosen action, taken the moment the turn comes (then forgotten). */
  firePre(legal) {
    const pre = this.pre;
    this.pre = null;
    if (pre === "check_fold") this.choose(legal.can_check ? "check" : "fold");
    else if (pre === "call_any") this.choose(legal.call_cost > 0 ? "call" : "check");
  }

  renderPre(view, mySeat, legal) {
    if (!this.preRoot) return;
    const me = (view?.seats ?? []).find((s) => s.seat === mySeat);
    const waiting =
      !legal && me && me.status === "active" && view.to_act !== null && view.to_act !== undefined &&
      !["showdown", "over"].includes(view.street);
    this.preRoot.hidden = !waiting;
    if (!waiting) {
      this.preRoot.replaceChildren();
      return;
    }
    const box = (key) =>
      h(
        "label.pre-action",
        h("input", {
          type: "checkbox",
          checked: this.pre === key,
          dataset: { pre: key },
          onchange: (ev) => {
            this.pre = ev.target.checked ? key : null;
            this.renderPre(view, mySeat, legal);
          },
        }),
        t(`act.pre.${key}`),
      );
    this.preRoot.replaceChildren(box("check_fold"), box("call_any"));
  }

  toggleDiscard(card) {
    if (!this.legal?.is_draw_phase || this.pending) return;
    if (this.selected.has(card)) this.selected.delete(card);
    else if (this.selected.size < (this.legal.max_discards ?? 3)) this.selected.add(card);
    this.onDiscardChange?.(this.selected, true);
    this.render();
  }

  render() {
    clear(this.root);
    const legal = this.legal;
    this.root.hidden = !legal;
    this.root.classList.toggle("pending", this.pending);
    this.amountBox = null;
    this.amountButton = null;
    this.hint = null;
    if (!legal) {
      this.timerSlot = null;
      return;
    }
    this.root.append(h("h2.visually-hidden", t("act.bar")));
    this.timerSlot = h("div.act-timer-slot");
    this.renderTimer();
    if (legal.is_draw_phase) this.renderDraw(legal);
    else this.renderBet(legal);
    if (this.pending) for (const b of this.root.querySelectorAll("button, input")) b.disabled = true;
  }

  renderBet(legal) {
    const kind = legal.bet_kind ? String(legal.bet_kind).toLowerCase() : null;
    const canSize = kind && legal.max_to > legal.min_to;
    let sized = null;
    if (kind && !(legal.min_to === legal.max_to && this.isAllIn(legal.max_to))) {
      const label = kind === "bet" ? "act.bet_amount" : "act.raise_amount";
      sized = this.button(kind, t(label, { amount: fmt(this.amount) }), { primary: true });
      this.amountButton = sized;
    }
    let middle = null;
    if (legal.can_check) middle = this.button("check", t("act.check"));
    else if (legal.call_cost > 0) middle = this.button("call", t("act.call", { amount: fmt(legal.call_cost) }));
    const slots = [
      legal.can_fold ? this.button("fold", t("act.fold")) : null,
      middle,
      sized,
      kind && this.isAllIn(legal.max_to) ? this.button("allin", t("act.allin_amount", { amount: fmt(legal.max_to) })) : null,
    ];
    const buttons = h(
      "div.act-buttons",
      slots.map((b) => b ?? h("span.act-slot", { "aria-hidden": "true" })),
    );
    this.hint = h("p.act-hint", { role: "status" });
    this.root.append(
      canSize ? this.sizer(legal, kind) : h("div.sizer.sizer-empty", { "aria-hidden": "true" }),
      buttons,
      h("div.act-foot", this.timerSlot, this.hint, hotkeysOn() ? h("p.act-keys", t("act.keys")) : null),
    );
  }

  isAllIn(to) {
    const legal = this.legal;
    return to - (legal.committed ?? 0) >= legal.stack;
  }

  sizer(legal, kind) {
    const label = kind === "bet" ? t("act.bet") : t("act.raise");
    const range = h("input.amount-range", {
      type: "range",
      min: String(legal.min_to),
      max: String(legal.max_to),
      step: "1",
      value: String(this.amount),
      "aria-label": label,
    });
    const box = h("input.amount-box", {
      type: "number",
      min: String(legal.min_to),
      max: String(legal.max_to),
      step: "1",
      inputMode: "numeric",
      value: String(this.amount),
      "aria-label": t("act.amount"),
    });
    this.amountBox = box;
    const set = (value, source) => {
      const n = Number.parseInt(value, 10);
      if (Number.isNaN(n)) return;
      this.amount = clamp(n, legal.min_to, legal.max_to);
      if (source !== range) range.value = String(this.amount);
      if (source !== box) box.value = String(this.amount);
      this.showHint("");
      if (this.amountButton) {
        const key = kind === "bet" ? "act.bet_amount" : "act.raise_amount";
        this.amountButton.textContent = t(key, { amount: fmt(this.amount) });
        this.amountButton.disabled = false;
      }
    };
    range.addEventListener("input", () => set(range.value, range));
    // Typing: a number out of range is said, not silently changed; the button waits.
    box.addEventListener("input", () => {
      const n = Number.parseInt(box.value, 10);
      if (Number.isNaN(n)) return;
      if (n >= legal.min_to && n <= legal.max_to) {
        set(n, box);
        return;
      }
      const key = n < legal.min_to ? "act.min_is" : "act.max_is";
      this.showHint(t(key, { amount: fmt(n < legal.min_to ? legal.min_to : legal.max_to) }), true);
      if (this.amountButton) this.amountButton.disabled = true;
    });
    // Leaving the box (or Enter): an amount out of range becomes the nearest legal one, and
    // the hint says so.
    this.commitBox = () => {
      const n = Number.parseInt(box.value, 10);
      if (Number.isNaN(n)) {
        set(this.amount, null);
        return false;
      }
      if (n === this.amount) return false; // settled already: the hint stays as it is
      set(n, null);
      if (n === this.amount) return false;
      const key = n < legal.min_to ? "act.adjusted_min" : "act.adjusted_max";
      this.showHint(t(key, { amount: fmt(this.amount) }), true);
      return true;
    };
    box.addEventListener("change", () => this.commitBox());
    // Tab out of the box goes to the bet/raise button it sizes, not to "Desistir" (first in
    // the bar): the amount is settled first, so Enter there sends what the button says.
    box.addEventListener("keydown", (ev) => {
      if (ev.key !== "Tab" || ev.shiftKey || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const button = this.amountButton;
      if (!button) return;
      this.commitBox();
      if (button.disabled) return;
      ev.preventDefault();
      button.focus();
    });
    this.setAmount = (value) => set(value, null);
    const keys = hotkeysOn() ? presetKeys() : {};
    const preset = (key, value) =>
      h(
        "button.preset",
        {
          type: "button",
          dataset: { preset: key },
          "aria-keyshortcuts": keys[key] ?? undefined,
          title: keys[key] ? `${t(`act.preset.${key}`)} (${keys[key]})` : undefined,
          onclick: () => set(value, null),
        },
        t(`act.preset.${key}`),
      );
    return h(
      "div.sizer",
      h(
        "div.presets",
        preset("min", legal.min_to),
        preset("half", presetAmount(this.view, legal, "half")),
        preset("two_thirds", presetAmount(this.view, legal, "two_thirds")),
        preset("pot", presetAmount(this.view, legal, "pot")),
        preset("allin", presetAmount(this.view, legal, "allin")),
      ),
      h("div.amount-row", range, box),
    );
  }

  showHint(text, warn = false) {
    if (!this.hint) return;
    this.hint.textContent = text;
    this.hint.classList.toggle("warn", Boolean(text) && warn);
    this.amountBox?.setAttribute("aria-invalid", text && warn ? "true" : "false");
  }

  renderDraw(legal) {
    const n = this.selected.size;
    this.root.append(
      h("div.sizer.draw-hint-row", h("p.draw-hint", t("act.pick_discards", { n: legal.max_discards ?? 3 }))),
      h(
        "div.act-buttons.draw",
        h("span.act-slot", { "aria-hidden": "true" }),
        n > 0
          ? this.button("discard", t("act.discard", { n }), { primary: true })
          : this.button("discard", t("act.stand_pat"), { primary: true }),
      ),
      h("div.act-foot", this.timerSlot),
    );
  }

  button(action, label, { primary = false } = {}) {
    const btn = h(
      "button.act-btn",
      { type: "button", dataset: { action }, onclick: () => this.choose(action) },
      label,
    );
    if (primary) btn.classList.add("primary");
    return btn;
  }

  choose(action) {
    const legal = this.legal;
    if (!legal || this.pending) return;
    let payload;
    switch (action) {
      case "fold":
      case "check":
      case "call":
        payload = { kind: action };
        break;
      case "bet":
      case "raise":
        payload = { kind: action, amount: this.amount };
        break;
      case "allin":
        payload = { kind: String(legal.bet_kind).toLowerCase(), amount: legal.max_to };
        break;
      case "discard":
        payload = { kind: "discard", cards: [...this.selected] };
        break;
      default:
        return;
    }
    this.pending = true;
    this.root.classList.add("pending");
    for (const b of this.root.querySelectorAll("button, input")) b.disabled = true;
    const chosen = this.root.querySelector(`[data-action="${action}"]`);
    chosen?.classList.add("chosen");
    chosen?.setAttribute("aria-busy", "true");
    this.send(payload, action);
  }

  /** The server refused the action: give the choice back. */
  refused() {
    this.pending = false;
    this.render();
  }

  onKey(ev) {
    if (!this.isOpen() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    const inAmount = target === this.amountBox;
    const typing = !inAmount && target instanceof HTMLElement &&
      (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
    if (typing || document.querySelector("dialog[open]")) return;
    const key = ev.key.toLowerCase();
    const has = (a) => this.root.querySelector(`[data-action="${a}"]`);
    if (key === "enter") {
      if (this.legal.is_draw_phase) this.choose("discard");
      else if (inAmount && this.amountButton) {
        // An amount out of range is corrected first and shown: Enter again sends it.
        if (!this.commitBox()) this.choose(this.amountButton.dataset.action);
      } else if (inAmount) {
        // No sized action to send: Enter in the box does nothing (never a fold).
      } else return;
    } else if (key === "escape") {
      if (inAmount) this.amountBox.blur();
      this.selected.clear();
      this.onDiscardChange?.(this.selected, Boolean(this.legal.is_draw_phase));
      this.amount = this.legal.min_to;
      this.render();
    } else if (inAmount || !hotkeysOn()) {
      return;
    } else if (presetForKey(key) && this.amountBox) {
      this.setAmount(presetAmount(this.view, this.legal, presetForKey(key)));
    } else if (key === "f" && has("fold")) {
      this.choose("fold");
    } else if (key === "c" && (has("check") || has("call"))) {
      this.choose(has("check") ? "check" : "call");
    } else if (key === "r" && this.amountBox) {
      this.amountBox.focus();
      this.amountBox.select();
    } else if (key === "r" && this.amountButton) {
      // A limit game's one size: nothing to choose, R bets or raises it.
      this.choose(this.amountButton.dataset.action);
    } else {
      return;
    }
    ev.preventDefault();
  }
}
