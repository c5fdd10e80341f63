// "Minhas mãos": finished hands with their downloads (PokerStars text, PHH, proof) and a
// step-by-step replayer.

import { api } from "../api.js";
import { clear, h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";
import { replayViews } from "../replay.js";
import { TableRenderer } from "../table/render.js";
import { TableState } from "../tablestate.js";

const FORMATS = [
  ["pokerstars", "hands.pokerstars"],
  ["phh", "hands.phh"],
  ["proof", "hands.proof"],
];

function pick(obj, ...names) {
  for (const n of names) if (obj?.[n] !== undefined && obj[n] !== null) return obj[n];
  return undefined;
}

function replayer(detail) {
  const events = pick(detail, "events", "history") ?? [];
  const viewer = pick(detail, "viewer", "seat", "my_seat") ?? null;
  const views = pick(detail, "views") ?? replayViews(events, viewer);
  const state = new TableState();
  const players = {};
  for (const p of pick(detail, "players") ?? []) {
    players[p.seat] = { seat: p.seat, name: p.name ?? p.username ?? "", bot: Boolean(p.bot), level: p.level ?? null, connected: true };
  }
  state.room = {
    name: pick(detail, "room_name") ?? "",
    seatCount: pick(detail, "seat_count") ?? null,
    players,
    mySeat: viewer,
    status: "replay",
  };
  const wrap = h("div.felt-wrap");
  const renderer = new TableRenderer(wrap, {});
  const stepText = h("span.replay-step", { role: "status" });
  let i = 0;
  const show = (n) => {
    i = Math.max(0, Math.min(views.length - 1, n));
    state.view = views[i];
    renderer.render(state);
    stepText.textContent = t("replay.step", { i: i + 1, n: views.length });
  };
  const btn = (key, fn) => h("button", { type: "button", dataset: { replay: key }, onclick: fn }, t(`replay.${key}`));
  const section = h(
    "section.replayer",
    { "aria-label": t("replay.title", { n: pick(detail, "hand_no") ?? "" }) },
    h("h2", t("replay.title", { n: pick(detail, "hand_no") ?? "" })),
    wrap,
    h(
      "div.replay-controls",
      btn("first", () => show(0)),
      btn("prev", () => show(i - 1)),
      btn("next", () => show(i + 1)),
      btn("last", () => show(views.length - 1)),
      stepText,
    ),
  );
  requestAnimationFrame(() => show(0));
  return section;
}

const PER_PAGE = 20;

export function handsPage(main, handId) {
  const body = h("tbody");
  const status = h("p.hint", { role: "status" });
  const replay = h("div.replay-slot");
  const pageText = h("span.pager-page");
  const newer = h("button", { type: "button", dataset: { pager: "newer" }, onclick: () => load(current - 1) }, t("hands.newer"));
  const older = h("button", { type: "button", dataset: { pager: "older" }, onclick: () => load(current + 1) }, t("hands.older"));
  const pager = h("nav.pager", { hidden: true, "aria-label": t("hands.title") }, newer, pageText, older);
  let current = 1;

  async function openReplay(id) {
    clear(replay);
    try {
      replay.append(replayer(await api.hand(id)));
    } catch (err) {
      replay.append(h("p.error", err.message));
    }
  }

  function row(hand) {
    const id = hand.id;
    const net = hand.net ?? 0;
    const at = pick(hand, "ended_at", "started_at");
    return h(
      "tr",
      { dataset: { hand: String(id) } },
      h("td", `#${hand.hand_no ?? id}`),
      h("td", hand.room_name ?? ""),
      h("td.hide-phone", at ? new Date(at).toLocaleString(lang()) : ""),
      h(`td.num.${net < 0 ? "amount-neg" : "amount-pos"}`, `${net > 0 ? "+" : ""}${fmt(net)}`),
      h(
        "td",
        FORMATS.map(([format, key]) =>
          h("a", { href: api.handDownloadUrl(id, format), download: "", dataset: { format } }, t(key)),
        ).flatMap((a, k) => (k ? [" · ", a] : [a])),
      ),
      h("td", h("button", { type: "button", dataset: { replay: "open" }, onclick: () => { location.hash = `#/hands/${encodeURIComponent(id)}`; } }, t("hands.replay"))),
    );
  }

  // GET /api/hands answers {page, per_page, total, pages, hands}, newest first.
  async function load(page) {
    try {
      const data = await api.myHands(page, PER_PAGE);
      const hands = data?.hands ?? [];
      current = data?.page ?? page;
      const pages = data?.pages ?? 1;
      clear(body);
      body.append(...hands.map(row));
      status.textContent = hands.length ? "" : t("hands.empty");
      pager.hidden = pages <= 1;
      newer.disabled = current <= 1;
      older.disabled = current >= pages;
      pageText.textContent = t("hands.page", { page: current, pages });
    } catch (err) {
      status.textContent = t("error.generic", { message: err.message });
    }
  }

  main.append(
    h("h1", t("hands.title")),
    h(
      "table.list.hands",
      h(
        "thead",
        h(
          "tr",
          h("th", t("hands.col.hand")),
          h("th", t("hands.col.room")),
          h("th.hide-phone", t("hands.col.date")),
          h("th.num", t("hands.col.result")),
          h("th", t("hands.col.downloads")),
          h("th", h("span.visually-hidden", t("hands.replay"))),
        ),
      ),
      body,
    ),
    status,
    pager,
    replay,
  );
  load(1);
  if (handId) openReplay(handId);
  return {};
}
