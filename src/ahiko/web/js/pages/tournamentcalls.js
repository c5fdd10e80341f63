// The tournament lobby's calls (sit & go's and MTTs) and their status line. On a
// cluster these routes run on the leader; a node that cannot reach it answers 503 naming why
// (docs/protocol.md): `leader_changed` / `leader_starting` (the lead is moving) are tried again
// once by themselves after a moment, `no_leader` / `leader_unreachable` offer "Tentar de novo".
// A retry runs the same job, so a registration sends the same idempotency key: it counts once.

import { errorText } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The cluster's answers when no node can speak for the leader right now. */
export const LEADER_BUSY = new Set(["no_leader", "leader_unreachable", "leader_changed", "leader_starting"]);
/** The lead is moving: worth one automatic retry. */
const RETRY_SOON = new Set(["leader_changed", "leader_starting"]);
export const RETRY_DELAY_MS = 1500;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `run(job, explain)` for a tournament section: one call at a time, its outcome in `note`
 *  (`job` may answer a line to show once done; `explain` words a refusal), then `reload()`. */
export function tournamentCalls(note, reload) {
  let busy = false;

  function say(text, code = null, ...extra) {
    note.replaceChildren(text, ...extra);
    if (code) note.dataset.error = code;
    else delete note.dataset.error;
    delete note.dataset.loadError;
  }

  async function attempt(job, explain, retried) {
    try {
      say((await job()) ?? "");
    } catch (err) {
      const code = err?.code ?? "";
      if (RETRY_SOON.has(code) && !retried) {
        say(t("tournament.retrying"), code);
        note.dataset.retry = "auto";
        await pause(RETRY_DELAY_MS);
        delete note.dataset.retry;
        if (!note.isConnected) return; // the player left the lobby: nothing to redo
        return attempt(job, explain, true);
      }
      if (!LEADER_BUSY.has(code)) {
        say(explain(err), code);
        return;
      }
      const again = h(
        "button.retry-call",
        { type: "button", dataset: { retry: "manual" }, onclick: () => run(job, explain) },
        t("tournament.retry"),
      );
      say(`${errorText(err)} `, code, again);
    }
  }

  async function run(job, explain = errorText) {
    if (busy) return;
    busy = true;
    say(t("sitgo.sending"));
    try {
      await attempt(job, explain, false);
    } finally {
      busy = false;
    }
    await reload();
  }

  /** The listing failed (the polling tries again by itself): said in the note until a
   *  listing succeeds, unless a call's outcome is standing there. */
  function loadFailed(err) {
    if (busy || (note.dataset.error && !note.dataset.loadError)) return;
    say(errorText(err), err?.code ?? "");
    note.dataset.loadError = "1";
  }

  function loaded() {
    if (note.dataset.loadError) say("");
  }

  return { run, loadFailed, loaded };
}
