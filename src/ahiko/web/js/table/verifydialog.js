// "Conferir cartas" (R-FD-03..05): runs the browser verifier on the cards this browser
// received, says whether the commitment came before the cards, states the caveat, and offers
// the proof file for download.

import { api } from "../api.js";
import { cardSvg } from "../cards.js";
import { clear, downloadBlob, h } from "../dom.js";
import { t } from "../i18n.js";
import { fingerprint } from "../tablestate.js";

let publicKeyHex;

async function serverPublicKey() {
  if (publicKeyHex !== undefined) return publicKeyHex;
  try {
    const data = await api.publicKey();
    publicKeyHex = typeof data === "string" ? data : (data?.public_key ?? data?.key ?? null);
  } catch {
    publicKeyHex = null;
  }
  return publicKeyHex;
}

/** A failed check's words, for the row or the summary. */
function failure(result) {
  const bad = (result?.checks ?? []).find((c) => c.status === "fail" || c.status === "malformed");
  return bad ? bad.detail : null;
}

/**
 * Runs the verifier on the whole file, then on each card alone, so every card gets its own
 * verdict from the same code (checks 1-4 of FAIRNESS.md).
 */
export async function runVerifier(file, expectDigest) {
  const { verifyProof } = await import("../verify.js");
  // An unsigned commitment is checked without a key (the signature line says "not checked").
  const publicKey = file.commitment.sig ? await serverPublicKey() : null;
  const options = { expectDigest };
  if (publicKey) options.publicKeyHex = publicKey;
  const whole = await verifyProof(file, options);
  // Checks about the file as a whole (format, digest, signature, no card twice) hold for
  // every card; check 3 (the opening folds to the root) is each card's own.
  const shared = (whole.checks ?? []).filter((c) => c.name !== "openings");
  const sharedOk = shared.every((c) => c.status !== "fail" && c.status !== "malformed");
  const perCard = [];
  for (const card of file.cards) {
    const one = await verifyProof({ ...file, cards: [card] }, options);
    perCard.push({ card, ok: Boolean(one.ok && sharedOk), error: failure(one) ?? (sharedOk ? null : failure(whole)) });
  }
  return { whole, perCard };
}

/** The same name "Minhas mãos" gives the file: ahiko-<room>-hand<N>-proof.json. */
export function proofFilename(file) {
  const c = file.commitment;
  const room = String(c.table_id ?? "").replace(/[^A-Za-z0-9_-]+/g, "_") || "room";
  return `ahiko-${room}-hand${c.hand_no ?? 0}-proof.json`;
}

export function downloadProof(file) {
  const blob = new Blob([JSON.stringify(file, null, 2)], { type: "application/json" });
  downloadBlob(blob, proofFilename(file));
}

