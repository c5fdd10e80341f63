// pokerfair-proof/2 verifier for the browser (docs/fairness.md): the pokerfair/1 checks of
// verify.js with each card opened at the leaf the mix gives, and checks 6-10: the signed
// contributor set, the reveals, the mix and transcript, the receipts, and whether this
// browser's own secret shaped the deal ("seu navegador contribuiu para este embaralhamento").
// Same statuses and verdicts as `ahiko verify` and tools/verify_proof.py. The verdict says
// "consistent with the commitment and shaped by the players' secrets", never "provably fair".

import {
  Malformed, absent, concat, equal, isObject, lp, needHex, needInt, needList, needObject,
  needStr, sha256, signatureOutcome, toHex, u64, u8, utf8, verifyParsed,
} from "./verify.js";

export const SHAPED_EN = "consistent with the commitment and shaped by the players' secrets";
export const SHAPED_PT = "consistente com o compromisso e moldado pelos segredos dos jogadores";
const UNSHAPED = "consistent with the commitment — no player's secret was revealed, not an audit "
  + "(consistente com o compromisso — nenhum segredo de jogador foi revelado)";
export const CONTRIBUTED_PT = "seu navegador contribuiu para este embaralhamento";
export const CONTRIBUTED_EN = "your browser contributed to this shuffle";

const tagged = (tag, ...parts) => sha256(concat(utf8(`pokerfair/v2/${tag}\0`), ...parts));

export const seatCommitment = (tableId, handNo, seat, secret) =>
  tagged("seat", lp(tableId), u64(handNo), u8(seat), secret);

const ascending = (seats) => seats.every((s, i) => i === 0 || seats[i - 1] < s);

// Fisher-Yates from the mix's byte stream: each index from a byte masked to the smallest power
// of two covering it, kept only when it is not above it. No remainder, no float.
export async function permutation(mix, size = 52) {
  const bytes = [];
  let block = 0;
  const next = async () => {
    if (!bytes.length) {
      const counter = new Uint8Array(4);
      new DataView(counter.buffer).setUint32(0, block++);
      bytes.push(...(await tagged("stream", mix, counter)));
    }
    return bytes.shift();
  };
  const pi = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const mask = (1 << i.toString(2).length) - 1;
    let x = (await next()) & mask;
    while (x > i) x = (await next()) & mask;
    [pi[i], pi[x]] = [pi[x], pi[i]];
  }
  return pi;
}

function tuples(value, what, ...readers) {
  return needList(value, what).map((items) => {
    if (needList(items, `${what}[]`).length !== readers.length) {
      throw new Malformed(`${what}[] must be arrays of ${readers.length} items`);
    }
    return readers.map((read, i) => read(items[i], `${what}[]`));
  });
}

const seatOf = (v, what) => needInt(v, what, 255);
const hash = (v, what) => needHex(v, what, 32);
const sig = (v, what) => needHex(v, what, 64);
const optionalSig = (v, what) => (absent(v) ? null : sig(v, what));

function kind(v, what) {
  if (needStr(v, what) !== "secret" && v !== "fallback") {
    throw new Malformed(`${what} kind '${v}' is not 'secret' or 'fallback'`);
  }
  return v;
}

export function readV2(top) {
  const cards = needList(top.cards, "cards").map((e) => needObject(e, "cards[]"));
  const who = needObject(top.contributors, "contributors");
  if (who.v !== "pokerfair/2") throw new Malformed("contributors.v is not 'pokerfair/2'");
  const entries = tuples(who.seats, "contributors.seats", seatOf, hash);
  if (entries.length > 255) throw new Malformed("contributors.seats has more than 255 seats");
  const transcript = needObject(top.transcript, "transcript");
  let own = null;
  if (!absent(top.own)) {
    needObject(top.own, "own");
    own = [seatOf(top.own.seat, "own.seat"), hash(top.own.secret, "own.secret")];
  }
  if (!absent(top.public) && !absent(needObject(top.public, "public").table)) {
    needStr(top.public.table, "public.table");
  }
  return {
    leaves: cards.map((e) => seatOf(e.leaf, "cards[].leaf")),
    hand_no: needInt(who.hand_no, "contributors.hand_no"),
    recorded: needInt(who.recorded_in_hand, "contributors.recorded_in_hand"),
    entries,
    digest: hash(who.digest, "contributors.digest"),
    sig: optionalSig(who.sig, "contributors.sig"),
    reveals: tuples(top.reveals, "reveals", seatOf, kind, hash).map(([s, k, v]) => [s, k === "secret", v]),
    mix: hash(top.mix, "mix"),
    transcript: hash(transcript.digest, "transcript.digest"),
    transcriptSig: optionalSig(transcript.sig, "transcript.sig"),
    receipts: absent(top.receipts) ? [] : tuples(top.receipts, "receipts", seatOf, sig),
    own,
    base: {
      ...top,
      format: "pokerfair-proof/1",
      cards: cards.map(({ leaf, ...rest }) => rest), // eslint-disable-line no-unused-vars
    },
  };
}

// false only when a key was given and the signature is missing or does not match
const signed = async (publicKey, digest, signature) =>
  publicKey === null || (await signatureOutcome(digest, signature, publicKey))[0] !== "fail";

