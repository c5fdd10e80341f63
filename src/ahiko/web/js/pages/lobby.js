// The lobby: Ahiko rooms by tier, public recreational rooms, tournaments; filters; a link to
// the create-room form and a box to open a private room by its link.

import { api } from "../api.js";
import { clear, h } from "../dom.js";
import { allGames, gameTitle } from "../games.js";
import { houseText } from "../houseoptions.js";
import { fmt, lang, t } from "../i18n.js";
import { mttSection } from "./mttlobby.js";
import { roomName } from "./names.js";
import { tournamentCalls } from "./tournamentcalls.js";

const TABS = ["ahiko", "public", "tournament"];
const TIERS = { iniciante: [1, 2], classica: [5, 10], alta: [10, 20] };
const REFRESH_MS = 5000;

function pick(obj, ...names) {
  for (const n of names) if (obj?.[n] !== undefined && obj[n] !== null) return obj[n];
  return undefined;
}

/** A lobby row from whatever the rooms API calls its fields. */
export function roomSummary(raw) {
  const stakes = pick(raw, "stakes", "blinds") ?? {};
  const rawBuyIn = pick(raw, "buy_in") ?? {};
  const buyIn = { min: rawBuyIn.buy_in_min ?? rawBuyIn.min, max: rawBuyIn.buy_in_max ?? rawBuyIn.max };
  const kind = pick(raw, "kind", "type") ?? "recreational";
  return {
    id: pick(raw, "id", "room_id"),
    name: pick(raw, "name") ?? "",
    kind,
    tier: pick(raw, "tier") ?? null,
    variant: pick(raw, "variant", "game") ?? "holdem",
    stakes,
    buyIn,
    seatsTaken: pick(raw, "seats_taken", "players_count", "occupied") ?? (raw.players?.length ?? 0),
    people: pick(raw, "people") ?? null,
    botAhiko: Boolean(pick(raw, "bot_ahiko")),
    seatCount: pick(raw, "seat_count", "seats_total", "max_seats", "seats") ?? 0,
    status: pick(raw, "status", "state") ?? "waiting",
    handNo: pick(raw, "hand_no") ?? null,
    avgPot: pick(raw, "avg_pot", "average_pot") ?? null,
    visibility: pick(raw, "visibility") ?? "public",
    house: pick(raw, "hand_options") ?? null, // a home game's hand options (houseoptions.js)
  };
}

export function stakesLabel(stakes) {
  if (stakes.small_bet) return `${fmt(stakes.small_bet)}/${fmt(stakes.big_bet ?? stakes.small_bet * 2)}`;
  if (stakes.big_blind) return `${fmt(stakes.small_blind)}/${fmt(stakes.big_blind)}`;
  return "—";
}

function tierOf(room) {
  if (room.tier) return String(room.tier).toLowerCase().normalize("NFD").replace(/[^a-z]/g, "");
  for (const [tier, [sb, bb]] of Object.entries(TIERS)) {
    if (room.stakes.small_blind === sb && room.stakes.big_blind === bb) return tier;
  }
  return null;
}

function buyInLabel(room) {
  const b = room.buyIn;
  if (b && b.min !== undefined) return b.max && b.max !== b.min ? `${fmt(b.min)}–${fmt(b.max)}` : fmt(b.min);
  if (typeof b === "number") return fmt(b);
  return "—";
}

export function roomLink(id) {
  return `${location.origin}${location.pathname}#/room/${encodeURIComponent(id)}`;
}

