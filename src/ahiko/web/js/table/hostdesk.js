// The host of a home game: the "Sala" menu's section that runs the table (the
// next hand's blinds, ante, clock, buy-in and rebuy limit; chips for a stack; approving
// seat requests; removing a player; handing the host role on; ending the game), the lines
// the table writes in the hand log for each host action, and the room's ledger dialog
// (every player's buy-ins, rebuys, host chips, stack and net; the settle-up; the CSV).

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { changedOptions, houseText, optionFields } from "../houseoptions.js";
import { fmt, t } from "../i18n.js";

const CHANGE_FIELDS = ["small_blind", "big_blind", "ante", "action_deadline_s", "starting_chips", "max_rebuys"];

/** What a `host` frame says, for the hand log, the live line and a toast. */
export function hostText(msg) {
  const by = msg.by ?? t("home.the_host");
  const n = msg.handNo;
  switch (msg.action) {
    case "change_set":
      return t("home.log.change_set", { by, n, change: changeText(msg.change) });
    case "change_applied":
      return t("home.log.change_applied", { n, change: changeText(msg.change) });
    case "chips_set":
    case "chips_applied": {
      const amount = fmt(Math.abs(msg.amount ?? 0));
      const verb = (msg.amount ?? 0) > 0 ? "add" : "remove";
      return t(`home.log.${msg.action}.${verb}`, { by, n, amount, name: msg.name ?? "" });
    }
    case "approve_players":
      return t(msg.on ? "home.log.approve_on" : "home.log.approve_off", { by });
    case "seat_request":
      return t("home.log.seat_request", { name: msg.name ?? "", seat: (msg.seat ?? 0) + 1 });
    case "seat_approved":
      return t("home.log.seat_approved", { by, name: msg.name ?? "" });
    case "seat_refused":
      return t("home.log.seat_refused", { by, name: msg.name ?? "" });
    case "player_removed":
      return t("home.log.player_removed", { by, name: msg.name ?? "" });
    case "host_handed":
      return t("home.log.host_handed", { by, name: msg.name ?? "" });
    case "bomb_pot_next":
      return t("home.log.bomb_pot", { by, n, ante: fmt(msg.ante ?? 0) });
    default:
      return t("home.log.other", { by });
  }
}

function changeText(change) {
  const parts = [];
  const c = change ?? {};
  if ("small_blind" in c || "big_blind" in c) parts.push(t("home.change.blinds", { sb: fmt(c.small_blind ?? "—"), bb: fmt(c.big_blind ?? "—") }));
  if ("ante" in c) parts.push(t("home.change.ante", { n: fmt(c.ante) }));
  if ("action_deadline_s" in c) parts.push(c.action_deadline_s === null ? t("home.change.no_clock") : t("home.change.clock", { s: c.action_deadline_s }));
  if ("starting_chips" in c) parts.push(t("home.change.buy_in", { n: fmt(c.starting_chips) }));
  if ("hand_options" in c) parts.push(houseText(c.hand_options) || t("house.none"));
  if ("max_rebuys" in c) parts.push(c.max_rebuys === null ? t("home.change.no_rebuy_limit") : t("home.change.rebuys", { n: c.max_rebuys }));
  return parts.join(", ");
}

function numberField(name, label, value) {
  return h(
    "label.home-field",
    h("span", label),
    h("input", { type: "number", min: "0", step: "1", inputMode: "numeric", name, placeholder: value ?? "", dataset: { home: name } }),
  );
}

