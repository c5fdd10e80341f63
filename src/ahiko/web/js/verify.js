// pokerfair-proof/1 verifier for the browser ("Conferir cartas"): checks 1-5 of FAIRNESS.md
// with WebCrypto. Same checks, statuses and verdicts as `ahiko verify` and
// tools/verify_proof.py. The verdict reads "consistent with the commitment", never "fair".
//
//   import { verifyProof } from "./verify.js";
//   const r = await verifyProof(fileObjectOrText, { expectDigest, publicKeyHex });
//   r.ok, r.malformed, r.verdict, r.checks = [{name, number, status, detail}, ...]

import { allGames } from "./games.js";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const DECK_SIZE = 52;
const DEPTH = 6;
// The deal layouts of FAIRNESS.md, each as its game's definition commits to it (games.js,
// the server's ahiko/poker/games.py): hole cards per seat and board cards dealt round the
// table without burns, or a five-card hand and its draw's replacements after every hand.
// A board game with a second board (double board, second run-out) has a second layout:
// the same positions, then the second board's own cards (role board2) from the next one
// (ahiko/poker/layout.py SECOND_BOARD_LAYOUTS).
const SECOND_BOARD_LAYOUTS = { "holdem-noburn-v1": "holdem-noburn-2board-v1", "omaha4-noburn-v1": "omaha4-noburn-2board-v1" };
const LAYOUTS = Object.freeze(
  Object.fromEntries(
    allGames().flatMap((g) => {
      const lay = { hole: g.hole_cards, board: g.board_cards, draw: g.has_draw, board2: 0 };
      const second = SECOND_BOARD_LAYOUTS[g.layout];
      const entries = [[g.layout, Object.freeze(lay)]];
      if (second) entries.push([second, Object.freeze({ ...lay, board2: g.board_cards })]);
      return entries;
    }),
  ),
);
const ROLES = ["hole", "board", "showdown", "draw", "board2"];
export const CAVEAT_EN = "consistent with the commitment — not an audit of the shuffle";
export const CAVEAT_PT = "consistente com o compromisso — não é uma auditoria do embaralhamento";

export class Malformed extends Error {}
class Wrong extends Error {}

// ------------------------------------------------------------------ encodings and hashes
export const utf8 = (text) => new TextEncoder().encode(text);

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const u8 = (v) => Uint8Array.of(v);

export function u64(v) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(v));
  return out;
}

export function lp(text) {
  const raw = utf8(text);
  return concat(Uint8Array.of(raw.length >> 8, raw.length & 255), raw);
}

export async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

export const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

export function equal(a, b) {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export const ctxHash = (tableId, handNo) =>
  sha256(concat(utf8("pokerfair/v1/ctx\0"), lp(tableId), u64(handNo)));

export const leafHash = (ctx, position, card, salt) =>
  sha256(concat(u8(0), ctx, u8(position), u8(card), salt));

export const nodeHash = (left, right) => sha256(concat(u8(1), left, right));

export const padHash = (ctx, position) => sha256(concat(u8(2), ctx, u8(position)));

async function fold(leaf, position, path) {
  let running = leaf;
  for (let level = 0; level < path.length; level++) {
    running = (position >> level) & 1
      ? await nodeHash(path[level], running)
      : await nodeHash(running, path[level]);
  }
  return running;
}

export function commitmentDigest(c) {
  return sha256(
    concat(
      utf8("pokerfair/v1/commit\0"),
      lp(c.table_id),
      u64(c.hand_no),
      u8(c.deck_size),
      lp(c.layout),
      u8(c.button_seat),
      u8(c.dealt_seats.length),
      Uint8Array.from(c.dealt_seats),
      c.root,
      u64(c.committed_at_ms),
      c.prev,
    ),
  );
}

// ------------------------------------------------------------------ reading the file
export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

export function needObject(v, what) {
  if (!isObject(v)) throw new Malformed(`${what} must be a JSON object`);
  return v;
}

export function needList(v, what) {
  if (!Array.isArray(v)) throw new Malformed(`${what} must be a JSON array`);
  return v;
}

export function needStr(v, what) {
  if (typeof v !== "string") throw new Malformed(`${what} must be a string`);
  return v;
}

export function needInt(v, what, maximum = Number.MAX_SAFE_INTEGER) {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > maximum) {
    throw new Malformed(`${what} must be an integer from 0 to ${maximum}`);
  }
  return v;
}