export function lobbyPage(main, tab, ctx) {
  const active = TABS.includes(tab) ? tab : "ahiko";
  const filters = { game: "all", tier: "all" };
  const body = h("tbody");
  const status = h("p.hint", { role: "status" });
  let rooms = [];
  let timer = null;

  const tabs = h(
    "div.tabs",
    { role: "tablist" },
    TABS.map((name) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          "aria-selected": name === active ? "true" : "false",
          dataset: { tab: name },
          onclick: () => {
            location.hash = `#/lobby/${name}`;
          },
        },
        t(`lobby.tab.${name}`),
      ),
    ),
  );

  const gameSelect = h(
    "select",
    { "aria-label": t("lobby.filter.game"), onchange: (e) => { filters.game = e.target.value; draw(); } },
    h("option", { value: "all" }, t("lobby.game.all")),
    allGames().map((g) => h("option", { value: g.name }, gameTitle(g.name, lang()))),
  );
  const tierSelect = h(
    "select",
    { "aria-label": t("lobby.filter.tier"), onchange: (e) => { filters.tier = e.target.value; draw(); } },
    h("option", { value: "all" }, t("lobby.tier.all")),
    Object.keys(TIERS).map((k) => h("option", { value: k }, t(`lobby.tier.${k}`))),
  );
  const linkInput = h("input#join-link", { placeholder: "https://…#/room/…", "aria-label": t("lobby.join_link") });
  const joinForm = h(
    "form.join-form",
    h("label", { htmlFor: "join-link" }, t("lobby.private_link"), linkInput),
    h("button", { type: "submit" }, t("lobby.join_link")),
  );
  joinForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const value = linkInput.value.trim();
    const match = value.match(/#\/room\/([^?#\s]+)/) ?? value.match(/\/rooms?\/([^/?#\s]+)/);
    const id = match ? decodeURIComponent(match[1]) : value;
    if (id) location.hash = `#/room/${encodeURIComponent(id)}`;
  });

  const toolbar = h(
    "div.toolbar",
    h("label", t("lobby.filter.game"), gameSelect),
    active === "ahiko" ? h("label", t("lobby.filter.tier"), tierSelect) : null,
    h("span.spacer"),
    joinForm,
    h("a", { href: "#/create", role: "button", class: "button-link primary", dataset: { nav: "create" } }, t("lobby.create")),
  );

  const table = h(
    "table.list.rooms",
    h(
      "thead",
      h(
        "tr",
        h("th", t("lobby.col.name")),
        h("th.hide-phone", t("lobby.col.game")),
        h("th", t("lobby.col.blinds")),
        h("th.num.hide-phone", t("lobby.col.buyin")),
        h("th.num", t("lobby.col.seats")),
        h("th.hide-phone", t("lobby.col.status")),
        active === "ahiko"
          ? h("th.num.hide-phone", { title: t("lobby.col.avgpot_hint") }, t("lobby.col.avgpot"))
          : null,
        h("th", h("span.visually-hidden", t("lobby.open"))),
      ),
    ),
    body,
  );

  function visible() {
    return rooms.filter((r) => {
      const kindTab =
        r.kind === "ahiko" ? "ahiko" : r.kind === "tournament" ? "tournament" : "public";
      if (kindTab !== active) return false;
      if (active !== "ahiko" && r.visibility === "private") return false;
      if (filters.game !== "all" && r.variant !== filters.game) return false;
      if (active === "ahiko" && filters.tier !== "all" && tierOf(r) !== filters.tier) return false;
      return true;
    });
  }

  function draw() {
    clear(body);
    const list = visible();
    status.textContent = list.length ? "" : t("lobby.empty");
    for (const r of list) {
      const open = () => {
        location.hash = `#/room/${encodeURIComponent(r.id)}`;
      };
      const name = roomName(r) || String(r.id);
      const shown = shownStatus(r);
      body.append(
        h(
          "tr",
          { dataset: { room: String(r.id) } },
          h(
            "td",
            h("a", { href: `#/room/${encodeURIComponent(r.id)}` }, name),
            houseText(r.house) ? h("span.lobby-house", houseText(r.house)) : null,
            // Phones have no status column: a small pill under the name says it instead.
            h(`span.status-pill.status-${shown}.show-phone`, { "aria-hidden": "true" }, t(`status.${shown}`)),
          ),
          h("td.hide-phone", gameTitle(r.variant, lang())),
          h("td", stakesLabel(r.stakes)),
          h("td.num.hide-phone", buyInLabel(r)),
          h("td.num", `${r.seatsTaken}/${r.seatCount}`),
          h("td.hide-phone", h(`span.status-pill.status-${shown}`, { dataset: { status: shown } }, t(`status.${shown}`))),
          active === "ahiko"
            ? h("td.num.hide-phone", { dataset: { avgPot: "" } }, avgPotLabel(r.avgPot))
            : null,
          h("td", h("button", { type: "button", onclick: open, "aria-label": `${t("lobby.open")} ${name}` }, t("lobby.open"))),
        ),
      );
    }
  }

  async function load() {
    try {
      const data = active === "ahiko" ? await api.ahikoRooms() : await api.rooms();
      const list = Array.isArray(data) ? data : (data?.rooms ?? []);
      rooms = list.map(roomSummary);
      draw();
    } catch (err) {
      status.textContent = t("error.generic", { message: err.message });
    }
  }

  const sitgo = active === "tournament" ? sitgoSection(ctx) : null;
  const mtt = active === "tournament" ? mttSection(ctx) : null;
  // Tournaments: the site's sit & go's first; the filter and "create" belong to the hosts' list.
  const hosted = sitgo ? h("h2.hosted-title", t("lobby.hosted_tournaments")) : null;
  const online = h("span.online-count", { dataset: { online: "" } });
  async function loadOnline() {
    try {
      const { online: n } = await api.online();
      online.textContent = t("lobby.online", { n: fmt(n) });
    } catch {
      online.textContent = "";
    }
  }
  // Node.append writes a null as the text "null": only the sections this tab has.
  const sections = [sitgo?.element, mtt?.element, hosted].filter(Boolean);
  const visitor = ctx?.session?.user ? null : h("p.visitor-note", { dataset: { visitor: "true" } }, t("lobby.visitor"));
  main.append(...[h("h1", t("lobby.title"), online), visitor].filter(Boolean), tabs, ...sections, toolbar, table, status, leaderboards(ctx));
  load();
  loadOnline();
  sitgo?.load();
  mtt?.load();
  timer = setInterval(() => {
    load();
    loadOnline();
    sitgo?.load();
    mtt?.load();
  }, REFRESH_MS);
  return { destroy: () => clearInterval(timer) };
}