/** One hand's check: timing, the verifier's verdict per card, the caveat, the download. */
async function showProof(body, file, isCurrent, downloadSlot) {
  clear(body);
  downloadSlot.replaceChildren();
  const obs = file.client_observation ?? {};
  const n = file.commitment.hand_no ?? "";
  body.append(
    h("p.verify-hand", t(isCurrent ? "verify.hand_current" : "verify.hand_previous", { n })),
    h("p.verify-fp", t("verify.fingerprint", { fp: fingerprint(file.commitment.digest) })),
    h(
      `p.verify-timing.${obs.commitment_before_cards ? "before" : "midhand"}`,
      { dataset: { before: obs.commitment_before_cards ? "true" : "false" } },
      obs.commitment_before_cards ? t("verify.before") : t("verify.midhand"),
    ),
  );
  const status = h("p.verify-summary", { role: "status" }, t("verify.running"));
  // It scrolls: focusable, so a keyboard can scroll it too.
  const table = h("div.verify-cards", { tabIndex: 0, role: "region", "aria-label": t("verify.title") });
  const v2 = file.format === "pokerfair-proof/2";
  body.append(status, table, h("p.verify-caveat", t(v2 ? "verify.caveat_v2" : "verify.caveat")));
  const download = h(
    "button.primary",
    { type: "button", dataset: { verify: "download" }, onclick: () => downloadProof(file) },
    t("verify.download"),
  );
  body.dataset.hand = String(file.commitment.hand_no ?? "");
  body.dataset.current = isCurrent ? "true" : "false";
  if (!file.cards.length) {
    status.textContent = t("verify.no_proofs");
    return;
  }
  downloadSlot.append(download); // only a file with cards is worth saving
  const { whole, perCard: rows } = await runVerifier(file, file.commitment.digest);
  const signature = (whole.checks ?? []).find((c) => c.name === "signature");
  if (signature) {
    body.insertBefore(
      h("p.verify-signature", { dataset: { status: signature.status } }, t(`verify.sig.${signature.status}`)),
      table,
    );
  }
  if (v2) {
    const own = (whole.checks ?? []).find((c) => c.name === "own");
    const late = own?.detail?.includes("not revealed in time");
    const text = whole.contributed
      ? t("verify.contributed")
      : t("verify.not_contributed", { why: t(`verify.not_contributed_why.${late ? "late" : "absent"}`) });
    body.insertBefore(h("p.verify-contribution", { dataset: { contributed: String(Boolean(whole.contributed)) } }, text), table);
  }
  clear(table);
  for (const { card, ok, error } of rows) {
    table.append(
      h(
        `div.verify-row.${ok ? "ok" : "bad"}`,
        { dataset: { position: String(card.position), ok: ok ? "true" : "false" } },
        cardSvg(card.card, "small"),
        h("span.verify-role", t(`verify.role.${card.role}`)),
        h("span.verify-pos", `${t("verify.position")} ${card.position}`),
        h("span.verify-result", ok ? `✓ ${t("verify.ok")}` : `✗ ${t("verify.bad")}${error ? ` (${error})` : ""}`),
      ),
    );
  }
  const bad = rows.filter((r) => !r.ok).length;
  status.textContent = bad ? t("verify.summary_bad", { bad, n: rows.length }) : t("verify.summary_ok", { n: rows.length });
  status.dataset.ok = bad ? "false" : "true";
}

/**
 * The dialog over the proofs held when it opens (R-FD-03): this hand once it has cards, and
 * the hand before. They are copies, so a new hand starting meanwhile changes nothing here;
 * asking again picks up the newest.
 */
export async function openVerifyDialog(state) {
  const proofs = state.proofs();
  const body = h("div.verify-body");
  const dialog = h(
    "dialog.verify-dialog",
    { "aria-labelledby": "verify-title" },
    h("h2#verify-title", t("verify.title")),
  );
  const close = () => dialog.close();
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);

  if (!proofs.length) {
    dialog.append(body, h("div.dialog-buttons", h("button", { type: "button", onclick: close }, t("verify.close"))));
    body.append(h("p.verify-summary", t("verify.no_proofs")));
    dialog.showModal();
    return dialog;
  }
  let shown = 0;
  const downloadSlot = h("span.download-slot");
  const run = async (i) => {
    shown = i;
    for (const [k, b] of choices.entries()) b.setAttribute("aria-pressed", k === i ? "true" : "false");
    const slot = h("div.verify-proof");
    body.replaceChildren(slot);
    try {
      await showProof(slot, proofs[i].file, proofs[i].current, downloadSlot);
    } catch (err) {
      if (shown !== i) return;
      const status = slot.querySelector(".verify-summary");
      if (status) {
        status.textContent = t("verify.unavailable", { error: err.message ?? String(err) });
        status.dataset.ok = "false";
      }
    }
  };
  const choices = proofs.map((p, i) =>
    h(
      "button.verify-choice",
      { type: "button", dataset: { verifyHand: String(p.handNo), current: p.current ? "true" : "false" }, onclick: () => run(i) },
      t(p.current ? "verify.hand_current" : "verify.hand_previous", { n: p.handNo }),
    ),
  );
  if (proofs.length > 1) dialog.append(h("div.verify-choices", { role: "group", "aria-label": t("verify.which") }, choices));
  dialog.append(
    body,
    h("div.dialog-buttons", downloadSlot, h("button", { type: "button", dataset: { verify: "close" }, onclick: close }, t("verify.close"))),
  );
  dialog.showModal();
  await run(0);
  return dialog;
}
