#!/usr/bin/env python3
"""Check a pokerfair-proof/1 file (an Ahiko "Conferir cartas" download) on your own computer.

    python3 verify_proof.py FILE [--expect-digest HEX] [--pubkey HEX] [--json]

One file, Python 3.9+ standard library only, so you can read every line before running it.
The Ed25519 signature is checked only if the `cryptography` package is installed; otherwise
the output says plainly that the signature was NOT checked.

What it checks (FAIRNESS.md, checks 1-5):
  1. the file's format, the layout, the dealt seats;
  2. the commitment's digest recomputed from its fields (and, if given, compared with the one
     you recorded when it arrived; and the server's signature of it);
  3. every card: its deal position is the one the layout gives its role/seat/k, and card +
     salt + the 6 sibling hashes fold to the committed Merkle root;
  4. no position opens to two cards, no card opens at two positions;
  5. the verdict reads "consistent with the commitment", never "fair": this shows that the
     cards match what was committed before the deal, not how the deck was chosen.

Exit codes: 0 consistent, 1 inconsistent, 2 malformed file (or bad arguments).
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
# board layouts: hole cards a seat (round the table, k*n + j), then five board cards
BOARD_LAYOUT_HOLE_CARDS = {HOLDEM: 2, OMAHA: 4}
ROLES = ("hole", "board", "showdown", "draw")
MAX_SAFE_INTEGER = 2**53 - 1
CAVEAT = (
    "consistent with the commitment — not an audit of the shuffle "
    "(consistente com o compromisso — não é uma auditoria do embaralhamento)"
)


class Malformed(Exception):
    pass


class Wrong(Exception):
    pass


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
    running = leaf
    for level, sibling in enumerate(path):
        if (position >> level) & 1:
            running = node_hash(sibling, running)
        else:
            running = node_hash(running, sibling)
    return running


def digest_of(c):
    return sha256(
        b"pokerfair/v1/commit\0"
        + lp(c["table_id"])
        + u64(c["hand_no"])
        + u8(c["deck_size"])
        + lp(c["layout"])
        + u8(c["button_seat"])
        + u8(len(c["dealt_seats"]))
        + b"".join(u8(s) for s in c["dealt_seats"])
        + c["root"]
        + u64(c["committed_at_ms"])
        + c["prev"]
    )


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


def need_card(v):
    text = need_str(v, "cards[].card")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise Malformed(f"cards[].card {text!r} is not a card like 'Ah'")
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def card_text(card):
    return RANKS[card >> 2] + SUITS[card & 3]


def reject_constant(name):
    raise ValueError(name + " is not JSON")


def read(raw):
    try:
        top = json.loads(raw, parse_constant=reject_constant)
    except ValueError as exc:  # includes UnicodeDecodeError
        raise Malformed(f"not JSON: {exc}") from None
    need_object(top, "the file")
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
            too_long = len(com[name].encode("utf-8")) > 0xFFFF
        except UnicodeEncodeError:
            raise Malformed(f"commitment.{name} is not valid Unicode") from None
        if too_long:
            raise Malformed(f"commitment.{name} is too long to encode")
    draws = []
    public = top.get("public")
    if public is not None and need_object(public, "public").get("draws") is not None:
        for pair in need_list(public["draws"], "public.draws"):
            need_list(pair, "public.draws[]")
            if len(pair) != 2:
                raise Malformed("public.draws[] must be [seat, count] pairs")
            draws.append(
                (
                    need_int(pair[0], "public.draws seat", 255),
                    need_int(pair[1], "public.draws count"),
                )
            )
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
    if layout not in (HOLDEM, DRAW, OMAHA):
        raise Wrong(f"unknown layout {layout!r}")
    if n < 2:
        raise Wrong(f"a deal needs at least 2 seats, got {n}")
    if len(set(seats)) != n:
        raise Wrong(f"dealt seats repeat: {seats}")
    if layout in BOARD_LAYOUT_HOLE_CARDS:
        if draws:
            raise Wrong(f"a {layout} deal has no draw")
        if BOARD_LAYOUT_HOLE_CARDS[layout] * n + 5 > DECK_SIZE:
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
    if role == "board":
        if holes is None:
            raise Wrong(f"layout {layout} has no board")
        if seat is not None:
            raise Wrong("a board card belongs to no seat")
        if k >= 5:
            raise Wrong(f"board card {k} is outside the layout")
        return holes * n + k
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


def opening_problem(com, draws, ctx, card):
    if card["role"] not in ROLES:
        return f"unknown role {card['role']!r}"
    try:
        position = layout_position(com, draws, card["role"], card["seat"], card["k"])
    except Wrong as exc:
        return str(exc)
    if card["position"] != position:
        return f"position {card['position']}, but the layout puts it at {position}"
    if len(card["salt"]) != 32:
        return f"salt is {len(card['salt'])} bytes, not 32"
    if len(card["path"]) != DEPTH:
        return f"path has {len(card['path'])} siblings, not {DEPTH}"
    if any(len(h) != 32 for h in card["path"]):
        return "a path sibling is not 32 bytes"
    if (
        fold(leaf_hash(ctx, position, card["card"], card["salt"]), position, card["path"])
        != com["root"]
    ):
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
        return (
            "not_checked",
            "signature NOT checked: install the 'cryptography' package to check it",
        )
    try:
        Ed25519PublicKey.from_public_bytes(pubkey).verify(sig, digest)
    except (InvalidSignature, ValueError):
        return "fail", "Ed25519 signature does not match the digest and key"
    return "pass", "Ed25519 signature of the digest is valid for the given key"


# ---------------------------------------------------------------- the checks
def verify(raw, expect_digest=None, pubkey=None):
    """Returns {"verdict": consistent|inconsistent|malformed, "checks": [...], ...}."""
    checks = []

    def add(name, number, status, detail):
        checks.append({"name": name, "number": number, "status": status, "detail": detail})

    try:
        com, draws, cards, observation = read(raw)
    except Malformed as exc:
        add("format", 1, "malformed", str(exc))
        for name, number in (
            ("digest", 2),
            ("expected_digest", 2),
            ("signature", 2),
            ("openings", 3),
            ("distinct", 4),
        ):
            add(name, number, "skipped", "the file could not be read")
        return {"verdict": "malformed", "checks": checks, "cards": [], "observation": ""}
    try:
        check_shape(com, draws)
        shape_ok = True
        n = len(com["dealt_seats"])
        add("format", 1, "pass", f"pokerfair/1, {com['layout']}, {n} seats {com['dealt_seats']}")
    except Wrong as exc:
        shape_ok = False
        add("format", 1, "fail", str(exc))
    digest = digest_of(com)
    if digest == com["digest"]:
        add("digest", 2, "pass", "recomputed digest equals the file's digest")
    else:
        add(
            "digest",
            2,
            "fail",
            f"recomputed digest {digest.hex()} differs from the file's {com['digest'].hex()}",
        )
    if expect_digest is None:
        add("expected_digest", 2, "not_checked", "no digest recorded at receipt was given")
    elif digest == expect_digest:
        add(
            "expected_digest",
            2,
            "pass",
            "digest equals the one recorded when the commitment arrived",
        )
    else:
        add(
            "expected_digest",
            2,
            "fail",
            f"digest differs from the one recorded at receipt ({expect_digest.hex()})",
        )
    add("signature", 2, *signature_outcome(digest, com["sig"], pubkey))
    if shape_ok:
        ctx = ctx_hash(com["table_id"], com["hand_no"])
        problems = []
        for index, card in enumerate(cards):
            problem = opening_problem(com, draws, ctx, card)
            if problem:
                problems.append(f"card {index} ({describe(card)}): {problem}")
        if problems:
            add("openings", 3, "fail", "; ".join(problems))
        else:
            add(
                "openings",
                3,
                "pass",
                f"{len(cards)} card(s) open to the root at their layout positions",
            )
        card_at, position_of, problems = {}, {}, []
        for card in cards:
            if card_at.setdefault(card["position"], card["card"]) != card["card"]:
                problems.append(f"position {card['position']} opens to two cards")
            if position_of.setdefault(card["card"], card["position"]) != card["position"]:
                problems.append(f"{card_text(card['card'])} opens at two positions")
        add(
            "distinct",
            4,
            "fail" if problems else "pass",
            "; ".join(problems) or "no position or card is opened twice",
        )
    else:
        add("openings", 3, "skipped", "the deal's shape failed check 1")
        add("distinct", 4, "skipped", "the deal's shape failed check 1")
    verdict = "inconsistent" if any(c["status"] == "fail" for c in checks) else "consistent"
    if observation is None:
        seen = "no client observation recorded"
    elif observation["commitment_before_cards"]:
        seen = "this browser received the commitment before the first card"
    else:
        seen = "this browser joined with the hand already under way (commitment not seen first)"
    return {
        "verdict": verdict,
        "checks": checks,
        "cards": [describe(c) for c in cards],
        "observation": seen,
    }


def describe(card):
    owner = "" if card["seat"] is None else f" seat {card['seat']}"
    return f"{card['role']}{owner} k={card['k']} @{card['position']} {card_text(card['card'])}"


def hex_argument(value, name):
    if value is None:
        return None
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise SystemExit(f"error: {name} is not hex") from None
    if len(raw) != 32:
        raise SystemExit(f"error: {name} must be 32 bytes (64 hex digits)")
    return raw


def main(argv=None):
    parser = argparse.ArgumentParser(description="Check a pokerfair-proof/1 file.")
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
    verdict = result["verdict"]
    summary = {
        "consistent": CAVEAT,
        "malformed": "malformed proof file — nothing was verified",
    }.get(verdict, "INCONSISTENT with the commitment")
    if args.json:
        print(
            json.dumps(
                dict(
                    result,
                    ok=verdict == "consistent",
                    malformed=verdict == "malformed",
                    summary=summary,
                ),
                indent=1,
            )
        )
    else:
        marks = {
            "pass": "ok",
            "fail": "FAIL",
            "not_checked": "--",
            "skipped": "..",
            "malformed": "BAD",
        }
        for c in result["checks"]:
            print(f"[{marks[c['status']]:>4}] {c['number']} {c['name']}: {c['detail']}")
        for text in result["cards"]:
            print(f"       card {text}")
        if result["observation"]:
            print(f"       observation: {result['observation']}")
        print(f"verdict: {summary}")
    return {"consistent": 0, "malformed": 2}.get(verdict, 1)


if __name__ == "__main__":
    sys.exit(main())
