// "Minhas mãos": finished hands with their downloads (PokerStars text, PHH, proof) and a
// step-by-step replayer that says in words what each step did.

import { api } from "../api.js";
import { cardLabel, cardSvg } from "../cards.js";
import { clear, h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";
import { gameTitle, rememberGame } from "../games.js";
import { replaySteps } from "../replay.js";
import { eventText, potResultText, showdownHands } from "../table/describe.js";
import { TableRenderer } from "../table/render.js";
import { TableState } from "../tablestate.js";
import { handFilename, roomName } from "./names.js";

// [format, full label, short label for phones]
const FORMATS = [
  ["pokerstars", "hands.pokerstars", "hands.pokerstars_short"],
  ["phh", "hands.phh", "hands.phh"],
  ["proof", "hands.proof", "hands.proof_short"],
];

function pick(obj, ...names) {
  for (const n of names) if (obj?.[n] !== undefined && obj[n] !== null) return obj[n];
  return undefined;
}

function when(value) {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : d.toLocaleString(lang());
}

function handRoomName(hand) {
  return (
    roomName({ name: pick(hand, "room_name") ?? "", id: pick(hand, "room_id"), room_kind: pick(hand, "room_kind") }) ||
    t("hands.room_unknown")
  );
}

/** What one replay step did, in words ("Ana: Aumentou para 40"); `mine`: the viewer's
 *  cards are the reader's own ("Suas cartas"), not a sharer's shown to anyone. */
export function stepText(step, nameOf, viewer, handNo = null, mine = true) {
  const e = step?.event;
  if (!e) return "";
  try {
    if (e.kind === "hole_dealt") {
      const cards = e.cards?.length && e.seat === viewer ? e.cards.map(cardLabel).join(", ") : null;
      if (cards) return mine ? t("replay.dealt_you", { cards }) : t("replay.dealt_shown", { name: nameOf(e.seat), cards });
      return t("replay.dealt", { name: nameOf(e.seat) });
    }
    if (e.kind === "cards_shown" && !e.cards?.length) return t("replay.shown_hidden", { name: nameOf(e.seat) });
    if (e.kind === "pot_awarded") return potResultText(e, nameOf, showdownHands(step.view));
    return eventText(e, nameOf, handNo) ?? "";
  } catch {
    return "";
  }
}

/** `mine`: false on a shared link, where the viewer's seat is the sharer's, never "(Você)". */
export function replayer(detail, onClose, startAt = 0, { mine = true } = {}) {
  const events = pick(detail, "events", "history") ?? [];
  const viewer = pick(detail, "viewer", "seat", "my_seat") ?? null;
  const given = pick(detail, "views");
  rememberGame(pick(detail, "game")); // the replayer asks the hand's own game (four cards in Omaha)
  const steps = given ? given.map((view) => ({ view, event: null })) : replaySteps(events, viewer);
  const state = new TableState();
  const players = {};
  for (const p of pick(detail, "players") ?? []) {
    players[p.seat] = { seat: p.seat, name: p.name ?? p.username ?? "", bot: Boolean(p.bot), level: p.level ?? null, connected: true };
  }
  const handNo = pick(detail, "hand_no") ?? "";
  const room = handRoomName(detail);
  state.room = {
    name: room,
    seatCount: pick(detail, "seat_count") ?? null,
    players,
    mySeat: mine ? viewer : null,
    status: "replay",
  };
  const names = pick(detail, "names") ?? {};
  const nameOf = (seat) =>
    players[seat]?.name || names[seat] || names[String(seat)] || t("table.seat_n", { n: Number(seat) + 1 });
  const wrap = h("div.felt-wrap");
  const renderer = new TableRenderer(wrap, {});
  const counter = h("span.replay-step");
  const said = h("p.replay-event", { role: "status", "aria-live": "polite" });
  const buttons = {};
  let i = 0;
  const show = (n) => {
    if (!steps.length) return;
    i = Math.max(0, Math.min(steps.length - 1, n));
    state.view = steps[i].view;
    renderer.render(state);
    counter.textContent = t("replay.step", { i: i + 1, n: steps.length });
    said.textContent = stepText(steps[i], nameOf, viewer, handNo === "" ? null : handNo, mine);
    buttons.first.disabled = buttons.prev.disabled = i === 0;
    buttons.next.disabled = buttons.last.disabled = i === steps.length - 1;
  };
  const btn = (key, fn) => {
    buttons[key] = h("button", { type: "button", dataset: { replay: key }, onclick: fn }, t(`replay.${key}`));
    return buttons[key];
  };
  const heading = t("replay.heading", { room, n: handNo });
  const variant = pick(detail, "variant");
  const meta = [variant ? gameTitle(variant, lang()) : null, when(pick(detail, "ended_at", "started_at"))].filter(Boolean);
  const title = h("h2", { tabIndex: -1 }, heading);
  const section = h(
    "section.replayer",
    { "aria-label": heading, dataset: { hand: String(pick(detail, "id") ?? "") } },
    h(
      "div.replay-head",
      h("div", title, h("p.replay-when", meta.join(" · "))),
      h("button.replay-close", { type: "button", dataset: { replay: "close" }, onclick: onClose }, t("replay.close")),
    ),
    wrap,
    said,
    h(
      "div.replay-controls",
      btn("first", () => show(0)),
      btn("prev", () => show(i - 1)),
      btn("next", () => show(i + 1)),
      btn("last", () => show(steps.length - 1)),
      counter,
    ),
  );
  // Arrow keys step through the hand while the replayer has the focus.
  section.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement) return;
    if (ev.key === "ArrowRight") show(i + 1);
    else if (ev.key === "ArrowLeft") show(i - 1);
    else return;
    ev.preventDefault();
  });
  requestAnimationFrame(() => show(startAt));
  section.step = () => i;
  section.focusTitle = () => title.focus({ preventScroll: true });
  return section;
}

