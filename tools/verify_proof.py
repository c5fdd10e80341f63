#!/usr/bin/env python3
"""Check a pokerfair-proof/1 or /2 file (an Ahiko "Conferir cartas" download) yourself.

    python3 verify_proof.py FILE [--expect-digest HEX] [--pubkey HEX] [--json]

One file, Python 3.9+ standard library only: read every line before running it. Ed25519
signatures are checked only if `cryptography` is installed; otherwise it says they were NOT.
Checks (docs/fairness.md): 1 format, layout, seats; 2 the commitment's digest (and the one you
recorded, and its signature); 3 each card's deal position and its path to the Merkle root (in
/2 at the leaf the mix gives); 4 no position or card opened twice; 6-10 (/2) the contributor
set, the reveals, the mix and transcript, the receipts, your browser's own secret. The verdict
says "consistent with the commitment" (in /2 "and shaped by the players' secrets"), never
"fair". Exit codes: 0 consistent, 1 inconsistent, 2 malformed file (or bad arguments).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
DEPTH = 6
HOLDEM, DRAW, OMAHA = "holdem-noburn-v1", "draw5-v1", "omaha4-noburn-v1"
# board layouts: hole cards a seat (k*n + j), five board cards, then (-2board-) role board2
SECOND_BOARD_LAYOUTS = {"holdem-noburn-2board-v1": 2, "omaha4-noburn-2board-v1": 4}
BOARD_LAYOUT_HOLE_CARDS = {HOLDEM: 2, OMAHA: 4, **SECOND_BOARD_LAYOUTS}
ROLES = ("hole", "board", "showdown", "draw", "board2")
MAX_SAFE_INTEGER = 2**53 - 1
CAVEAT = (
    "consistent with the commitment — not an audit of the shuffle "
    "(consistente com o compromisso — não é uma auditoria do embaralhamento)"
)
SHAPED = (
    "consistent with the commitment and shaped by the players' secrets "
    "(consistente com o compromisso e moldado pelos segredos dos jogadores)"
)
UNSHAPED = (
    "consistent with the commitment — no player's secret was revealed, not an audit "
    "(consistente com o compromisso — nenhum segredo de jogador foi revelado)"
)

SEEN = {
    True: "this browser received the commitment before the first card",
    False: "this browser joined with the hand already under way (commitment not seen first)",
}
NAMES = (("format", 1), ("digest", 2), ("expected_digest", 2), ("signature", 2),
         ("openings", 3), ("distinct", 4))  # fmt: skip


class Malformed(Exception):
    """The file cannot be read: exit 2."""


class Wrong(Exception):
    """Read, but not what the commitment fixes: exit 1."""


# ---------------------------------------------------------------- encodings and hashes
def sha256(data):
    return hashlib.sha256(data).digest()


def u8(v):
    return v.to_bytes(1, "big")


def u64(v):
    return v.to_bytes(8, "big")


def lp(text):
    raw = text.encode("utf-8")
    return len(raw).to_bytes(2, "big") + raw


def ctx_hash(table_id, hand_no):
    return sha256(b"pokerfair/v1/ctx\0" + lp(table_id) + u64(hand_no))


def leaf_hash(ctx, position, card, salt):
    return sha256(b"\x00" + ctx + u8(position) + u8(card) + salt)


def node_hash(left, right):
    return sha256(b"\x01" + left + right)


def fold(leaf, position, path):
    for level, sibling in enumerate(path):
        right = (position >> level) & 1  # the running hash is the right child here
        leaf = node_hash(sibling, leaf) if right else node_hash(leaf, sibling)
    return leaf


def digest_of(c):
    seats = b"".join(u8(s) for s in c["dealt_seats"])
    return sha256(b"pokerfair/v1/commit\0" + lp(c["table_id"]) + u64(c["hand_no"])
                  + u8(c["deck_size"]) + lp(c["layout"]) + u8(c["button_seat"])
                  + u8(len(c["dealt_seats"])) + seats + c["root"] + u64(c["committed_at_ms"])
                  + c["prev"])  # fmt: skip


# ---------------------------------------------------------------- reading the file
def need_object(v, what):
    if not isinstance(v, dict):
        raise Malformed(what + " must be a JSON object")
    return v


def need_list(v, what):
    if not isinstance(v, list):
        raise Malformed(what + " must be a JSON array")
    return v


def need_str(v, what):
    if not isinstance(v, str):
        raise Malformed(what + " must be a string")
    return v


def need_int(v, what, maximum=MAX_SAFE_INTEGER):
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= maximum:
        raise Malformed(f"{what} must be an integer from 0 to {maximum}")
    return v


def need_hex(v, what, size=None):
    text = need_str(v, what)
    if len(text) % 2 or any(ch not in "0123456789abcdefABCDEF" for ch in text):
        raise Malformed(what + " is not hex")
    raw = bytes.fromhex(text)
    if size is not None and len(raw) != size:
        raise Malformed(f"{what} must be {size} bytes")
    return raw


def need_seat(v, what):
    return need_int(v, what, 255)


def need_tuples(v, what, *readers):
    """A JSON array of arrays, each of len(readers) items read in turn."""
    result = []
    for items in need_list(v, what):
        if len(need_list(items, what + "[]")) != len(readers):
            raise Malformed(f"{what}[] must be arrays of {len(readers)} items")
        result.append(tuple(readers[i](items[i], what + "[]") for i in range(len(readers))))
    return result


def need_card(v):
    text = need_str(v, "cards[].card")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise Malformed(f"cards[].card {text!r} is not a card like 'Ah'")
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def card_text(card):
    return RANKS[card >> 2] + SUITS[card & 3]


def reject_constant(name):
    raise ValueError(name + " is not JSON")


def parse(raw):
    try:
        top = json.loads(raw, parse_constant=reject_constant)
    except ValueError as exc:  # includes UnicodeDecodeError
        raise Malformed(f"not JSON: {exc}") from None
    return need_object(top, "the file")


def read(top):
    if top.get("format") != "pokerfair-proof/1":
        raise Malformed("format is not 'pokerfair-proof/1'")
    c = need_object(top.get("commitment"), "commitment")
    if c.get("v") != "pokerfair/1":
        raise Malformed("commitment.v is not 'pokerfair/1'")
    seats = need_list(c.get("dealt_seats"), "commitment.dealt_seats")
    com = {
        "table_id": need_str(c.get("table_id"), "commitment.table_id"),
        "hand_no": need_int(c.get("hand_no"), "commitment.hand_no"),
        "deck_size": need_int(c.get("deck_size"), "commitment.deck_size", 255),
        "layout": need_str(c.get("layout"), "commitment.layout"),
        "button_seat": need_int(c.get("button_seat"), "commitment.button_seat", 255),
        "dealt_seats": [need_int(s, "commitment.dealt_seats[]", 255) for s in seats],
        "root": need_hex(c.get("root"), "commitment.root", 32),
        "committed_at_ms": need_int(c.get("committed_at_ms"), "commitment.committed_at_ms"),
        "prev": need_hex(c.get("prev"), "commitment.prev", 32),
        "digest": need_hex(c.get("digest"), "commitment.digest", 32),
        "sig": None if c.get("sig") is None else need_hex(c["sig"], "commitment.sig", 64),
    }
    if len(seats) > 255:
        raise Malformed("commitment.dealt_seats has more than 255 seats")
    for name in ("table_id", "layout"):
        try:
            if len(com[name].encode("utf-8")) > 0xFFFF:
                raise Malformed(f"commitment.{name} is too long to encode")
        except UnicodeEncodeError:
            raise Malformed(f"commitment.{name} is not valid Unicode") from None
    draws = []
    public = top.get("public")
    if public is not None and need_object(public, "public").get("draws") is not None:
        draws = need_tuples(public["draws"], "public.draws", need_seat, need_int)
    cards = []
    for entry in need_list(top.get("cards"), "cards"):
        e = need_object(entry, "cards[]")
        cards.append(
            {
                "role": need_str(e.get("role"), "cards[].role"),
                "seat": None if e.get("seat") is None else need_int(e["seat"], "cards[].seat", 255),
                "k": need_int(e.get("k"), "cards[].k"),
                "position": need_int(e.get("position"), "cards[].position"),
                "card": need_card(e.get("card")),
                "salt": need_hex(e.get("salt"), "cards[].salt"),
                "path": [
                    need_hex(h, "cards[].path[]") for h in need_list(e.get("path"), "cards[].path")
                ],
            }
        )
    observation = top.get("client_observation")
    if observation is not None:
        o = need_object(observation, "client_observation")
        if not isinstance(o.get("commitment_before_cards"), bool):
            raise Malformed("client_observation.commitment_before_cards must be true or false")
        for name in ("commitment_received_at", "first_card_at"):
            if o.get(name) is not None:
                need_int(o[name], name)
    return com, draws, cards, observation


# ---------------------------------------------------------------- layouts (FAIRNESS.md)
def check_shape(com, draws):
    layout, seats = com["layout"], com["dealt_seats"]
    n = len(seats)
    if com["deck_size"] != DECK_SIZE:
        raise Wrong(f"deck_size is {com['deck_size']}, not {DECK_SIZE}")
    if layout not in (DRAW, *BOARD_LAYOUT_HOLE_CARDS):
        raise Wrong(f"unknown layout {layout!r}")
    if n < 2:
        raise Wrong(f"a deal needs at least 2 seats, got {n}")
    if len(set(seats)) != n:
        raise Wrong(f"dealt seats repeat: {seats}")
    if layout in BOARD_LAYOUT_HOLE_CARDS:
        if draws:
            raise Wrong(f"a {layout} deal has no draw")
        if BOARD_LAYOUT_HOLE_CARDS[layout] * n + 5 + 5 * (layout in SECOND_BOARD_LAYOUTS) > 52:
            raise Wrong(f"{n} seats do not fit in the deck")
        return
    order = [seat for seat, _ in draws]
    if len(set(order)) != len(order):
        raise Wrong(f"a seat draws twice: {order}")
    if any(seat not in seats for seat in order):
        raise Wrong(f"a drawing seat was not dealt in: {order}")
    if [s for s in seats if s in order] != order:
        raise Wrong(f"the draw order {order} is not the deal order {seats}")
    if 5 * n + sum(count for _, count in draws) > DECK_SIZE:
        raise Wrong("the hands and replacements do not fit in the deck")


def layout_position(com, draws, role, seat, k):
    layout, seats = com["layout"], com["dealt_seats"]
    n = len(seats)
    holes = BOARD_LAYOUT_HOLE_CARDS.get(layout)
    if role in ("board", "board2"):
        if holes is None or (role == "board2") > (layout in SECOND_BOARD_LAYOUTS):
            raise Wrong(f"layout {layout} has no {'second ' if role == 'board2' else ''}board")
        if seat is not None or k >= 5:
            why = "belongs to no seat" if seat is not None else f"{k} is outside the layout"
            raise Wrong(f"a board card {why}")
        return holes * n + 5 * (role == "board2") + k
    if seat is None or seat not in seats:
        raise Wrong(f"seat {seat} was not dealt in")
    j = seats.index(seat)
    if role in ("hole", "showdown"):
        if k >= (5 if holes is None else holes):
            raise Wrong(f"hole card {k} is outside the layout")
        return k * n + j
    if layout != DRAW:
        raise Wrong(f"layout {layout} has no draw")
    before = 0
    for drawing_seat, count in draws:
        if drawing_seat == seat:
            if k >= count:
                raise Wrong(f"seat {seat} drew {count} cards, not a card {k}")
            return 5 * n + before + k
        before += count
    raise Wrong(f"seat {seat} is not in the public draw order")


def opening_problem(com, draws, ctx, card, pi=None):
    if card["role"] not in ROLES:
        return f"unknown role {card['role']!r}"
    try:
        position = layout_position(com, draws, card["role"], card["seat"], card["k"])
    except Wrong as exc:
        return str(exc)
    if card["position"] != position:
        return f"position {card['position']}, but the layout puts it at {position}"
    leaf = position if pi is None else pi[position]  # pokerfair/2: the mix picks the leaf
    if pi is not None and card["leaf"] != leaf:
        return f"opens leaf {card['leaf']}, but the mix maps position {position} to leaf {leaf}"
    if len(card["salt"]) != 32:
        return f"salt is {len(card['salt'])} bytes, not 32"
    if len(card["path"]) != DEPTH:
        return f"path has {len(card['path'])} siblings, not {DEPTH}"
    if any(len(h) != 32 for h in card["path"]):
        return "a path sibling is not 32 bytes"
    if fold(leaf_hash(ctx, leaf, card["card"], card["salt"]), leaf, card["path"]) != com["root"]:
        return "does not fold to the committed root"
    return ""


def signature_outcome(digest, sig, pubkey):
    if pubkey is None:
        why = "the file carries no signature" if sig is None else "no public key was given"
        return "not_checked", "signature not checked: " + why
    if sig is None:
        return "fail", "a public key was given but the file has no signature"
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        return "not_checked", "signature NOT checked: install the 'cryptography' package"
    try:
        Ed25519PublicKey.from_public_bytes(pubkey).verify(sig, digest)
    except (InvalidSignature, ValueError):
        return "fail", "Ed25519 signature does not match the digest and key"
    return "pass", "Ed25519 signature of the digest is valid for the given key"


# ---------------------------------------------------------------- pokerfair/2 (players' secrets)
def tagged(tag, *parts):
    return sha256(b"pokerfair/v2/" + tag + b"\0" + b"".join(parts))


def seat_commit(table_id, hand_no, seat, secret):
    return tagged(b"seat", lp(table_id), u64(hand_no), u8(seat), secret)


def ascending(seats):
    return all(seats[i] < seats[i + 1] for i in range(len(seats) - 1))


def permutation(mix):
    """Fisher-Yates from the mix's byte stream; masked bytes, rejection, never % or floats."""
    blocks = (tagged(b"stream", mix, b.to_bytes(4, "big")) for b in range(1 << 32))
    stream = (byte for block in blocks for byte in block)
    pi = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1
        j = next(x for x in (b & mask for b in stream) if x <= i)
        pi[i], pi[j] = pi[j], pi[i]
    return pi


