// Multi-table tournaments in the lobby's "Torneios" tab (issue 20): the scheduled and the
// hosts' MTTs with their start time and registered count; register (the buy-in leaves the
// wallet) and unregister before the start; late registration while it is open; and when my
// MTT starts (or I register late), to my table.

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";

function mttKey() {
  return `mtt-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
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
  const empty = h("p.hint", t("mtt.none"));
  const signedIn = Boolean(ctx?.session?.user);
  let busy = false;
  let mine = new Map(); // my MTTs by id: their status, last seen

  const goTable = (roomId) => {
    location.hash = `#/room/${encodeURIComponent(roomId)}`;
  };

  async function run(job) {
    if (busy) return;
    busy = true;
    note.textContent = t("sitgo.sending");
    delete note.dataset.error;
    try {
      await job();
      note.textContent = "";
    } catch (err) {
      note.textContent = errorText(err);
      note.dataset.error = err?.code ?? "";
    } finally {
      busy = false;
    }
    await load();
  }

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
    const open = m.status === "registering" || (m.status === "running" && m.late);
    if (!open || m.registered_me) return null;
    return h(
      "button.primary",
      {
        type: "button",
        dataset: { mtt: "register" },
        disabled: !signedIn,
        title: signedIn ? "" : t("sitgo.sign_in"),
        onclick: () =>
          run(async () => {
            const answer = await api.mttRegister(m.id, mttKey());
            if (answer?.mtt?.room_id) goTable(answer.mtt.room_id); // late: seated at once
          }),
      },
      t("sitgo.register"),
    );
  }

  function row(m) {
    const status = h("span", { dataset: { status: m.status } }, t(`mtt.status.${m.status}`));
    const buyIn = m.buy_in ? fmt(m.buy_in) : t("sitgo.free");
    return h(
      `tr${m.registered_me ? ".me" : ""}`,
      { dataset: { mtt: m.id } },
      h(
        "td",
        m.name,
        m.late ? h("span.hint", ` · ${t("mtt.late")}`) : null,
        // Phones have no buy-in column: it stands under the name.
        h("span.status-pill.show-phone", { "aria-hidden": "true" }, buyIn),
      ),
      h("td.num", { dataset: { starts: m.starts_at } }, startsLabel(m.starts_at)),
      h("td.num.hide-phone", buyIn),
      h("td.num", { dataset: { registered: String(m.registered) } }, fmt(m.registered)),
      h("td.hide-phone", status),
      h("td", action(m)),
    );
  }

  async function load() {
    let data;
    try {
      data = await api.mtts();
    } catch (err) {
      note.textContent = errorText(err);
      return;
    }
    const list = data?.mtts ?? [];
    body.replaceChildren(...list.map(row));
    empty.hidden = list.length > 0;
    const waiting = list.find((m) => m.registered_me && m.status === "registering");
    mineLine.textContent = waiting
      ? t("mtt.mine_waiting", { name: waiting.name, time: startsLabel(waiting.starts_at) })
      : "";
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
  );
  return { element, load };
}