/** The host's section of the "Sala" menu of a recreational room. */
export function homeGameMenu(state, command, close) {
  const room = state.room;
  if (!room || room.kind !== "recreational") return null;
  const home = room.home ?? {};
  const stakes = room.stakes ?? {};
  const form = h(
    "form.home-change",
    {
      dataset: { home: "change" },
      onsubmit: (ev) => {
        ev.preventDefault();
        const args = {};
        for (const name of CHANGE_FIELDS) {
          const raw = form.elements[name].value.trim();
          if (raw !== "") args[name] = Number(raw);
        }
        if (form.elements.no_deadline.checked) args.no_deadline = true;
        const options = changedOptions(form, home.options ?? {});
        if (options) args.options = options;
        command("host_change", args);
        close();
      },
    },
    h("h3", t("home.next_hand")),
    h(
      "div.home-grid",
      numberField("small_blind", t("home.small_blind"), stakes.small_blind),
      numberField("big_blind", t("home.big_blind"), stakes.big_blind),
      numberField("ante", t("home.ante"), stakes.ante),
      numberField("action_deadline_s", t("home.clock"), room.deadlineMs ? room.deadlineMs / 1000 : null),
      numberField("starting_chips", t("home.buy_in"), room.startingChips),
      numberField("max_rebuys", t("home.max_rebuys"), home.maxRebuys),
    ),
    h("label.home-check", h("input", { type: "checkbox", name: "no_deadline" }), t("home.no_clock")),
    optionFields(home.options ?? {}),
    h("button.primary", { type: "submit", dataset: { home: "apply" } }, t("home.apply_next_hand")),
    home.options?.bomb_pot_ante
      ? h("button", { type: "button", dataset: { home: "bomb_pot" }, disabled: home.bombPotNext, onclick: () => { command("bomb_pot"); close(); } }, t("home.bomb_pot"))
      : null,
  );
  const people = Object.values(room.players ?? {}).filter((p) => !p.reserved);
  const who = h(
    "select",
    { dataset: { home: "player" }, "aria-label": t("home.player") },
    people.map((p) => h("option", { value: String(p.seat) }, `${p.name} (${fmt(p.stack)})`)),
  );
  const amount = h("input", { type: "number", min: "1", step: "1", inputMode: "numeric", dataset: { home: "amount" }, "aria-label": t("home.chips") });
  const chips = (sign) => () => {
    const n = Number(amount.value);
    command("host_chips", { seat: Number(who.value), amount: sign * (Number.isInteger(n) ? n : 0) });
    close();
  };
  const seatCmd = (name) => () => {
    command(name, { seat: Number(who.value) });
    close();
  };
  return h(
    "section.home-game",
    form,
    h(
      "div.home-players",
      h("h3", t("home.players")),
      h("div.menu-row", who, amount),
      h(
        "div.menu-row",
        h("button", { type: "button", dataset: { home: "add_chips" }, onclick: chips(1) }, t("home.add_chips")),
        h("button", { type: "button", dataset: { home: "remove_chips" }, onclick: chips(-1) }, t("home.remove_chips")),
      ),
      h(
        "div.menu-row",
        h("button", { type: "button", dataset: { home: "remove_player" }, onclick: seatCmd("remove_player") }, t("home.remove_player")),
        h("button", { type: "button", dataset: { home: "hand_over_host" }, onclick: seatCmd("hand_over_host") }, t("home.make_host")),
      ),
    ),
    h(
      "label.home-check",
      h("input", {
        type: "checkbox",
        checked: Boolean(home.approvePlayers),
        dataset: { home: "approve_players" },
        onchange: (ev) => command("approve_players", { on: ev.target.checked }),
      }),
      t("home.approve_players"),
    ),
    (home.seatRequests ?? []).map((r) =>
      h(
        "div.menu-row.seat-request",
        { dataset: { request: r.player_id } },
        h("span", t("home.request", { name: r.name, seat: r.seat + 1 })),
        h("button.primary", { type: "button", dataset: { home: "approve" }, onclick: () => { command("seat_answer", { player_id: r.player_id, approve: true }); close(); } }, t("home.approve")),
        h("button", { type: "button", dataset: { home: "refuse" }, onclick: () => { command("seat_answer", { player_id: r.player_id, approve: false }); close(); } }, t("home.refuse")),
      ),
    ),
    h(
      "div.menu-row",
      h("button", { type: "button", dataset: { home: "ledger" }, onclick: () => { close(); openLedger(room.id); } }, t("home.ledger")),
      h(
        "button.danger",
        {
          type: "button",
          dataset: { home: "end_game" },
          onclick: () => {
            if (window.confirm(t("home.end_confirm"))) {
              command("end_game");
              close();
            }
          },
        },
        t("home.end_game"),
      ),
    ),
  );
}

/** The room's ledger in a dialog: one row a player, the settle-up, the CSV download. */
export async function openLedger(roomId, onError = null) {
  let report;
  try {
    report = await api.roomLedger(roomId);
  } catch (err) {
    if (onError) onError(errorText(err));
    else window.alert(errorText(err));
    return null;
  }
  // The net and the stack first: what a phone shows before the table scrolls sideways.
  const cols = ["net", "stack", "buy_ins", "rebuys", "added", "removed", "cashed_out"];
  const dialog = h(
    "dialog.ledger-dialog",
    { "aria-labelledby": "ledger-title" },
    h("h2#ledger-title", t(report.final ? "home.ledger_final" : "home.ledger")),
    h(
      "div.ledger-scroll",
      // it scrolls sideways on a phone: a keyboard reaches it too
      { tabIndex: 0, role: "region", "aria-label": t("home.ledger") },
      h(
        "table.ledger",
        h("thead", h("tr", h("th", t("home.col.player")), cols.map((c) => h("th.num", t(`home.col.${c}`))))),
        h(
          "tbody",
          report.players.map((p) =>
            h(
              "tr",
              { dataset: { player: p.player_id } },
              h("td", p.player),
              cols.map((c) => h(`td.num${c === "net" ? (p.net > 0 ? ".up" : p.net < 0 ? ".down" : "") : ""}`, { dataset: { col: c } }, c === "net" && p.net > 0 ? `+${fmt(p.net)}` : fmt(p[c]))),
            ),
          ),
        ),
      ),
    ),
    h("h3", t("home.settle_up")),
    report.settle_up.length
      ? h("ul.settle-up", report.settle_up.map((s) => h("li", t("home.pays", { from: s.from_name, to: s.to_name, amount: fmt(s.amount) }))))
      : h("p", t("home.all_square")),
    h(
      "div.menu-row",
      h("a.button-link.primary", { href: api.roomLedgerCsvUrl(roomId), download: "", dataset: { home: "csv" } }, t("home.download_csv")),
      h("button", { type: "button", onclick: () => dialog.close() }, t("verify.close")),
    ),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