/** My cards, then the board (if any), small: what the hand was at a glance. */
function handCards(hand) {
  const mine = hand.cards ?? [];
  const board = hand.board ?? [];
  const group = (cards, key) =>
    h(
      `span.glance-${key}`,
      { "aria-label": t(`hands.${key}`, { cards: cards.map(cardLabel).join(", ") }), dataset: { [key]: cards.join(" ") } },
      cards.map((c) => cardSvg(c, "mini")),
    );
  if (!mine.length && !board.length) return null; // an older server's list: no cards to show
  return h("span.glance", mine.length ? group(mine, "mine") : null, board.length ? group(board, "board") : null);
}

const PER_PAGE = 20;

/** `ctx.carried`: what `carry()` kept of the page this one replaces (a language switch
 *  rebuilds the page): the list's page, and the hand in the replayer with its step. */
export function handsPage(main, handId, ctx = {}) {
  const carried = ctx?.carried?.page === "hands" ? ctx.carried : null;
  const body = h("tbody", { role: "rowgroup" });
  const status = h("p.hint", { role: "status" });
  const replay = h("div.replay-slot");
  const pageText = h("span.pager-page");
  const newer = h("button", { type: "button", dataset: { pager: "newer" }, onclick: () => load(current - 1) }, t("hands.newer"));
  const older = h("button", { type: "button", dataset: { pager: "older" }, onclick: () => load(current + 1) }, t("hands.older"));
  const pager = h("nav.pager", { hidden: true, "aria-label": t("hands.title") }, newer, pageText, older);
  let current = 1;
  let opened = null; // the hand id in the replayer
  let asked = 0; // the last replay asked for: a slower earlier answer is dropped
  let shown = null; // the replayer's section
  let startAt = carried && String(carried.hand) === String(handId) ? carried.step ?? 0 : 0;

  function markOpen() {
    for (const tr of body.querySelectorAll("tr[data-hand]")) {
      tr.classList.toggle("replaying", tr.dataset.hand === String(opened));
    }
  }

  function closeReplay() {
    if (location.hash.startsWith("#/hands/")) location.hash = "#/hands";
    else showReplay(null);
  }

  async function showReplay(id, listed) {
    const ask = ++asked;
    opened = id;
    markOpen();
    if (id === null || id === undefined) {
      clear(replay);
      shown = null;
      return;
    }
    const from = startAt;
    startAt = 0; // only the first replayer after a language switch resumes its step
    let section;
    try {
      section = replayer(await api.hand(id), closeReplay, from);
    } catch (err) {
      section = h("p.error", t("error.generic", { message: err.message }));
    }
    if (ask !== asked) return;
    clear(replay);
    replay.append(section, rabbitBox(id));
    shown = section;
    // The list above may still be filling in: scroll once it has its height.
    await listed;
    if (ask !== asked) return;
    requestAnimationFrame(() => {
      replay.scrollIntoView({ block: "start" });
      section.focusTitle?.();
    });
  }

  function downloads(hand) {
    const id = hand.id;
    const links = FORMATS.map(([format, key, short]) =>
      h(
        "a.download",
        {
          href: api.handDownloadUrl(id, format),
          download: handFilename(hand.room_id, hand.hand_no ?? id, format),
          dataset: { format },
          title: t(key),
          "aria-label": t(key),
        },
        h("span.label-long", t(key)),
        h("span.label-short", { "aria-hidden": "true" }, t(short)),
      ),
    );
    return h("span.downloads", links.flatMap((a, k) => (k ? [h("span.sep", { "aria-hidden": "true" }, "·"), a] : [a])));
  }

  function row(hand) {
    const id = hand.id;
    const net = hand.net ?? 0;
    const at = pick(hand, "ended_at", "started_at");
    // Explicit roles: phones lay the rows out as two-line cards (app.css), which would
    // otherwise cost the table its semantics in some browsers.
    return h(
      "tr",
      { role: "row", dataset: { hand: String(id) } },
      // The archive id is the hand's reference everywhere (unique across rooms, and the
      // number its PokerStars text carries); the room's own hand number goes with the room.
      h("td.hand-no", { role: "cell", title: t("hands.ref_hint") }, `#${id}`),
      h(
        "td.hand-room",
        { role: "cell" },
        h("span.hand-room-name", handRoomName(hand)),
        hand.hand_no !== undefined ? h("span.hand-in-room", t("hands.in_room", { n: hand.hand_no })) : null,
      ),
      h("td.hand-cards", { role: "cell" }, handCards(hand)),
      h("td.hand-date.hide-phone", { role: "cell" }, when(at)),
      h(`td.num.hand-net.${net < 0 ? "amount-neg" : "amount-pos"}`, { role: "cell" }, `${net > 0 ? "+" : ""}${fmt(net)}`),
      h("td.downloads-cell", { role: "cell" }, downloads(hand)),
      h(
        "td.replay-cell",
        { role: "cell" },
        h(
          "button",
          {
            type: "button",
            dataset: { replay: "open" },
            onclick: () => {
              location.hash = `#/hands/${encodeURIComponent(id)}`;
            },
          },
          t("hands.replay"),
        ),
        h("button", { type: "button", dataset: { share: "open" }, onclick: (ev) => sharePanel(ev.target, id) }, t("share.open")),
      ),
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
      markOpen();
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
      { role: "table", "aria-label": t("hands.title") },
      h(
        "thead",
        { role: "rowgroup" },
        h(
          "tr",
          { role: "row" },
          h("th", { role: "columnheader" }, t("hands.col.hand")),
          h("th", { role: "columnheader" }, t("hands.col.room")),
          h("th", { role: "columnheader" }, t("hands.col.cards")),
          h("th.hide-phone", { role: "columnheader" }, t("hands.col.date")),
          h("th.num", { role: "columnheader" }, t("hands.col.result")),
          h("th", { role: "columnheader" }, t("hands.col.downloads")),
          h("th", { role: "columnheader" }, h("span.visually-hidden", t("hands.replay"))),
        ),
      ),
      body,
    ),
    status,
    pager,
    replay,
  );
  const listed = load(carried?.list ?? 1);
  if (handId) showReplay(handId, listed);
  // The router calls this when only the hand in the address changes (#/hands <-> #/hands/42),
  // so the list keeps its page and the replayer opens without reloading everything.
  return {
    page: "hands",
    open: (id) => showReplay(id ?? null, Promise.resolve()),
    carry: () => ({ page: "hands", list: current, hand: opened, step: shown?.step?.() ?? 0 }),
  };
}