export function needHex(v, what, size = null) {
  const text = needStr(v, what);
  if (text.length % 2 || !/^[0-9a-fA-F]*$/.test(text)) throw new Malformed(`${what} is not hex`);
  const raw = new Uint8Array(text.length / 2);
  for (let i = 0; i < raw.length; i++) raw[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  if (size !== null && raw.length !== size) throw new Malformed(`${what} must be ${size} bytes`);
  return raw;
}

function needCard(v) {
  const text = needStr(v, "cards[].card");
  if (text.length !== 2 || !RANKS.includes(text[0]) || !SUITS.includes(text[1])) {
    throw new Malformed(`cards[].card '${text}' is not a card like 'Ah'`);
  }
  return RANKS.indexOf(text[0]) * 4 + SUITS.indexOf(text[1]);
}

const cardText = (card) => RANKS[card >> 2] + SUITS[card & 3];
export const absent = (v) => v === undefined || v === null;

export function parse(input) {
  if (typeof input === "string") {
    try {
      return JSON.parse(input);
    } catch (e) {
      throw new Malformed(`not JSON: ${e.message}`);
    }
  }
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(input);
    } catch (e) {
      throw new Malformed(`not JSON: ${e.message}`);
    }
    return parse(text);
  }
  return input;
}

function read(input) {
  const top = needObject(parse(input), "the file");
  if (top.format !== "pokerfair-proof/1") throw new Malformed("format is not 'pokerfair-proof/1'");
  const c = needObject(top.commitment, "commitment");
  if (c.v !== "pokerfair/1") throw new Malformed("commitment.v is not 'pokerfair/1'");
  const seats = needList(c.dealt_seats, "commitment.dealt_seats");
  const com = {
    table_id: needStr(c.table_id, "commitment.table_id"),
    hand_no: needInt(c.hand_no, "commitment.hand_no"),
    deck_size: needInt(c.deck_size, "commitment.deck_size", 255),
    layout: needStr(c.layout, "commitment.layout"),
    button_seat: needInt(c.button_seat, "commitment.button_seat", 255),
    dealt_seats: seats.map((s) => needInt(s, "commitment.dealt_seats[]", 255)),
    root: needHex(c.root, "commitment.root", 32),
    committed_at_ms: needInt(c.committed_at_ms, "commitment.committed_at_ms"),
    prev: needHex(c.prev, "commitment.prev", 32),
    digest: needHex(c.digest, "commitment.digest", 32),
    sig: absent(c.sig) ? null : needHex(c.sig, "commitment.sig", 64),
  };
  if (seats.length > 255) throw new Malformed("commitment.dealt_seats has more than 255 seats");
  for (const name of ["table_id", "layout"]) {
    try {
      encodeURIComponent(com[name]); // throws on lone surrogates, as Python's encoder does
    } catch {
      throw new Malformed(`commitment.${name} is not valid Unicode`);
    }
    if (utf8(com[name]).length > 0xffff) throw new Malformed(`commitment.${name} is too long to encode`);
  }
  const draws = [];
  if (!absent(top.public) && !absent(needObject(top.public, "public").draws)) {
    for (const pair of needList(top.public.draws, "public.draws")) {
      needList(pair, "public.draws[]");
      if (pair.length !== 2) throw new Malformed("public.draws[] must be [seat, count] pairs");
      draws.push([needInt(pair[0], "public.draws seat", 255), needInt(pair[1], "public.draws count")]);
    }
  }
  const cards = needList(top.cards, "cards").map((entry) => {
    const e = needObject(entry, "cards[]");
    return {
      role: needStr(e.role, "cards[].role"),
      seat: absent(e.seat) ? null : needInt(e.seat, "cards[].seat", 255),
      k: needInt(e.k, "cards[].k"),
      position: needInt(e.position, "cards[].position"),
      card: needCard(e.card),
      salt: needHex(e.salt, "cards[].salt"),
      path: needList(e.path, "cards[].path").map((h) => needHex(h, "cards[].path[]")),
    };
  });
  let observation = null;
  if (!absent(top.client_observation)) {
    observation = needObject(top.client_observation, "client_observation");
    if (typeof observation.commitment_before_cards !== "boolean") {
      throw new Malformed("client_observation.commitment_before_cards must be true or false");
    }
    for (const name of ["commitment_received_at", "first_card_at"]) {
      if (!absent(observation[name])) needInt(observation[name], name);
    }
  }
  return { com, draws, cards, observation };
}

