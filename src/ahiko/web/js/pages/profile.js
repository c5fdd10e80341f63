// A player's page: hands, VPIP, PFR, aggression, showdown win rate, bb/100 per
// tier, tournaments and best finishes, and a graph of Ahiko-room results over time. The same
// numbers for everyone, computed by the server from the hand archive.

import { api } from "../api.js";
import { h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function pct(value) {
  return value === null || value === undefined ? "—" : `${value.toLocaleString(lang())}%`;
}

function num(value) {
  return value === null || value === undefined ? "—" : value.toLocaleString(lang());
}

function figure(key, value, name) {
  return h("div.figure", { dataset: { figure: name } }, h("dt", t(key)), h("dd", value));
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The running total of coins won at Ahiko rooms, day by day, as a line. */
export function resultsGraph(points) {
  const width = 600;
  const height = 160;
  const pad = 8;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "results-graph", role: "img" });
  root.setAttribute("aria-label", t("profile.graph_label"));
  if (!points.length) return root;
  const totals = [0, ...points.map((p) => p.total)];
  const lo = Math.min(...totals);
  const hi = Math.max(...totals);
  const span = hi - lo || 1;
  const x = (i) => pad + ((width - 2 * pad) * i) / Math.max(1, totals.length - 1);
  const y = (v) => height - pad - ((height - 2 * pad) * (v - lo)) / span;
  root.append(svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "zero" }));
  const line = totals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  root.append(svg("polyline", { points: line, class: "total" }));
  root.dataset.points = String(points.length);
  root.dataset.last = String(totals[totals.length - 1]);
  return root;
}

export function profilePage(main, name) {
  const status = h("p.hint", { role: "status" }, t("profile.loading"));
  const body = h("div.profile");
  main.append(h("h1", t("profile.title", { name })), status, body);

  function render(p) {
    status.textContent = p.hands ? "" : t("profile.no_hands");
    const tiers = h(
      "table.list.tiers",
      h(
        "thead",
        h("tr", h("th", t("profile.tier")), h("th.num", t("profile.hands")), h("th.num", t("profile.net")), h("th.num", "bb/100")),
      ),
      h(
        "tbody",
        (p.tiers ?? []).map((row) =>
          h(
            "tr",
            { dataset: { tier: row.tier } },
            h("td", row.tier),
            h("td.num", fmt(row.hands)),
            h(`td.num.${row.net < 0 ? "amount-neg" : "amount-pos"}`, fmt(row.net)),
            h("td.num", { dataset: { bb100: "" } }, num(row.bb_per_100)),
          ),
        ),
      ),
    );
    const tour = p.tournaments ?? { played: 0, finished: 0, wins: 0, best: [] };
    const best = h(
      "ol.best-finishes",
      (tour.best ?? []).map((f) =>
        h("li", { dataset: { place: String(f.place) } }, t("profile.finish", { place: f.place, n: f.entrants, room: f.room_name })),
      ),
    );
    body.replaceChildren(
      h(
        "dl.figures",
        figure("profile.hands", fmt(p.hands), "hands"),
        figure("profile.vpip", pct(p.vpip), "vpip"),
        figure("profile.pfr", pct(p.pfr), "pfr"),
        figure("profile.aggression", num(p.aggression), "aggression"),
        figure("profile.showdown_wins", pct(p.showdown_win_rate), "showdown_win_rate"),
        figure("profile.tournaments", `${fmt(tour.played)} · ${t("profile.wins", { n: tour.wins })}`, "tournaments"),
      ),
      h("h2", t("profile.by_tier")),
      p.tiers?.length ? tiers : h("p.hint", { dataset: { empty: "tiers" } }, t("profile.no_tiers")),
      h("h2", t("profile.results")),
      p.results?.length ? resultsGraph(p.results) : h("p.hint", { dataset: { empty: "results" } }, t("profile.no_results")),
      h("h2", t("profile.best")),
      tour.best?.length ? best : h("p.hint", t("profile.no_finishes")),
    );
  }

  api
    .profile(name)
    .then(render)
    .catch((err) => {
      status.textContent = err.status === 404 ? t("profile.unknown") : t("error.generic", { message: err.message });
    });
  return {};
}