def read_v2(top):
    """The pokerfair/2 parts; the rest is read as the pokerfair/1 file it contains."""
    cards = [need_object(e, "cards[]") for e in need_list(top.get("cards"), "cards")]
    who = need_object(top.get("contributors"), "contributors")
    if who.get("v") != "pokerfair/2":
        raise Malformed("contributors.v is not 'pokerfair/2'")
    entries = need_tuples(who.get("seats"), "contributors.seats", need_seat, need_hash)
    reveals = need_tuples(top.get("reveals"), "reveals", need_seat, need_kind, need_hash)
    own, transcript = top.get("own"), need_object(top.get("transcript"), "transcript")
    if own is not None:
        own = (need_seat(need_object(own, "own").get("seat"), "own"), need_hash(own.get("secret")))
    public = top.get("public")
    if public is not None and need_object(public, "public").get("table") is not None:
        need_str(public["table"], "public.table")
    return {
        "leaves": [need_seat(e.get("leaf"), "cards[].leaf") for e in cards],
        "hand_no": need_int(who.get("hand_no"), "contributors.hand_no"),
        "recorded": need_int(who.get("recorded_in_hand"), "contributors.recorded_in_hand"),
        "entries": entries if len(entries) < 256 else need_seat(len(entries), "contributors"),
        "digest": need_hash(who.get("digest"), "contributors.digest"),
        "sig": need_sig(who.get("sig"), "contributors.sig", optional=True),
        "reveals": [(seat, kind == "secret", value) for seat, kind, value in reveals],
        "mix": need_hash(top.get("mix"), "mix"),
        "transcript": need_hash(transcript.get("digest"), "transcript.digest"),
        "transcript_sig": need_sig(transcript.get("sig"), "transcript.sig", optional=True),
        "receipts": need_tuples(top.get("receipts", []), "receipts", need_seat, need_sig),
        "own": own,
        "base": dict(top, format="pokerfair-proof/1", cards=[
            {k: v for k, v in e.items() if k != "leaf"} for e in cards
        ]),
    }  # fmt: skip