// ------------------------------------------------------------------ layouts (FAIRNESS.md)
function checkShape(com, draws) {
  const seats = com.dealt_seats;
  const n = seats.length;
  if (com.deck_size !== DECK_SIZE) throw new Wrong(`deck_size is ${com.deck_size}, not ${DECK_SIZE}`);
  const lay = layoutOf(com);
  if (n < 2) throw new Wrong(`a deal needs at least 2 seats, got ${n}`);
  if (new Set(seats).size !== n) throw new Wrong(`dealt seats repeat: [${seats.join(", ")}]`);
  if (lay.board) {
    if (draws.length) throw new Wrong(`a ${com.layout} deal has no draw`);
    if (lay.hole * n + lay.board + lay.board2 > DECK_SIZE) throw new Wrong(`${n} seats do not fit in the deck`);
    return;
  }
  const order = draws.map(([seat]) => seat);
  if (new Set(order).size !== order.length) throw new Wrong(`a seat draws twice: [${order.join(", ")}]`);
  if (order.some((s) => !seats.includes(s))) throw new Wrong("a drawing seat was not dealt in");
  const inDealOrder = seats.filter((s) => order.includes(s));
  if (!equal(inDealOrder, order)) throw new Wrong("the draw order is not the deal order");
  if (lay.hole * n + draws.reduce((t, [, count]) => t + count, 0) > DECK_SIZE) {
    throw new Wrong("the hands and replacements do not fit in the deck");
  }
}

function layoutOf(com) {
  const lay = Object.hasOwn(LAYOUTS, com.layout) ? LAYOUTS[com.layout] : null;
  if (!lay) throw new Wrong(`unknown layout '${com.layout}'`);
  return lay;
}

function layoutPosition(com, draws, role, seat, k) {
  const seats = com.dealt_seats;
  const n = seats.length;
  const lay = layoutOf(com);
  if (role === "board" || role === "board2") {
    const second = role === "board2";
    if (!lay.board || (second && !lay.board2)) {
      throw new Wrong(`layout ${com.layout} has no ${second ? "second " : ""}board`);
    }
    if (seat !== null) throw new Wrong("a board card belongs to no seat");
    if (k >= lay.board) throw new Wrong(`board card ${k} is outside the layout`);
    return lay.hole * n + (second ? lay.board : 0) + k;
  }
  if (seat === null || !seats.includes(seat)) throw new Wrong(`seat ${seat} was not dealt in`);
  const j = seats.indexOf(seat);
  if (role === "hole" || role === "showdown") {
    if (k >= lay.hole) throw new Wrong(`hole card ${k} is outside the layout`);
    return k * n + j;
  }
  if (!lay.draw) throw new Wrong(`layout ${com.layout} has no draw`);
  let before = 0;
  for (const [drawingSeat, count] of draws) {
    if (drawingSeat === seat) {
      if (k >= count) throw new Wrong(`seat ${seat} drew ${count} cards, not a card ${k}`);
      return lay.hole * n + before + k;
    }
    before += count;
  }
  throw new Wrong(`seat ${seat} is not in the public draw order`);
}