async function checkV2(v2, com, digest, publicKey, add) {
  const seats = v2.entries.map(([seat]) => seat);
  if (!ascending(seats)) {
    add("contributors", 6, "fail", `seats must be strictly ascending, got [${seats.join(", ")}]`);
    for (const [name, number] of [["reveals", 7], ["mix", 8], ["receipts", 9], ["own", 10]]) {
      add(name, number, "skipped", "the contributor set failed check 6");
    }
    return null;
  }
  const judge = (name, number, bad, good) => add(name, number, bad.length ? "fail" : "pass", bad.join("; ") || good);
  const who = await tagged("contributors", lp(com.table_id), u64(v2.hand_no), u64(v2.recorded),
    u8(v2.entries.length), ...v2.entries.map(([seat, c]) => concat(u8(seat), c)));
  let bad = equal(who, v2.digest) ? [] : ["recomputed contributors digest differs"];
  if (!(await signed(publicKey, who, v2.sig))) bad.push("the contributor set's signature is missing or does not match");
  judge("contributors", 6, bad, `seats [${seats.join(", ")}]`);
  const committed = new Map(v2.entries);
  const revealSeats = v2.reveals.map(([seat]) => seat);
  bad = equal(revealSeats, seats) ? [] : [`the reveals are for seats [${revealSeats}], not [${seats}]`];
  for (const [seat, revealed, value] of v2.reveals) {
    const c = committed.get(seat);
    if (!c) continue;
    const expected = revealed ? await seatCommitment(com.table_id, com.hand_no, seat, value) : await tagged("fallback", c);
    if (!equal(revealed ? expected : value, revealed ? c : expected)) {
      bad.push(revealed ? `seat ${seat}'s secret does not open its commitment` : `seat ${seat}'s fallback is not the one its commitment fixes`);
    }
  }
  judge("reveals", 7, bad, "every value opens");
  const ordered = ascending(revealSeats) ? v2.reveals : [];
  const mix = await tagged("mix", digest, who, u8(ordered.length),
    ...ordered.map(([s, r, v]) => concat(u8(s), u8(r ? 1 : 0), v)));
  const transcript = await tagged("transcript", digest, who, mix);
  bad = equal(mix, v2.mix) ? [] : [`recomputed mix ${toHex(mix)} differs from the file's`];
  if (!equal(transcript, v2.transcript)) bad.push("the transcript digest does not bind this commitment, set and mix");
  if (!(await signed(publicKey, transcript, v2.transcriptSig))) bad.push("the transcript's signature is missing or does not match");
  judge("mix", 8, bad, "mix and transcript recomputed");
  const revealedSeats = new Set(v2.reveals.filter(([, r]) => r).map(([s]) => s));
  bad = [];
  for (const [seat, signature] of v2.receipts) {
    if (!committed.has(seat)) {
      bad.push(`a receipt for seat ${seat}, which is not a contributor`);
      continue;
    }
    const receipt = await tagged("receipt", digest, who, u8(seat), committed.get(seat));
    if (!(await signed(publicKey, receipt, signature))) bad.push(`seat ${seat}'s receipt does not match this commitment and set`);
    if (!revealedSeats.has(seat)) bad.push(`seat ${seat}'s reveal was received but replaced by the fallback`);
  }
  const unchecked = !v2.receipts.length || publicKey === null;
  add("receipts", 9, bad.length ? "fail" : unchecked ? "not_checked" : "pass", bad.join("; ") || "receipts checked");
  add("own", 10, ...(await ownOutcome(v2, com, committed)));
  return permutation(mix);
}

async function ownOutcome(v2, com, committed) {
  if (v2.own === null) return ["not_checked", "this file holds no secret of its own"];
  const [seat, secret] = v2.own;
  if (!committed.has(seat)) return ["not_checked", `seat ${seat}'s browser is not among the contributors`];
  if (!equal(await seatCommitment(com.table_id, com.hand_no, seat, secret), committed.get(seat))) {
    return ["fail", `the set holds another commitment for seat ${seat} than this browser's`];
  }
  const mine = v2.reveals.find(([s, r]) => s === seat && r);
  if (!mine) return ["not_checked", "this browser's secret was not revealed in time: fallback used"];
  if (!equal(mine[2], secret)) return ["fail", "the set holds another secret for this browser"];
  return ["pass", `${CONTRIBUTED_EN} (${CONTRIBUTED_PT})`];
}

export async function verifyProofV2(top, { expectDigest = null, publicKeyHex = null } = {}) {
  let v2;
  try {
    v2 = readV2(needObject(top, "the file"));
  } catch (e) {
    if (!(e instanceof Malformed)) throw e;
    return verifyParsed(top, { expectDigest, publicKeyHex, v2: { error: e.message } });
  }
  const shaped = v2.reveals.some(([, revealed]) => revealed);
  const hooks = {
    hand_no: v2.hand_no,
    leaves: v2.leaves,
    caveat: shaped ? `${SHAPED_EN} (${SHAPED_PT})` : UNSHAPED,
    check: (com, digest, publicKey, add) => checkV2(v2, com, digest, publicKey, add),
  };
  const result = await verifyParsed(v2.base, { expectDigest, publicKeyHex, v2: hooks });
  const own = result.checks.find((c) => c.name === "own");
  result.contributed = own !== undefined && own.status === "pass";
  result.ownDetail = own ? own.detail : "";
  return result;
}

export const isV2 = (doc) => isObject(doc) && doc.format === "pokerfair-proof/2";
