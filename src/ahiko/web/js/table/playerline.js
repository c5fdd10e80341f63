// An opponent's public numbers at the table (hands, VPIP/PFR), fetched once a
// minute at most and shown on hover or tap of their name.

import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

const TTL_MS = 60_000;
const lines = new Map(); // user id -> {at, text}
const open = new Set(); // user ids whose line is shown under their name

function text(line) {
  const pct = (v) => (v === null || v === undefined ? "—" : `${Math.round(v)}%`);
  return t("table.player_line", { hands: line.hands, vpip: pct(line.vpip), pfr: pct(line.pfr) });
}

async function lineOf(userId) {
  const known = lines.get(userId);
  if (known && Date.now() - known.at < TTL_MS) return known.text;
  const found = text(await api.playerLine(userId));
  lines.set(userId, { at: Date.now(), text: found });
  return found;
}

/** The line node for a seat's box when it is open (re-rendered seats keep it). */
export function playerLineNode(playerId) {
  const known = lines.get(playerId);
  return open.has(playerId) && known ? h("div.player-line", { dataset: { playerLine: playerId } }, known.text) : null;
}

/** Hover or tap on `nameNode` shows the line for people (ids are numbers; bots have none). */
export function attachPlayerLine(nameNode, playerId, box) {
  if (!playerId || !/^\d+$/.test(String(playerId))) return;
  const reveal = async () => {
    try {
      const found = await lineOf(String(playerId));
      open.add(String(playerId));
      nameNode.title = found;
      if (!box.querySelector(".player-line")) {
        box.append(h("div.player-line", { dataset: { playerLine: String(playerId) } }, found));
      }
    } catch {
      // no line: the name stays as it is
    }
  };
  nameNode.addEventListener("pointerenter", reveal);
  nameNode.addEventListener("click", reveal);
}
