// A tournament table says where you stand: the level and its blinds, how far the next level
// is and what it brings, the players left at this table, their average stack and your place
// by chips (R-TN-03, R-TN-04); and what the event pays by place, from the room frame's
// ``tournament`` part (a sit & go's or an MTT's prizes), with a link to an MTT's own page.

import { h } from "../dom.js";
import { fmt, ordinal, t } from "../i18n.js";
import { countdown } from "./countdown.js";

const blindsText = (b) => (b ? t("table.blinds", { sb: fmt(b.small_blind), bb: fmt(b.big_blind) }) : "—");

/** The prizes by place ("1º 600 · 2º 360"), or what a tournament without coins pays. */
export function prizesLine(prizes) {
  if (!prizes?.length) return t("tinfo.no_prizes");
  return h(
    "ol.prize-list",
    prizes.map((coins, i) => h("li", { dataset: { place: String(i + 1) } }, h("span.prize-place", ordinal(i + 1)), ` ${fmt(coins)}`)),
  );
}

/** The panel for a running tournament room, or null. */
export function tournamentInfo(state) {
  const room = state.room;
  const levels = state.rawRoom?.levels;
  if (room?.kind !== "tournament" || !levels || room.status === "waiting" || state.tournamentOver()) return null;
  const alive = Object.values(room.players ?? {}).filter((p) => p.stack > 0 && !p.reserved);
  const total = alive.reduce((sum, p) => sum + p.stack, 0);
  const me = state.mySeat();
  const mine = me === null ? null : room.players?.[me];
  const place = mine && mine.stack > 0 ? 1 + alive.filter((p) => p.stack > mine.stack).length : null;
  let next = t("tinfo.no_next");
  if (levels.hands_to_next !== null && levels.hands_to_next !== undefined) {
    next = t("tinfo.next_in_hands", { n: levels.hands_to_next, blinds: blindsText(levels.next_blinds) });
  } else if (levels.seconds_to_next !== null && levels.seconds_to_next !== undefined) {
    next = h(
      "span",
      countdown("span.level-countdown", state.now() + levels.seconds_to_next * 1000, "tinfo.next_in_s", "tinfo.next_soon"),
      ` · ${t("tinfo.next_blinds", { blinds: blindsText(levels.next_blinds) })}`,
    );
  }
  const event = state.rawRoom?.tournament;
  const item = (key, value, name) => h("div.tinfo-item", { dataset: { tinfo: name } }, h("dt", t(key)), h("dd", value));
  return h(
    "section.tournament-info",
    { "aria-label": t("tinfo.title") },
    h(
      "dl",
      item("tinfo.level", t("tinfo.level_value", { n: levels.level, blinds: blindsText(room.stakes) }), "level"),
      item("tinfo.next", next, "next"),
      item("tinfo.players", fmt(alive.length), "players"),
      item("tinfo.average", alive.length ? fmt(Math.round(total / alive.length)) : "—", "average"),
      place ? item("tinfo.place", t("tinfo.place_value", { place, n: alive.length }), "place") : null,
      event ? item("tinfo.prizes", prizesLine(event.prizes), "prizes") : null,
    ),
    event?.mtt
      ? h("a.tinfo-mtt", { href: `#/mtt/${encodeURIComponent(event.mtt)}`, dataset: { tinfo: "mtt" } }, t("tinfo.mtt_page"))
      : null,
  );
}
