// Player-facing names the pages share: an Ahiko room's name in the chosen language, and the
// file names of a finished hand's downloads.

import { t } from "../i18n.js";

const TIER_KEYS = ["iniciante", "classica", "alta"];
// The server's Portuguese tier names (rooms/tiers.py), for names sent without a tier.
const TIER_BY_NAME = { iniciante: "iniciante", classica: "classica", alta: "alta" };
// Ahiko room ids: "<tier>-<run>-<number>" (rooms/ahiko_lobby.py).
const AHIKO_ID = /^(iniciante|classica|alta)-[0-9a-z]+-(\d+)$/i;

function plain(text) {
  return String(text ?? "")
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z]/g, "");
}

/** "Iniciante 1" -> "Beginner 1" in English; other names as they are. `room` may carry
 * {name, tier, kind, id}; the tier is also read from an Ahiko room id. */
export function roomName(room) {
  const name = room?.name ?? room?.room_name ?? "";
  const id = String(room?.id ?? room?.room_id ?? "");
  const byId = id.match(AHIKO_ID);
  const ahiko = room?.kind === "ahiko" || room?.room_kind === "ahiko" || Boolean(byId);
  if (!ahiko) return name || "";
  let tier = room?.tier ? plain(room.tier) : byId ? byId[1].toLowerCase() : null;
  let number = byId ? byId[2] : null;
  const named = String(name).match(/^(.+?)\s+(\d+)$/);
  if (named) {
    tier = tier ?? TIER_BY_NAME[plain(named[1])] ?? null;
    number = named[2];
  }
  if (!tier || !TIER_KEYS.includes(tier) || !number) return name || "";
  return t(`room.tier.${tier}`, { n: number });
}

const UNSAFE_IN_FILENAME = /[^A-Za-z0-9_-]+/g;
const EXTENSIONS = { pokerstars: ".txt", phh: ".phh", proof: "-proof.json" };

/** The file name of a hand's download, as the server names it (rooms/hand_downloads.py):
 * `ahiko-<room>-hand<N>.txt`, `.phh`, or `-proof.json`, as the table names its proof. */
export function handFilename(roomId, handNo, format) {
  const room = String(roomId ?? "").replace(UNSAFE_IN_FILENAME, "_") || "room";
  return `ahiko-${room}-hand${handNo ?? 0}${EXTENSIONS[format] ?? `.${format}`}`;
}
