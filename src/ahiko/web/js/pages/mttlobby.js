// Multi-table tournaments in the lobby's "Torneios" tab: the scheduled and the
// hosts' MTTs with their start time and registered count; register (the buy-in leaves the
// wallet) and unregister before the start; late registration while it is open; and when my
// MTT starts (or I register late), to my table. The host may cancel their MTT before it
// starts (after a confirm): every buy-in goes back; a registered player's lobby says so.

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";
import { mttHostForm } from "./mtthost.js";
import { tournamentCalls } from "./tournamentcalls.js";

function mttKey() {
  return `mtt-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A scheduled MTT's name in the page's language (the server names it in Portuguese). */
export function mttName(m) {
  if (!m.spec) return m.name;
  const key = `mtt.spec.${m.spec}`;
  const said = t(key);
  return said === key ? m.name : said;
}

function startsLabel(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "—";
  return at.toLocaleTimeString(lang() === "en" ? "en-US" : "pt-BR", { hour: "2-digit", minute: "2-digit" });
}

export function mttSection(ctx) {
  const body = h("tbody");
  const note = h("p.hint.mtt-note", { role: "status", "aria-live": "polite" });
  const mineLine = h("p.mtt-mine", { role: "status" });
  const cancelledLine = h("p.mtt-cancelled", { role: "status", hidden: true });
  const empty = h("p.hint.mtt-empty", { hidden: true }, t("mtt.none")); // once a listing came
  const signedIn = Boolean(ctx?.session?.user);
  let mine = new Map(); // my MTTs by id: their status, last seen

  const goTable = (roomId) => {
    location.hash = `#/room/${encodeURIComponent(roomId)}`;
  };

  const calls = tournamentCalls(note, () => load());
  const run = calls.run;

  function action(m) {
    if (m.registered_me && m.status === "running" && m.room_id) {
      return h("button.primary", { type: "button", dataset: { mtt: "table" }, onclick: () => goTable(m.room_id) }, t("mtt.go_table"));
    }
    if (m.registered_me && m.status === "registering") {
      return h(
        "button",
        { type: "button", dataset: { mtt: "unregister" }, onclick: () => run(() => api.mttUnregister(m.id)) },
        t("sitgo.unregister"),
      );
    }
    if (m.status === "cancelled") {
      // Phones have no status column: the row says it is cancelled where its button was.
      return h("span.status-pill.show-phone", { dataset: { cancelled: m.id } }, t("mtt.status.cancelled"));
    }
    const open = m.status === "registering" || (m.status === "running" && m.late);
    if (!open || m.registered_me) return null;
    return h(
      "button.primary",
      {
        type: "button",
        dataset: { mtt: "register" },
        disabled: !signedIn,
        title: signedIn ? "" : t("sitgo.sign_in"),
        onclick: () => {
          const key = mttKey(); // a retry of this click sends it again: it counts once
          run(async () => {
            const answer = await api.mttRegister(m.id, key);
            if (answer?.mtt?.room_id) goTable(answer.mtt.room_id); // late: seated at once
          });
        },
      },
      t("sitgo.register"),
    );
  }

  function cancelButton(m) {
    if (!m.host_me || m.status !== "registering") return null;
    const cancel = () => {
      if (!window.confirm(t("mtt.cancel_confirm", { name: m.name }))) return;
      run(
        async () => {
          const answer = await api.mttCancel(m.id);
          return t("mtt.cancel_done", { name: m.name, n: fmt(answer?.refunded ?? 0) });
        },
        (err) => (err?.code === "already_started" ? t("mtt.cancel_started") : errorText(err)),
      );
    };
    return h("button.danger", { type: "button", dataset: { mtt: "cancel" }, onclick: cancel }, t("mtt.cancel"));
  }

  function row(m) {
    const status = h("span", { dataset: { status: m.status } }, t(`mtt.status.${m.status}`));
    const buyIn = m.buy_in ? fmt(m.buy_in) : t("sitgo.free");
    return h(
      `tr${m.registered_me ? ".me" : ""}`,
      { dataset: { mtt: m.id } },
      h(
        "td",
        // Its own page: entrants, tables, payouts and results.
        h("a.mtt-link", { href: `#/mtt/${encodeURIComponent(m.id)}`, dataset: { mttPage: m.id } }, mttName(m)),
        m.late ? h("span.hint", ` · ${t("mtt.late")}`) : null,
        // Phones have no buy-in column: it stands under the name.
        h("span.status-pill.show-phone", { "aria-hidden": "true" }, buyIn),
      ),
      h("td.num", { dataset: { starts: m.starts_at } }, startsLabel(m.starts_at)),
      h("td.num.hide-phone", buyIn),
      h("td.num", { dataset: { registered: String(m.registered) } }, fmt(m.registered)),
      h("td.hide-phone", status),
      h("td", h("div.mtt-actions", action(m), cancelButton(m))),
    );
  }

  async function load() {
    let data;
    try {
      data = await api.mtts();
    } catch (err) {
      calls.loadFailed(err);
      return;
    }
    calls.loaded();
    const list = data?.mtts ?? [];
    body.replaceChildren(...list.map(row));
    empty.hidden = list.length > 0;
    const waiting = list.find((m) => m.registered_me && m.status === "registering");
    mineLine.textContent = waiting
      ? t("mtt.mine_waiting", { name: mttName(waiting), time: startsLabel(waiting.starts_at) })
      : "";
    // An MTT I was registered in was cancelled by its host: my buy-in is back.
    const cancelled = list.find((m) => m.status === "cancelled" && !m.host_me && mine.get(m.id) === "registering");
    if (cancelled) {
      cancelledLine.textContent = cancelled.buy_in
        ? t("mtt.cancelled_paid", { name: cancelled.name, coins: fmt(cancelled.buy_in) })
        : t("mtt.cancelled_free", { name: cancelled.name });
      cancelledLine.dataset.mtt = cancelled.id;
      cancelledLine.hidden = false;
    }
    // My MTT just started while I waited in the lobby: to my table.
    const started = list.find((m) => m.registered_me && m.status === "running" && m.room_id && mine.get(m.id) === "registering");
    mine = new Map(list.filter((m) => m.registered_me).map((m) => [m.id, m.status]));
    if (started) goTable(started.room_id);
  }

  const element = h(
    "section.mtt",
    h("h2", t("mtt.title")),
    h("p.hint", t("mtt.hint")),
    mineLine,
    cancelledLine,
    h(
      "table.list.mtt-list",
      h(
        "thead",
        h(
          "tr",
          h("th", t("lobby.col.name")),
          h("th.num", t("mtt.col.starts")),
          h("th.num.hide-phone", t("lobby.col.buyin")),
          h("th.num", t("sitgo.col.registered")),
          h("th.hide-phone", t("mtt.col.status")),
          h("th", h("span.visually-hidden", t("sitgo.register"))),
        ),
      ),
      body,
    ),
    empty,
    note,
    signedIn ? mttHostForm(run) : null,
  );
  return { element, load };
}