/** An open Ahiko room with nobody seated, or one person waiting for an opponent and no hand
 * dealt, is waiting for players, not "in play". */
export function shownStatus(room) {
  if (room.status !== "running") return room.status;
  const seated = Number(room.seatsTaken ?? 0);
  if (seated === 0) return "waiting";
  if (seated < 2 && (room.handNo === null || room.handNo === undefined)) return "waiting";
  return "running";
}

/** The mean pot of the room's last hands (C-AVGPOT); "—" before its first hand. */
export function avgPotLabel(avgPot) {
  return avgPot === null || avgPot === undefined || Number.isNaN(Number(avgPot))
    ? "—"
    : fmt(Math.round(Number(avgPot)));
}

/** Weekly and monthly leaderboards per room kind, with the player's own rank. */
export function leaderboards(ctx) {
  const chosen = { board: "ahiko", period: "week" };
  const body = h("tbody");
  const mine = h("p.my-rank", { role: "status" });
  const select = (key, values) =>
    h(
      "select",
      {
        "aria-label": t(`board.${key}`),
        dataset: { board: key },
        onchange: (e) => {
          chosen[key] = e.target.value;
          load();
        },
      },
      values.map((v) => h("option", { value: v }, t(`board.${key}.${v}`))),
    );
  // The Ahiko board counts net coins, the tournament board points: the column says which.
  const scoreHead = h("th.num", t(`board.score.${chosen.board}`));
  async function load() {
    scoreHead.textContent = t(`board.score.${chosen.board}`);
    try {
      const data = await api.leaderboard(chosen.board, chosen.period);
      body.replaceChildren(
        ...(data.rows ?? []).slice(0, 20).map((r) =>
          h(
            `tr${r.user_id === data.me?.user_id ? ".me" : ""}`,
            { dataset: { rank: String(r.rank), user: String(r.user_id) } },
            h("td.num", String(r.rank)),
            h("td", h("a", { href: `#/players/${encodeURIComponent(r.name)}` }, r.name)),
            h(`td.num.${r.score < 0 ? "amount-neg" : "amount-pos"}`, fmt(r.score)),
            h("td.num.hide-phone", fmt(r.played)),
          ),
        ),
      );
      mine.dataset.rank = data.me ? String(data.me.rank) : "";
      mine.textContent = data.me
        ? t("board.my_rank", { rank: data.me.rank, n: data.rows.length, score: fmt(data.me.score) })
        : t("board.not_ranked");
    } catch (err) {
      mine.textContent = t("error.generic", { message: err.message });
    }
  }
  if (ctx?.session?.user) load();
  return h(
    "section.leaderboards",
    h("h2", t("board.title")),
    h("div.toolbar", select("board", ["ahiko", "tournament"]), select("period", ["week", "month"])),
    mine,
    h(
      "table.list.leaderboard",
      h(
        "thead",
        h("tr", h("th.num", "#"), h("th", t("board.player")), scoreHead, h("th.num.hide-phone", t("board.played"))),
      ),
      body,
    ),
  );
}

