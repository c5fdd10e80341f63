// The controls under the table for this browser's seat: leave, reload, a new entry, the
// waiting list, show cards, a home game's ledger, sitting out and the time bank.

import { h } from "../dom.js";
import { t, tPhone } from "../i18n.js";
import { openBuyIn, reloadBlocked } from "./buyin.js";
import { errorText } from "./describe.js";
import { openLedger } from "./hostdesk.js";

export function renderSeatControls(page) {
  const state = page.state;
  const me = state.mySeat();
  const room = state.room;
  const player = me !== null ? state.player(me) : null;
  const controls = [];
  // A home game's ledger, for its host and players, during and after the game.
  const ledger = room?.kind === "recreational" && (room.host || me !== null || page.isClosed())
    ? h("button.ledger-btn", { type: "button", dataset: { open: "ledger" }, onclick: () => openLedger(room.id, (e) => page.showToast(e)) }, t("home.ledger"))
    : null;
  if (page.isClosed()) {
    // The room is over: nothing to sit, leave or reload; the way out.
    page.seatControls.replaceChildren(h("a.button-link.primary", { href: "#/lobby", dataset: { control: "lobby" } }, t("table.back_lobby")), ledger ?? "");
    return;
  }
  if (me !== null && room) {
    const inHand = state.view && !["over"].includes(state.view.street);
    if (room.kind === "ahiko") {
      if (player?.leaving) {
        // R-RM-14: "Sair após esta mão" can be taken back until the hand ends.
        controls.push(
          h("span.leaving-note", { role: "status" }, t("table.leaving_note")),
          h(
            "button.stay",
            { type: "button", dataset: { control: "stay" }, "aria-label": t("table.stay_label"), onclick: () => page.command("leave_after_hand", { on: false }) },
            t("table.stay"),
          ),
        );
      } else if (inHand) {
        controls.push(
          h("button.leave-after", { type: "button", dataset: { control: "leave" }, onclick: () => page.leaveAhiko(true) }, t("table.leave_after_hand")),
        );
      }
      if (!inHand && !player?.leaving) {
        // R-RM-13: at the tier's ceiling there is nothing to reload: the button says so.
        const full = reloadBlocked(state);
        controls.push(
          h("button", { type: "button", dataset: { control: "leave-now" }, onclick: () => page.leaveAhiko(false) }, t("table.leave")),
          h(
            "button",
            {
              type: "button",
              dataset: { control: "reload" },
              disabled: Boolean(full),
              "aria-describedby": full ? "reload-why" : undefined,
              onclick: () =>
                openBuyIn(state, me, {
                  reload: true,
                  onError: (e) => page.showToast(errorText(e.code, e.message)),
                  onDone: (amount) => page.reloaded(amount),
                }),
            },
            t("table.reload"),
          ),
          full ? h("span#reload-why.reload-why", { role: "note" }, full) : null,
        );
      }
    } else if (player?.leaving) {
      controls.push(h("span.leaving-note", { role: "status" }, t("table.leaving_note")));
    } else {
      controls.push(h("button", { type: "button", dataset: { control: "leave" }, onclick: () => page.command("leave") }, t("table.leave")));
      if (player && player.stack === 0 && !inHand && room.kind === "recreational") {
        controls.push(h("button", { type: "button", dataset: { control: "new_entry" }, onclick: () => page.command("new_entry") }, t("table.new_entry")));
      }
    }
  } else if (room) {
    controls.push(h("span.spectating", t("table.spectating")));
    controls.push(...waitListControls(page, room));
  }
  if (page.canShow(me)) {
    controls.push(
      h("button", { type: "button", dataset: { control: "show" }, onclick: () => page.command("show", { hand_no: state.handNo }) }, t("table.show")),
    );
  }
  if (ledger) controls.push(ledger);
  page.seatControls.replaceChildren(...controls);
}

/** A full recreational room's waiting list, for a signed-in spectator. */
function waitListControls(page, room) {
  const me = page.state.you?.player_id;
  if (!me || room.kind !== "recreational") return [];
  const waiting = room.waitList?.waiting ?? [];
  const offered = (room.waitList?.offers ?? []).find((o) => o.player_id === me);
  if (offered) return [h("span.wait-offer", { role: "status" }, t("table.wait_offer", { n: offered.seat + 1 }))];
  const position = waiting.indexOf(me);
  if (position >= 0) {
    return [
      h("span.wait-position", { role: "status" }, t("table.wait_position", { n: position + 1 })),
      h("button", { type: "button", dataset: { control: "wait_list_leave" }, onclick: () => page.command("wait_list", { on: false }) }, t("table.wait_leave")),
    ];
  }
  const taken = Object.values(room.players ?? {}).length;
  if (taken < room.seatCount) return [];
  return [h("button", { type: "button", dataset: { control: "wait_list" }, onclick: () => page.command("wait_list", { on: true }) }, t("table.wait_join"))];
}

/** "Ficar fora nas próximas mãos" / "Voltar", and the time bank's button on this player's
 *  turn (the bank also starts by itself when the deadline runs out). */
export function renderSocial(page) {
  const me = page.state.mySeat();
  const player = me !== null ? page.state.player(me) : null;
  const show = !page.isClosed() && !page.state.tournamentOver() && player && !player.leaving && !player.bot;
  page.social.hidden = !show;
  page.social.replaceChildren(...(show ? socialControls(page, player) : []));
}

function socialControls(page, player) {
  const out = [];
  const d = page.state.deadline;
  const myTurn = d && d.seat === player.seat && page.state.view?.to_act === player.seat;
  if (myTurn && (d.bank === null || d.bank === undefined) && d.bankLeft > 0) {
    out.push(
      h("button.time-bank", { type: "button", ariaLabel: t("table.time_bank_use", { s: Math.floor(d.bankLeft) }), dataset: { control: "time_bank" }, onclick: () => page.command("time_bank") }, ...tPhone("table.time_bank_use", { s: Math.floor(d.bankLeft) })),
    );
  }
  if (player.sittingOut) {
    out.push(
      h("span.sitting-out-note", { role: "status" }, t("table.sitting_out_note")),
      h("button.primary", { type: "button", dataset: { control: "sit_in" }, onclick: () => page.command("sit_out", { on: false }) }, t("table.sit_in")),
    );
  } else {
    out.push(h("button", { type: "button", ariaLabel: t("table.sit_out"), dataset: { control: "sit_out" }, onclick: () => page.command("sit_out", { on: true }) }, ...tPhone("table.sit_out")));
  }
  return out;
}