/** A public link to one of my hands; my own cards and the rabbit only if I say so. */
function sharePanel(button, id) {
  const cell = button.closest("td") ?? button.parentElement;
  cell.querySelector(".share-panel")?.remove();
  const own = h("input", { type: "checkbox", dataset: { share: "own" } });
  const rabbit = h("input", { type: "checkbox", dataset: { share: "rabbit" } });
  const out = h("input.share-link", { readOnly: true, dataset: { share: "link" }, "aria-label": t("share.link") });
  const said = h("span.hint", { role: "status" });
  const panel = h(
    "div.share-panel",
    h("label", own, t("share.own")),
    h("label", rabbit, t("share.rabbit")),
    h(
      "button",
      {
        type: "button",
        dataset: { share: "create" },
        onclick: async () => {
          try {
            const made = await api.shareHand(id, own.checked, rabbit.checked);
            out.value = `${location.origin}${location.pathname}${made.url.replace(/^\//, "")}`;
            said.textContent = t("share.ready");
            out.select();
          } catch (err) {
            said.textContent = t("error.generic", { message: err.message });
          }
        },
      },
      t("share.create"),
    ),
    out,
    said,
  );
  cell.append(panel);
}

/** The rabbit hunt of a hand I played that ended before the river. */
function rabbitBox(id) {
  const said = h("p.rabbit-cards", { role: "status" });
  return h(
    "div.rabbit",
    h(
      "button",
      {
        type: "button",
        dataset: { rabbit: "hunt" },
        onclick: async () => {
          try {
            const found = await api.rabbit(id);
            said.dataset.cards = found.rabbit.join(" ");
            said.textContent = t("share.rabbit_cards", { cards: found.rabbit.map(cardLabel).join(", ") });
          } catch (err) {
            said.textContent = err.code === "no_rabbit" ? t("share.no_rabbit") : t("error.generic", { message: err.message });
          }
        },
      },
      t("share.rabbit_hunt"),
    ),
    said,
  );
}