function sitgoKey() {
  return `sng-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function prizesLabel(q) {
  return q.buy_in ? q.prizes.map((p) => fmt(p)).join(" / ") : "—";
}

/** Sit & go's: one open queue per kind, each starting as soon as it is full.
 * Register (the buy-in leaves the wallet), unregister before the start (it comes back), and
 * go to the table when one's sit & go starts. */
export function sitgoSection(ctx) {
  const body = h("tbody");
  const note = h("p.hint.sitgo-note", { role: "status", "aria-live": "polite" });
  const signedIn = Boolean(ctx?.session?.user);
  let mine = null;

  const goTable = (roomId) => {
    location.hash = `#/room/${encodeURIComponent(roomId)}`;
  };

  const calls = tournamentCalls(note, () => load());
  const run = calls.run;

  function row(q) {
    const isMine = mine?.id === q.id;
    const action = isMine
      ? h(
          "button",
          { type: "button", dataset: { sitgo: "unregister" }, onclick: () => run(() => api.sitgoUnregister(q.id)) },
          t("sitgo.unregister"),
        )
      : h(
          "button.primary",
          {
            type: "button",
            dataset: { sitgo: "register" },
            disabled: !signedIn || Boolean(mine),
            title: signedIn ? "" : t("sitgo.sign_in"),
            onclick: () => {
              const key = sitgoKey(); // a retry of this click sends it again: it counts once
              run(async () => {
                const answer = await api.sitgoRegister(q.queue, key);
                if (answer?.sitgo?.room_id) goTable(answer.sitgo.room_id);
              });
            },
          },
          t("sitgo.register"),
        );
    return h(
      `tr${isMine ? ".me" : ""}`,
      { dataset: { queue: q.queue, sitgo: q.id } },
      h("td", q.name),
      h("td.hide-phone", gameTitle(q.variant, lang())),
      h("td.num", q.buy_in ? fmt(q.buy_in) : t("sitgo.free")),
      h("td.num", { dataset: { registered: String(q.registered) } }, `${q.registered}/${q.seats}`),
      h("td.num.hide-phone", prizesLabel(q)),
      h("td", action),
    );
  }

  function showMine() {
    mineLine.replaceChildren();
    if (!mine) return;
    if (mine.status === "running" && mine.room_id) {
      mineLine.append(
        t("sitgo.started", { name: mine.name }),
        " ",
        h("a", { href: `#/room/${encodeURIComponent(mine.room_id)}`, dataset: { sitgo: "table" } }, t("sitgo.go_table")),
      );
    } else {
      mineLine.append(t("sitgo.waiting", { name: mine.name, n: mine.registered, seats: mine.seats }));
    }
  }

  const mineLine = h("p.sitgo-mine", { role: "status" });

  async function load() {
    try {
      const data = await api.sitgo();
      calls.loaded();
      const before = mine;
      mine = data?.mine ?? null;
      body.replaceChildren(...(data?.queues ?? []).map(row));
      showMine();
      // My sit & go just filled while I waited in the lobby: to the table.
      if (before && before.status === "registering" && mine?.status === "running" && mine.room_id) {
        goTable(mine.room_id);
      }
    } catch (err) {
      calls.loadFailed(err);
    }
  }

  const element = h(
    "section.sitgo",
    h("h2", t("sitgo.title")),
    h("p.hint", t("sitgo.hint")),
    mineLine,
    h(
      "table.list.sitgo-queues",
      h(
        "thead",
        h(
          "tr",
          h("th", t("lobby.col.name")),
          h("th.hide-phone", t("lobby.col.game")),
          h("th.num", t("lobby.col.buyin")),
          h("th.num", t("sitgo.col.registered")),
          h("th.num.hide-phone", t("sitgo.col.prizes")),
          h("th", h("span.visually-hidden", t("sitgo.register"))),
        ),
      ),
      body,
    ),
    note,
  );
  return { element, load };
}