def need_hash(v, what="a hash"):
    return need_hex(v, what, 32)


def need_kind(v, what):
    if need_str(v, what) not in ("secret", "fallback"):
        raise Malformed(f"{what} kind {v!r} is not 'secret' or 'fallback'")
    return v


def need_sig(v, what="a signature", optional=False):
    return None if optional and v is None else need_hex(v, what, 64)


def signed(pubkey, digest, sig):
    """False only when a key was given and the signature is missing or does not match."""
    return pubkey is None or signature_outcome(digest, sig, pubkey)[0] != "fail"


def check_v2(v2, com, digest, pubkey, add):
    """Checks 6-10 of the players' part; the permutation, or None without a usable set."""
    table_id, hand_no, entries = com["table_id"], com["hand_no"], v2["entries"]
    seats = [seat for seat, _ in entries]
    if not ascending(seats):
        add("contributors", 6, "fail", f"seats must be strictly ascending, got {seats}")
        for name, number in (("reveals", 7), ("mix", 8), ("receipts", 9), ("own", 10)):
            add(name, number, "skipped", "the contributor set failed check 6")
        return None
    who = tagged(b"contributors", lp(table_id), u64(v2["hand_no"]), u64(v2["recorded"]),
                 u8(len(entries)), *(u8(seat) + c for seat, c in entries))  # fmt: skip
    bad = [] if who == v2["digest"] else ["recomputed contributors digest differs"]
    if not signed(pubkey, who, v2["sig"]):
        bad.append("the contributor set's signature is missing or does not match")
    add("contributors", 6, "fail" if bad else "pass", "; ".join(bad) or f"seats {seats}")
    committed, reveals = dict(entries), v2["reveals"]
    bad = []
    if [r[0] for r in reveals] != seats:
        bad.append(f"the reveals are for seats {[r[0] for r in reveals]}, not {seats}")
    for seat, revealed, value in reveals:
        c = committed.get(seat)
        if c is not None and revealed and seat_commit(table_id, hand_no, seat, value) != c:
            bad.append(f"seat {seat}'s secret does not open its commitment")
        if c is not None and not revealed and value != tagged(b"fallback", c):
            bad.append(f"seat {seat}'s fallback is not the one its commitment fixes")
    add("reveals", 7, "fail" if bad else "pass", "; ".join(bad) or "every value opens")
    ordered = reveals if ascending([r[0] for r in reveals]) else []
    mix = tagged(b"mix", digest, who, u8(len(ordered)),
                 *(u8(s) + u8(int(r)) + v for s, r, v in ordered))  # fmt: skip
    transcript = tagged(b"transcript", digest, who, mix)
    bad = [] if mix == v2["mix"] else [f"recomputed mix {mix.hex()} differs from the file's"]
    if transcript != v2["transcript"]:
        bad.append("the transcript digest does not bind this commitment, set and mix")
    if not signed(pubkey, transcript, v2["transcript_sig"]):
        bad.append("the transcript's signature is missing or does not match")
    add("mix", 8, "fail" if bad else "pass", "; ".join(bad) or "mix and transcript recomputed")
    revealed_seats = {s for s, r, _ in reveals if r}
    bad = []
    for seat, sig in v2["receipts"]:
        if seat not in committed:
            bad.append(f"a receipt for seat {seat}, which is not a contributor")
            continue
        receipt = tagged(b"receipt", digest, who, u8(seat), committed[seat])
        if not signed(pubkey, receipt, sig):
            bad.append(f"seat {seat}'s receipt does not match this commitment and set")
        if seat not in revealed_seats:
            bad.append(f"seat {seat}'s reveal was received but replaced by the fallback")
    unchecked = not v2["receipts"] or pubkey is None
    status = "fail" if bad else "not_checked" if unchecked else "pass"
    add("receipts", 9, status, "; ".join(bad) or "receipts checked (if any, and a key given)")
    add("own", 10, *own_outcome(v2, table_id, hand_no, committed))
    return permutation(mix)


