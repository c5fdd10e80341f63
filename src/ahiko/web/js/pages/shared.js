// A shared hand: anyone with the link, signed in or not, steps through what was
// public — board, actions, hands shown (none in five-card draw, R-DR-07 D), the sharer's own
// cards if they chose — and sees every card's proof badge, checked here in the browser against
// the signed commitment (verify.js), plus the rabbit hunt's cards when the link has them.

import { api } from "../api.js";
import { cardLabel, cardSvg } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { verifyProof } from "../verify.js";
import { replayer } from "./hands.js";

const FILES = [
  ["pokerstars", "hands.pokerstars"],
  ["phh", "hands.phh"],
  ["proof", "hands.proof"],
];

async function serverKey() {
  try {
    const data = await api.publicKey();
    return typeof data === "string" ? data : (data?.public_key ?? null);
  } catch {
    return null;
  }
}

/** Each opened card of `proof`, checked alone against the commitment: [{card, ok}]. */
export async function cardBadges(proof, publicKeyHex) {
  const out = [];
  for (const card of proof.cards ?? []) {
    const alone = { ...proof, cards: [card] };
    const result = await verifyProof(alone, { publicKeyHex });
    const signed = result.checks.find((c) => c.name === "signature");
    out.push({ card, ok: result.ok && signed?.status === "pass" });
  }
  return out;
}

function badge(entry) {
  const role = entry.card.role;
  return h(
    `li.proof-card.${entry.ok ? "verified" : "unverified"}`,
    { dataset: { card: entry.card.card, role, verified: entry.ok ? "true" : "false" } },
    cardSvg(entry.card.card),
    h("span.proof-badge", { title: t(entry.ok ? "shared.badge_ok" : "shared.badge_bad") }, entry.ok ? "✓" : "✗"),
    h("span.proof-role", t(`shared.role.${role}`)),
  );
}

export function sharedPage(main, token) {
  const status = h("p.hint", { role: "status" }, t("shared.loading"));
  main.append(h("h1", t("shared.title")), status);

  async function show(doc) {
    status.textContent = t("shared.by", { name: doc.sharer?.name ?? "" });
    const files = h(
      "p.downloads",
      FILES.map(([format, key]) =>
        h("a.download", { href: api.sharedDownloadUrl(token, format), download: "", dataset: { format } }, t(key)),
      ),
    );
    const rabbit = doc.rabbit?.length
      ? h(
          "section.rabbit",
          { dataset: { rabbit: doc.rabbit.join(" ") } },
          h("h2", t("shared.rabbit")),
          h("p", doc.rabbit.map(cardLabel).join(", ")),
        )
      : null;
    const verdict = h("p.proof-verdict", { role: "status" }, t("shared.checking"));
    const list = h("ul.proof-cards");
    main.append(
      replayer(
        doc,
        () => {
          location.hash = "#/lobby";
        },
        0,
        { mine: false },
      ),
      rabbit ?? "",
      h("section.proof", h("h2", t("shared.proof")), verdict, list, h("p.hint", t("shared.caveat"))),
      files,
    );
    const key = await serverKey();
    const whole = await verifyProof(doc.proof, { publicKeyHex: key });
    const badges = await cardBadges(doc.proof, key);
    list.append(...badges.map(badge));
    const all = whole.ok && badges.every((b) => b.ok);
    verdict.textContent = all ? t("shared.all_ok", { n: badges.length }) : t("shared.some_bad");
    verdict.dataset.verdict = all ? "consistent" : "inconsistent";
  }

  api
    .shared(token)
    .then(show)
    .catch((err) => {
      status.textContent = err.status === 404 ? t("shared.unknown") : t("error.generic", { message: err.message });
    });
  return {};
}