// pokerfair/2 gives ``pi``: position p must open committed leaf pi[p] (card.leaf)
async function openingProblem(com, draws, ctx, card, pi) {
  if (!ROLES.includes(card.role)) return `unknown role '${card.role}'`;
  let position;
  try {
    position = layoutPosition(com, draws, card.role, card.seat, card.k);
  } catch (e) {
    if (e instanceof Wrong) return e.message;
    throw e;
  }
  if (card.position !== position) return `position ${card.position}, but the layout puts it at ${position}`;
  const leaf = pi ? pi[position] : position;
  if (pi && card.leaf !== leaf) return `opens leaf ${card.leaf}, but the mix maps position ${position} to leaf ${leaf}`;
  if (card.salt.length !== 32) return `salt is ${card.salt.length} bytes, not 32`;
  if (card.path.length !== DEPTH) return `path has ${card.path.length} siblings, not ${DEPTH}`;
  if (card.path.some((h) => h.length !== 32)) return "a path sibling is not 32 bytes";
  const root = await fold(await leafHash(ctx, leaf, card.card, card.salt), leaf, card.path);
  return equal(root, com.root) ? "" : "does not fold to the committed root";
}

export async function signatureOutcome(digest, sig, publicKey) {
  if (publicKey === null) {
    const why = sig === null ? "the file carries no signature" : "no public key was given";
    return ["not_checked", `signature not checked: ${why}`];
  }
  if (sig === null) return ["fail", "a public key was given but the file has no signature"];
  let key;
  try {
    key = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  } catch (e) {
    if (e && e.name === "NotSupportedError") {
      return ["not_checked", "signature NOT checked: this browser has no Ed25519 in WebCrypto"];
    }
    return ["fail", "the public key is not a valid Ed25519 key"];
  }
  const valid = await crypto.subtle.verify({ name: "Ed25519" }, key, sig, digest);
  return valid
    ? ["pass", "Ed25519 signature of the digest is valid for the given key"]
    : ["fail", "Ed25519 signature does not match the digest and key"];
}

function describe(card) {
  const owner = card.seat === null ? "" : ` seat ${card.seat}`;
  return `${card.role}${owner} k=${card.k} @${card.position} ${cardText(card.card)}`;
}

export function optionalHex(value, name) {
  if (absent(value) || value === "") return null;
  return needHex(value, name, 32);
}

// ------------------------------------------------------------------ the checks
export async function verifyProof(fileObject, { expectDigest = null, publicKeyHex = null } = {}) {
  let top = null;
  try {
    top = parse(fileObject);
  } catch {
    // not JSON: reported as malformed below
  }
  if (isObject(top) && top.format === "pokerfair-proof/2") {
    const { verifyProofV2 } = await import("./verify2.js");
    return verifyProofV2(top, { expectDigest, publicKeyHex });
  }
  return verifyParsed(fileObject, { expectDigest, publicKeyHex });
}

