// The table's sounds, made on the spot with WebAudio (no files to load): cards dealt, chips,
// a check, a fold, your turn, time running out and a pot won. Each has its own switch, and
// one volume serves them all; the ♪ button still turns every sound on or off (off until the
// player turns it on on a phone). "Your turn" can also come as a browser notification while
// the tab is hidden, once the player asked for it.

import { t } from "../i18n.js";

const STORE = "ahiko.sounds";
export const SOUND_KINDS = ["deal", "chips", "check", "fold", "turn", "low", "won"];

// Notes per kind: [frequency Hz, start s, length s, wave]. Short and quiet on purpose.
const NOTES = {
  deal: [[1400, 0, 0.04, "triangle"]],
  chips: [[1500, 0, 0.05, "square"], [1900, 0.06, 0.05, "square"]],
  check: [[320, 0, 0.06, "sine"], [320, 0.1, 0.06, "sine"]],
  fold: [[420, 0, 0.09, "sine"], [260, 0.08, 0.12, "sine"]],
  turn: [[880, 0, 0.18, "sine"]],
  low: [[660, 0, 0.12, "sine"], [660, 0.18, 0.12, "sine"]],
  won: [[523, 0, 0.12, "triangle"], [659, 0.1, 0.12, "triangle"], [784, 0.2, 0.2, "triangle"]],
};

export function soundSettings() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE) ?? "null");
  } catch {
    // unreadable: the defaults
  }
  const kinds = Object.fromEntries(SOUND_KINDS.map((k) => [k, saved?.kinds?.[k] !== false]));
  const volume = Number.isFinite(saved?.volume) ? Math.max(0, Math.min(1, saved.volume)) : 0.6;
  return { kinds, volume, notify: saved?.notify === true };
}

export function saveSoundSettings(next) {
  try {
    localStorage.setItem(STORE, JSON.stringify({ ...soundSettings(), ...next }));
  } catch {
    // not remembered: this page only
  }
}

/** Play one kind's notes at the chosen volume (`ctx`: an AudioContext kept by the caller). */
export function playNotes(ctx, kind) {
  const volume = soundSettings().volume * 0.12;
  for (const [freq, at, length, wave] of NOTES[kind] ?? []) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    const start = ctx.currentTime + at;
    gain.gain.setValueAtTime(Math.max(volume, 0.0001), start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }
}

/** The sound kinds of the public events new since the last call, and whether I won a pot. */
export class SoundCues {
  constructor() {
    this.handNo = null;
    this.seen = 0;
    this.primed = false;
  }

  follow(state) {
    const history = state.view?.history ?? [];
    if (!this.primed) {
      // What happened before this page came is not played back.
      if (!state.view) return [];
      this.primed = true;
      this.handNo = state.handNo;
      this.seen = history.length;
    }
    if (state.handNo !== this.handNo || history.length < this.seen) {
      this.handNo = state.handNo;
      this.seen = 0;
    }
    const me = state.mySeat();
    const kinds = [];
    for (const e of history.slice(this.seen)) {
      if (e.kind === "hand_started" || e.kind === "street" || e.kind === "discarded") kinds.push("deal");
      else if (e.kind === "blind_posted" || e.kind === "ante_posted") kinds.push("chips");
      else if (e.kind === "action") {
        const what = String(e.action ?? "");
        kinds.push(what === "check" ? "check" : what === "fold" ? "fold" : "chips");
      } else if (e.kind === "pot_awarded" && (e.winners ?? []).includes(me)) kinds.push("won");
    }
    this.seen = history.length;
    return [...new Set(kinds)]; // a batch of events makes each sound once
  }
}

/** "Sua vez" as a notification, when the tab is hidden and the player asked for it. */
export function notifyTurn(roomName) {
  if (document.visibilityState !== "hidden" || !soundSettings().notify) return false;
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return false;
  const note = new Notification(t("attention.turn"), { body: roomName ?? "", tag: "ahiko-turn" });
  window.__ahikoNotices?.push(note.title);
  return true;
}
