// The wallet: balance, the free-coin claim and the statement (Extrato, R-RM-15).

import { api, errorText } from "../api.js";
import { clear, h } from "../dom.js";
import { fmt, lang, t } from "../i18n.js";
import { roomName } from "./names.js";

function pick(obj, ...names) {
  for (const n of names) if (obj?.[n] !== undefined && obj[n] !== null) return obj[n];
  return undefined;
}

/** The room of a statement line by its name (C-STATEMENT), never by its internal id. */
export function statementRoom(e) {
  const part = e?.participation ?? {};
  const id = pick(part, "room_id") ?? pick(e, "room_id");
  const name = pick(part, "room_name") ?? pick(e, "room_name");
  if (!id && !name) return null;
  const shown = roomName({ name: name ?? "", id });
  return shown ? t("wallet.room", { room: shown }) : t("wallet.room_unknown");
}

/** "Entrada na mesa · Iniciante 1 · resultado +40" from a statement line (R-RM-15). */
export function entryDescription(e) {
  const kind = pick(e, "kind", "type") ?? "";
  // The server names every kind it can write, in both languages (wallet/posting_kinds.py).
  const named = e.label?.[lang()] ?? e.label?.["pt-BR"];
  const label = named ?? t(`wallet.kind.${kind}`);
  const parts = [label.startsWith("wallet.kind.") ? kind : label];
  const reason = pick(e, "reason", "description");
  const part = e.participation;
  const roomId = pick(part, "room_id") ?? pick(e, "room_id");
  // A reason naming the room by its id ("room iniciante-104daf-1") says nothing to a player.
  if (reason && reason !== kind && !(roomId && String(reason).includes(roomId))) parts.push(reason);
  parts.push(statementRoom(e));
  if (part) {
    // The participation's net result belongs on its exit line (R-RM-15).
    if (kind === "cash_out" && part.net !== null && part.net !== undefined) {
      parts.push(t("wallet.net", { net: `${part.net > 0 ? "+" : ""}${fmt(part.net)}` }));
    }
  }
  return parts.filter(Boolean).join(" · ");
}

function when(value) {
  if (!value) return "";
  const d = typeof value === "number" ? new Date(value) : new Date(String(value));
  return Number.isNaN(d.getTime()) ? String(value) : d.toLocaleString(lang());
}

export function walletPage(main) {
  const balance = h("p.balance", { dataset: { balance: "" } }, "…");
  const notice = h("p.notice", { role: "status" });
  const body = h("tbody");
  const claim = h("button.primary", { type: "button", dataset: { wallet: "claim" } }, t("wallet.claim"));
  const claimHint = h("p.hint");
  const inSeats = h("p.hint");

  async function load() {
    try {
      const w = await api.wallet();
      const b = pick(w, "balance", "coins") ?? 0;
      balance.textContent = t("wallet.coins", { amount: fmt(b) });
      balance.dataset.balance = String(b);
      const offer = w?.claim;
      if (offer) {
        claim.disabled = !offer.available;
        claim.textContent = t("wallet.claim_amount", { amount: fmt(offer.amount ?? 0) });
        claimHint.textContent = offer.available
          ? ""
          : t("wallet.claim_rule", { below: fmt(offer.below ?? 0) }) +
            (offer.next_at ? ` ${t("wallet.claim_next", { at: when(offer.next_at) })}` : "");
      }
      if (w?.in_seats) inSeats.textContent = t("wallet.in_seats", { amount: fmt(w.in_seats) });
      const st = await api.statement();
      const entries = Array.isArray(st) ? st : (st?.lines ?? st?.entries ?? []);
      clear(body);
      if (!entries.length) body.append(h("tr", h("td", { colSpan: 4 }, t("wallet.empty"))));
      for (const e of entries) {
        const amount = pick(e, "amount", "delta") ?? 0;
        body.append(
          h(
            "tr",
            { dataset: { kind: String(pick(e, "kind", "type") ?? "") } },
            h("td", when(pick(e, "at", "created_at", "time"))),
            h("td", entryDescription(e)),
            h(`td.num.${amount < 0 ? "amount-neg" : "amount-pos"}`, `${amount > 0 ? "+" : ""}${fmt(amount)}`),
            h("td.num", pick(e, "balance", "balance_after") === undefined ? "" : fmt(pick(e, "balance", "balance_after"))),
          ),
        );
      }
    } catch (err) {
      notice.textContent = t("error.generic", { message: err.message });
    }
  }

  claim.addEventListener("click", async () => {
    claim.disabled = true;
    try {
      const r = await api.claim();
      notice.textContent = t("wallet.claimed", { amount: fmt(pick(r, "amount", "claimed") ?? 0) });
      await load();
    } catch (err) {
      notice.textContent = errorText(err);
    }
  });

  main.append(
    h("h1", t("wallet.title")),
    h("section.wallet-summary", h("h2", t("wallet.balance")), balance, inSeats, claim, claimHint, notice),
    h(
      "section",
      h("h2", t("wallet.statement")),
      h(
        "table.list.statement",
        h(
          "thead",
          h(
            "tr",
            h("th", t("wallet.col.date")),
            h("th", t("wallet.col.desc")),
            h("th.num", t("wallet.col.amount")),
            h("th.num", t("wallet.col.balance")),
          ),
        ),
        body,
      ),
    ),
  );
  load();
  return {};
}
