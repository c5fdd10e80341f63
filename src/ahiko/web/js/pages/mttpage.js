// One multi-table tournament's own page (#/mtt/<id>), reached from the lobby's list and from
// its tables: where it stands, what it pays by place, its tables with their players (each one
// to watch), the places of those out so far with their prizes, and who entered. It asks the
// server again every few seconds until the tournament is over: there is no push frame for it.

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { fmt, ordinal, t } from "../i18n.js";
import { mttName } from "./mttlobby.js";

const REFRESH_MS = 3000;
const OVER = new Set(["finished", "cancelled"]);

function figure(key, value, name) {
  return h("div.figure", { dataset: { figure: name } }, h("dt", t(key)), h("dd", value));
}

function payouts(prizes, buyIn) {
  // A paid tournament's prizes are its buy-ins: none yet until someone registers.
  if (!prizes.length) return h("p.hint", { dataset: { empty: "prizes" } }, t(buyIn ? "mttpage.prizes_grow" : "mttpage.no_prizes"));
  return h(
    "table.list.mtt-payouts",
    h("thead", h("tr", h("th", t("mttpage.col.place")), h("th.num", t("mttpage.col.prize")))),
    h(
      "tbody",
      prizes.map((coins, i) => h("tr", { dataset: { place: String(i + 1) } }, h("td", ordinal(i + 1)), h("td.num", fmt(coins)))),
    ),
  );
}

function tableCard(table, mine) {
  const watch = table.room_id
    ? h("a.button-link", { href: `#/room/${encodeURIComponent(table.room_id)}`, dataset: { watch: String(table.number) } }, t(mine ? "mtt.go_table" : "mttpage.watch"))
    : null;
  return h(
    `section.mtt-table${mine ? ".me" : ""}`,
    { dataset: { table: String(table.number) } },
    h("header", h("h3", t("mttpage.table", { n: table.number, players: table.players.length })), watch),
    h(
      "ul.mtt-players",
      table.players.map((p) => h("li", { dataset: { player: String(p.user_id) } }, h("span.name", p.name), h("span.num", fmt(p.chips)))),
    ),
  );
}

function results(rows) {
  return h(
    "table.list.mtt-results",
    h("thead", h("tr", h("th", t("mttpage.col.place")), h("th", t("mttpage.col.player")), h("th.num", t("mttpage.col.prize")))),
    h(
      "tbody",
      rows.map((r) =>
        h(
          "tr",
          { dataset: { place: String(r.place), player: String(r.user_id) } },
          h("td", ordinal(r.place)),
          h("td", r.name),
          h("td.num", r.prize ? fmt(r.prize) : "—"),
        ),
      ),
    ),
  );
}

export function mttPage(main, id) {
  const title = h("h1", t("mttpage.loading"));
  const status = h("p.hint", { role: "status" });
  const body = h("div.mtt-page");
  main.append(h("p.back", h("a", { href: "#/lobby/tournament" }, t("mttpage.back"))), title, status, body);
  let timer = null;
  let gone = false;

  function render(data) {
    const m = data.mtt;
    title.textContent = mttName(m);
    status.textContent = "";
    const mine = m.room_id;
    body.dataset.status = m.status;
    // replaceChildren writes a null as the text "null": only the parts this state has.
    const parts = [
      h(
        "dl.figures",
        figure("mtt.col.status", t(`mtt.status.${m.status}`), "status"),
        figure("lobby.col.buyin", m.buy_in ? fmt(m.buy_in) : t("sitgo.free"), "buy_in"),
        figure("mttpage.pool", fmt(m.pool), "pool"),
        figure("mttpage.entrants", fmt(data.entrants.length), "entrants"),
        m.status === "running" ? figure("mttpage.left", fmt(m.left), "left") : null,
        m.status === "running" ? figure("tinfo.level", fmt(m.level), "level") : null,
      ),
      mine ? h("p", h("a.button-link.primary", { href: `#/room/${encodeURIComponent(mine)}`, dataset: { mtt: "table" } }, t("mtt.go_table"))) : null,
      h("h2", t("mttpage.payouts")),
      payouts(m.prizes ?? [], m.buy_in),
      data.tables.length ? h("h2", t("mttpage.tables")) : null,
      data.tables.length ? h("div.mtt-tables", data.tables.map((table) => tableCard(table, table.room_id === mine))) : null,
      h("h2", t("mttpage.results")),
      data.results.length ? results(data.results) : h("p.hint", { dataset: { empty: "results" } }, t("mttpage.no_results")),
      h("h2", t("mttpage.entrants_title", { n: data.entrants.length })),
      data.entrants.length
        ? h("ul.mtt-entrants", data.entrants.map((e) => h("li", { dataset: { player: String(e.user_id) } }, e.name)))
        : h("p.hint", t("mttpage.no_entrants")),
    ];
    body.replaceChildren(...parts.filter(Boolean));
  }

  async function load() {
    timer = null;
    let over = false;
    try {
      const data = await api.mtt(id);
      if (gone) return;
      render(data);
      over = OVER.has(data.mtt.status);
    } catch (err) {
      if (gone) return;
      title.textContent = t("mttpage.title");
      status.textContent = err?.status === 404 ? t("error.no_mtt") : errorText(err);
      over = err?.status === 404;
    }
    if (!over) timer = setTimeout(load, REFRESH_MS);
  }

  load();
  return {
    destroy() {
      gone = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