// The checks of pokerfair/1; pokerfair/2 (verify2.js) passes ``v2`` to add checks 6-10 after
// the signature and to open each card at the leaf the mix gives.
export async function verifyParsed(fileObject, { expectDigest = null, publicKeyHex = null, v2 = null } = {}) {
  const checks = [];
  const add = (name, number, status, detail) => checks.push({ name, number, status, detail });
  const result = (verdict, cards = [], observation = "") => ({
    ok: verdict === "consistent",
    malformed: verdict === "malformed",
    verdict,
    summary:
      verdict === "consistent"
        ? (v2 ? v2.caveat : `${CAVEAT_EN} (${CAVEAT_PT})`)
        : verdict === "malformed"
          ? "malformed proof file — nothing was verified"
          : "INCONSISTENT with the commitment",
    checks,
    cards,
    observation,
  });
  let parsed;
  const expected = optionalHex(expectDigest, "expectDigest");
  const publicKey = optionalHex(publicKeyHex, "publicKeyHex");
  try {
    if (v2 && v2.error) throw new Malformed(v2.error);
    parsed = read(fileObject);
  } catch (e) {
    if (!(e instanceof Malformed)) throw e;
    add("format", 1, "malformed", e.message);
    for (const [name, number] of [["digest", 2], ["expected_digest", 2], ["signature", 2], ["openings", 3], ["distinct", 4]]) {
      add(name, number, "skipped", "the file could not be read");
    }
    return result("malformed");
  }
  const { com, draws, cards, observation } = parsed;
  let shapeOk = true;
  try {
    checkShape(com, draws);
    add("format", 1, "pass", `pokerfair/1, ${com.layout}, ${com.dealt_seats.length} seats [${com.dealt_seats.join(", ")}]`);
  } catch (e) {
    if (!(e instanceof Wrong)) throw e;
    shapeOk = false;
    add("format", 1, "fail", e.message);
  }
  if (shapeOk && v2 && v2.hand_no !== com.hand_no) {
    shapeOk = false;
    checks[0] = { name: "format", number: 1, status: "fail", detail: "the contributors are for another hand" };
  }
  const digest = await commitmentDigest(com);
  if (equal(digest, com.digest)) add("digest", 2, "pass", "recomputed digest equals the file's digest");
  else add("digest", 2, "fail", `recomputed digest ${toHex(digest)} differs from the file's ${toHex(com.digest)}`);
  if (expected === null) add("expected_digest", 2, "not_checked", "no digest recorded at receipt was given");
  else if (equal(digest, expected)) add("expected_digest", 2, "pass", "digest equals the one recorded when the commitment arrived");
  else add("expected_digest", 2, "fail", `digest differs from the one recorded at receipt (${toHex(expected)})`);
  add("signature", 2, ...(await signatureOutcome(digest, com.sig, publicKey)));
  const pi = v2 ? await v2.check(com, digest, publicKey, add) : null;
  if (shapeOk && (!v2 || pi)) {
    const ctx = await ctxHash(com.table_id, com.hand_no);
    const problems = [];
    for (const [index, card] of cards.entries()) {
      if (v2) card.leaf = v2.leaves[index];
      const problem = await openingProblem(com, draws, ctx, card, pi);
      if (problem) problems.push(`card ${index} (${describe(card)}): ${problem}`);
    }
    if (problems.length) add("openings", 3, "fail", problems.join("; "));
    else add("openings", 3, "pass", `${cards.length} card(s) open to the root at their layout positions`);
    const cardAt = new Map();
    const positionOf = new Map();
    const dupes = [];
    for (const card of cards) {
      if (!cardAt.has(card.position)) cardAt.set(card.position, card.card);
      if (cardAt.get(card.position) !== card.card) dupes.push(`position ${card.position} opens to two cards`);
      if (!positionOf.has(card.card)) positionOf.set(card.card, card.position);
      if (positionOf.get(card.card) !== card.position) dupes.push(`${cardText(card.card)} opens at two positions`);
    }
    add("distinct", 4, dupes.length ? "fail" : "pass", dupes.join("; ") || "no position or card is opened twice");
  } else {
    add("openings", 3, "skipped", "the deal's shape or the contributor set failed");
    add("distinct", 4, "skipped", "the deal's shape or the contributor set failed");
  }
  const verdict = checks.some((c) => c.status === "fail") ? "inconsistent" : "consistent";
  let seen = "no client observation recorded";
  if (observation !== null) {
    seen = observation.commitment_before_cards
      ? "this browser received the commitment before the first card"
      : "this browser joined with the hand already under way (commitment not seen first)";
  }
  return result(verdict, cards.map(describe), seen);
}