def own_outcome(v2, table_id, hand_no, committed):
    if v2["own"] is None:
        return "not_checked", "this file holds no secret of its own"
    seat, secret = v2["own"]
    if seat not in committed:
        return "not_checked", f"seat {seat}'s browser is not among the contributors"
    if seat_commit(table_id, hand_no, seat, secret) != committed[seat]:
        return "fail", f"the set holds another commitment for seat {seat} than this browser's"
    value = next((v for s, r, v in v2["reveals"] if s == seat and r), None)
    if value is None:
        return "not_checked", "this browser's secret was not revealed in time: fallback used"
    if value != secret:
        return "fail", "the set holds another secret for this browser"
    return "pass", "your browser contributed (seu navegador contribuiu para este embaralhamento)"


# ---------------------------------------------------------------- the checks
def verify(raw, expect_digest=None, pubkey=None):
    """Returns {"verdict": consistent|inconsistent|malformed, "checks": [...], ...}."""
    checks = []

    def add(name, number, status, detail):
        checks.append({"name": name, "number": number, "status": status, "detail": detail})

    def judge(name, number, problems, good):
        add(name, number, "fail" if problems else "pass", "; ".join(problems) or good)

    try:
        top = parse(raw)
        v2 = read_v2(top) if top.get("format") == "pokerfair-proof/2" else None
        com, draws, cards, observation = read(top if v2 is None else v2["base"])
    except Malformed as exc:
        add("format", 1, "malformed", str(exc))
        for name, number in NAMES[1:]:
            add(name, number, "skipped", "the file could not be read")
        return {"verdict": "malformed", "checks": checks, "cards": [], "observation": "",
                "caveat": "", "v2": None}  # fmt: skip
    try:
        check_shape(com, draws)
        if v2 is not None and v2["hand_no"] != com["hand_no"]:
            raise Wrong(f"the contributors are for hand {v2['hand_no']}, not {com['hand_no']}")
        shape_ok = True
        n = len(com["dealt_seats"])
        add("format", 1, "pass", f"{com['layout']}, {n} seats {com['dealt_seats']}")
    except Wrong as exc:
        shape_ok = False
        add("format", 1, "fail", str(exc))
    digest = digest_of(com)
    wrong = f"recomputed digest {digest.hex()} differs from the file's {com['digest'].hex()}"
    judge("digest", 2, [wrong] if digest != com["digest"] else [], "the file's digest")
    if expect_digest is None:
        add("expected_digest", 2, "not_checked", "no digest recorded at receipt was given")
    else:
        wrong = f"digest differs from the one recorded at receipt ({expect_digest.hex()})"
        judge("expected_digest", 2, [wrong] if digest != expect_digest else [], "as recorded")
    add("signature", 2, *signature_outcome(digest, com["sig"], pubkey))
    pi = check_v2(v2, com, digest, pubkey, add) if v2 is not None else None
    if shape_ok and (v2 is None or pi is not None):
        for index, card in enumerate(cards):
            card["leaf"] = v2["leaves"][index] if v2 else None
        ctx = ctx_hash(com["table_id"], com["hand_no"])
        found = [(i, c, opening_problem(com, draws, ctx, c, pi)) for i, c in enumerate(cards)]
        problems = [f"card {i} ({describe(c)}): {problem}" for i, c, problem in found if problem]
        judge("openings", 3, problems, f"{len(cards)} card(s) open to the root")
        card_at, position_of, problems = {}, {}, []
        for card in cards:
            if card_at.setdefault(card["position"], card["card"]) != card["card"]:
                problems.append(f"position {card['position']} opens to two cards")
            if position_of.setdefault(card["card"], card["position"]) != card["position"]:
                problems.append(f"{card_text(card['card'])} opens at two positions")
        judge("distinct", 4, problems, "no position or card is opened twice")
    else:
        add("openings", 3, "skipped", "the deal's shape or the contributor set failed")
        add("distinct", 4, "skipped", "the deal's shape or the contributor set failed")
    verdict = "inconsistent" if any(c["status"] == "fail" for c in checks) else "consistent"
    seen = "no client observation recorded" if observation is None else SEEN[
        observation["commitment_before_cards"]]  # fmt: skip
    caveat = CAVEAT
    if v2 is not None:
        caveat = SHAPED if any(r for _, r, _ in v2["reveals"]) else UNSHAPED
    return {"verdict": verdict, "checks": checks, "cards": [describe(c) for c in cards],
            "observation": seen, "caveat": caveat, "v2": v2}  # fmt: skip


