// Getting a player's attention when the table needs them: a short sound (optional; off by
// default on phones, the choice remembered by this browser) and the tab's title ("● Sua vez")
// when it is their turn or their clock runs low.

import { t } from "../i18n.js";
import { notifyTurn, playNotes, soundSettings, SoundCues } from "./sound.js";

const SOUND_KEY = "ahiko.sound";
const LOW_MS = 5000; // the clock counts as low from here (the title and a second beep)

function isPhone() {
  return window.matchMedia?.("(max-width: 700px), (pointer: coarse)").matches ?? false;
}

/** Is the sound on in this browser? Remembered once chosen; else on for desktops only. */
export function soundOn() {
  const saved = localStorage.getItem(SOUND_KEY);
  if (saved === "on" || saved === "off") return saved === "on";
  return !isPhone();
}

export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

export class Attention {
  constructor() {
    this.baseTitle = document.title;
    this.low = false;
    this.turnKey = null;
    this.played = []; // what was played, for tests: ["turn", "low"]
    window.__ahikoSounds = this.played;
    window.__ahikoNotices = [];
    this.cues = new SoundCues();
  }

  beep(kind) {
    if (!soundOn() || !soundSettings().kinds[kind]) return;
    this.played.push(kind);
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.ctx ??= new Ctx();
      playNotes(this.ctx, kind);
    } catch {
      // no audio here: the title still tells
    }
  }

  yourTurn(roomName = "") {
    this.low = false;
    this.beep("turn");
    notifyTurn(roomName);
  }

  /** The table's events as sounds: cards, chips, checks, folds, a pot won. */
  follow(state) {
    for (const kind of this.cues.follow(state)) this.beep(kind);
  }

  /** Called four times a second: the title follows my turn and my clock. */
  tick(state) {
    const me = state.mySeat();
    const view = state.view;
    const mine = me !== null && view && view.to_act === me && view.legal && view.street !== "over";
    const d = state.deadline;
    const left = mine && d && d.seat === me && d.endsAt ? d.endsAt - Date.now() : null;
    const low = left !== null && left <= LOW_MS && left > 0;
    if (low && !this.low) this.beep("low");
    this.low = low;
    let title = this.baseTitle;
    if (low) title = `${t("attention.low", { s: Math.ceil(left / 1000) })} — ${this.baseTitle}`;
    else if (mine) title = `${t("attention.turn")} — ${this.baseTitle}`;
    if (document.title !== title) document.title = title;
  }

  destroy() {
    document.title = this.baseTitle;
    this.ctx?.close?.();
  }
}