def describe(card):
    owner = "" if card["seat"] is None else f" seat {card['seat']}"
    return f"{card['role']}{owner} k={card['k']} @{card['position']} {card_text(card['card'])}"


def hex_argument(value, name):
    try:
        return None if value is None else need_hex(value, name, 32)
    except Malformed as exc:
        raise SystemExit(f"error: {exc} (64 hex digits)") from None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Check a pokerfair-proof/1 or /2 file.")
    parser.add_argument("file")
    parser.add_argument("--expect-digest", metavar="HEX", help="digest recorded at receipt")
    parser.add_argument("--pubkey", metavar="HEX", help="the server's Ed25519 public key")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    try:
        expect = hex_argument(args.expect_digest, "--expect-digest")
        pubkey = hex_argument(args.pubkey, "--pubkey")
        with open(args.file, "rb") as handle:
            raw = handle.read()
    except (SystemExit, OSError) as exc:
        print(exc if isinstance(exc, SystemExit) else f"error: {exc}", file=sys.stderr)
        return 2
    result = verify(raw, expect, pubkey)
    verdict, caveat, _ = result["verdict"], result.pop("caveat"), result.pop("v2")
    summary = {"consistent": caveat, "malformed": "malformed proof file — nothing was verified"}
    summary = summary.get(verdict, "INCONSISTENT with the commitment")
    result.update(ok=verdict == "consistent", malformed=verdict == "malformed", summary=summary)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        marks = {"pass": "ok", "fail": "FAIL", "not_checked": "--", "skipped": ".."}
        for c in result["checks"]:
            print(f"[{marks.get(c['status'], 'BAD'):>4}] {c['number']} {c['name']}: {c['detail']}")
        for text in result["cards"]:
            print(f"       card {text}")
        if result["observation"]:
            print(f"       observation: {result['observation']}")
        print(f"verdict: {summary}")
    return {"consistent": 0, "malformed": 2}.get(verdict, 1)


if __name__ == "__main__":
    sys.exit(main())
