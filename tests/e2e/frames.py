"""Recorded table frames for the fixture page (tests only, never shipped).

Views are what ``ahiko.poker.view`` gives; commitments and card openings are real, made by
``ahiko.fairness.deal.DealCommitter`` over a deck arranged so the hands read well in
screenshots, so the browser verifier can check them."""

from __future__ import annotations

import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ahiko.fairness.deal import DealCommitter
from ahiko.poker.cards import FULL_DECK, format_card, parse_card
from ahiko.poker.layout import DRAW_LAYOUT, HOLDEM_LAYOUT

from .frames_house import holdem_run_twice, house_options_showdown

Frame = dict[str, Any]

SIGNING_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
PUBLIC_KEY_HEX = SIGNING_KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def arranged_deck(wanted: dict[int, str]) -> list[int]:
    """A deck with the given cards at the given positions, the rest in order."""
    placed = {pos: parse_card(text) for pos, text in wanted.items()}
    rest = iter(c for c in FULL_DECK if c not in placed.values())
    return [placed[p] if p in placed else next(rest) for p in range(52)]


def _seat(
    seat: int,
    stack: int,
    bet: int = 0,
    total: int = 0,
    status: str = "active",
    last: dict[str, Any] | None = None,
    cards: list[str] | None = None,
    count: int = 2,
    discards: int | None = None,
) -> dict[str, Any]:
    return {
        "seat": seat,
        "stack": stack,
        "bet": bet,
        "total_bet": total,
        "status": status,
        "last_action": last,
        "cards": cards,
        "card_count": count,
        "discards": discards,
    }


def _room(
    name: str,
    seat_count: int,
    players: list[tuple[int, str, bool, str | None, int]],
    *,
    me: int | None,
    hand_no: int,
    stakes: dict[str, int],
    variant: str = "holdem",
    host: bool = True,
    kind: str = "recreational",
) -> Frame:
    """A snapshot frame (ahiko.rooms.frames.snapshot_frame) with no hand under way yet."""
    my_id = next((f"p{s}" for s, *_ in players if s == me), None)
    room: dict[str, Any] = {
        "id": "fixture",
        "name": name,
        "kind": kind,
        "variant": variant,
        "tier": None,
        "public": True,
        "status": "running",
        "host_id": my_id if host else "p-other",
        "blinds": stakes,
        "seats_total": seat_count,
        "seats_taken": len(players),
        "starting_chips": 1000,
        "action_deadline_s": 20.0,
        "limit_hands": None,
        "limit_minutes": None,
        "hands_dealt": hand_no - 1,
        "hand_no": hand_no,
        "seats": [
            {
                "seat": s,
                "player_id": f"p{s}",
                "name": n,
                "stack": st,
                "is_bot": b,
                "bot_level": lvl,
                "connected": True,
                "waiting": False,
                "leaving": False,
            }
            for s, n, b, lvl, st in players
        ],
        "reserved": [],
    }
    return {
        "t": "snapshot",
        "seq": 1,
        "you": {"player_id": my_id, "seat": me, "host": host},
        "room": room,
        "hand": None,
        "last_hand": None,
    }


def _hand(
    seq: int, hand_no: int, view: dict[str, Any], openings: list[Frame], to_act: int | None
) -> Frame:
    deadline = None if to_act is None else {"seat": to_act, "seconds_left": 14.0}
    without_history = {k: v for k, v in view.items() if k != "history"}
    return {
        "t": "hand",
        "seq": seq,
        "hand_no": hand_no,
        "events": view["history"],
        "view": without_history,
        "openings": openings,
        "deadline": deadline,
    }


def _commitment(seq: int, deal: DealCommitter, stakes: dict[str, int]) -> Frame:
    return {
        "t": "commitment",
        "seq": seq,
        "hand_no": deal.commitment.hand_no,
        "commitment": deal.commitment.to_json(),
        "cards_in_s": 2.0,
        "stakes": stakes,
    }


def _openings(deal: DealCommitter, specs: list[tuple[str, int | None, int]]) -> list[Frame]:
    return [deal.opening(role, seat, k).to_json() for role, seat, k in specs]


HOLDEM_PLAYERS = [
    (0, "Ana", False, None, 1000),
    (1, "Robô Rita", True, "normal", 1000),
    (3, "joao", False, None, 1000),
    (4, "Bruno", False, None, 15),
    (5, "Robô Caio", True, "hard", 1000),
]
HOLDEM_DEALT = [0, 1, 3, 4, 5]
# n = 5: hole k of dealt_seats[j] at 5k + j; board at 10 + b.
HOLDEM_DECK = arranged_deck(
    {
        **{0: "8c", 5: "3d"},  # Ana
        **{1: "Js", 6: "Tc"},  # Rita
        **{2: "Qd", 7: "Qs"},  # joao (me)
        **{3: "Ac", 8: "Kd"},  # Bruno
        **{4: "9h", 9: "9c"},  # Caio
        **{10: "Qh", 11: "5c", 12: "5d", 13: "9s", 14: "2h"},  # the board
    }
)


def _holdem_deal() -> DealCommitter:
    return DealCommitter(
        table_id="fixture",
        hand_no=42,
        layout=HOLDEM_LAYOUT,
        button_seat=5,
        dealt_seats=HOLDEM_DEALT,
        deck=HOLDEM_DECK,
        committed_at_ms=int(time.time() * 1000),
        signing_key=SIGNING_KEY,
    )


def _preflop_history() -> list[dict[str, Any]]:
    return [
        {
            "kind": "hand_started",
            "hand_no": 42,
            "variant": "holdem",
            "button": 5,
            "seats": HOLDEM_DEALT,
            "dealt_seats": HOLDEM_DEALT,
        },
        {"kind": "blind_posted", "seat": 0, "amount": 10, "blind": "sb"},
        {"kind": "blind_posted", "seat": 1, "amount": 20, "blind": "bb"},
        {"kind": "action", "seat": 3, "action": "call", "amount": 20, "added": 20, "all_in": False},
        {"kind": "action", "seat": 4, "action": "call", "amount": 15, "added": 15, "all_in": True},
        {
            "kind": "action",
            "seat": 5,
            "action": "raise",
            "amount": 60,
            "added": 60,
            "all_in": False,
        },
        {"kind": "action", "seat": 0, "action": "call", "amount": 60, "added": 50, "all_in": False},
        {"kind": "action", "seat": 1, "action": "call", "amount": 60, "added": 40, "all_in": False},
        {"kind": "action", "seat": 3, "action": "call", "amount": 60, "added": 40, "all_in": False},
        {"kind": "street", "name": "flop", "cards": ["Qh", "5c", "5d"], "positions": [10, 11, 12]},
    ]


def holdem_midhand() -> list[Frame]:
    """Flop, five dealt, a short all-in (side pot), my turn facing a bet of 80."""
    deal = _holdem_deal()
    history = [
        *_preflop_history(),
        {"kind": "action", "seat": 0, "action": "check", "amount": 0, "added": 0, "all_in": False},
        {"kind": "action", "seat": 1, "action": "bet", "amount": 80, "added": 80, "all_in": False},
    ]
    view = {
        "variant": "holdem",
        "viewer": 3,
        "street": "flop",
        "button": 5,
        "dealt_seats": HOLDEM_DEALT,
        "stakes": {"small_blind": 10, "big_blind": 20, "ante": 0},
        "seats": [
            _seat(0, 940, 0, 60, last={"kind": "check", "amount": 0}),
            _seat(1, 860, 80, 140, last={"kind": "bet", "amount": 80}),
            _seat(3, 940, 0, 60, cards=["Qd", "Qs"]),
            _seat(4, 0, 0, 15, status="allin"),
            _seat(5, 940, 0, 60),
        ],
        "board": ["Qh", "5c", "5d"],
        "pots": [
            {"amount": 75, "eligible": [0, 1, 3, 4, 5]},
            {"amount": 180, "eligible": [0, 1, 3, 5]},
        ],
        "to_act": 3,
        "legal": {
            "seat": 3,
            "can_fold": True,
            "can_check": False,
            "call_cost": 80,
            "bet_kind": "raise",
            "min_to": 160,
            "max_to": 940,
            "committed": 0,
            "stack": 940,
            "max_discards": 0,
            "is_draw_phase": False,
        },
        "history": history,
        "result": None,
    }
    openings = _openings(
        deal,
        [
            ("hole", 3, 0),
            ("hole", 3, 1),
            ("board", None, 0),
            ("board", None, 1),
            ("board", None, 2),
        ],
    )
    stakes = {"small_blind": 10, "big_blind": 20}
    return [
        _room("Mesa da Ana", 6, HOLDEM_PLAYERS, me=3, hand_no=42, stakes=stakes),
        _commitment(2, deal, stakes),
        _hand(3, 42, view, openings, to_act=3),
    ]


def holdem_showdown() -> list[Frame]:
    """River showdown: queens full wins the main and the side pot."""
    deal = _holdem_deal()
    history = [
        *_preflop_history(),
        {"kind": "action", "seat": 0, "action": "check", "amount": 0, "added": 0, "all_in": False},
        {"kind": "action", "seat": 1, "action": "fold", "amount": 0, "added": 0, "all_in": False},
        {"kind": "action", "seat": 0, "action": "fold", "amount": 0, "added": 0, "all_in": False},
        {"kind": "street", "name": "turn", "cards": ["9s"], "positions": [13]},
        {"kind": "street", "name": "river", "cards": ["2h"], "positions": [14]},
        {"kind": "cards_shown", "seat": 5, "cards": ["9h", "9c"], "reason": "showdown"},
        {"kind": "cards_shown", "seat": 3, "cards": ["Qd", "Qs"], "reason": "showdown"},
        {"kind": "cards_shown", "seat": 4, "cards": ["Ac", "Kd"], "reason": "showdown"},
        {
            "kind": "pot_awarded",
            "index": 0,
            "amount": 75,
            "eligible": [3, 4, 5],
            "winners": [3],
            "shares": {"3": 75},
            "hands": {"3": {"category": 6, "ranks": [10, 3]}},  # queens full of fives
        },
        {
            "kind": "pot_awarded",
            "index": 1,
            "amount": 180,
            "eligible": [3, 5],
            "winners": [3],
            "shares": {"3": 180},
            "hands": {"3": {"category": 6, "ranks": [10, 3]}},  # queens full of fives
        },
        {"kind": "hand_ended", "stacks": {}},
    ]
    view = {
        "variant": "holdem",
        "viewer": 3,
        "street": "over",
        "button": 5,
        "dealt_seats": HOLDEM_DEALT,
        "stakes": {"small_blind": 10, "big_blind": 20, "ante": 0},
        "seats": [
            _seat(0, 940, 0, 60, status="folded", last=None),
            _seat(1, 940, 0, 60, status="folded", last=None),
            _seat(3, 1195, 0, 60, cards=["Qd", "Qs"]),
            _seat(4, 0, 0, 15, status="allin", cards=["Ac", "Kd"]),
            _seat(5, 940, 0, 60, cards=["9h", "9c"]),
        ],
        "board": ["Qh", "5c", "5d", "9s", "2h"],
        "pots": [],
        "to_act": None,
        "legal": None,
        "history": history,
        "result": {"pots": [{"amount": 75, "winners": [3]}, {"amount": 180, "winners": [3]}]},
    }
    specs: list[tuple[str, int | None, int]] = [("hole", 3, 0), ("hole", 3, 1)]
    specs += [("board", None, b) for b in range(5)]
    specs += [("showdown", s, k) for s in (4, 5) for k in (0, 1)]
    stakes = {"small_blind": 10, "big_blind": 20}
    return [
        _room("Mesa da Ana", 6, HOLDEM_PLAYERS, me=3, hand_no=42, stakes=stakes),
        _commitment(2, deal, stakes),
        _hand(3, 42, view, _openings(deal, specs), to_act=None),
    ]


DRAW_DEALT = [2, 4, 0, 1]  # button 1
DRAW_PLAYERS = [
    (0, "Ana", False, None, 200),
    (1, "joao", False, None, 200),
    (2, "Robô Rita", True, "easy", 200),
    (4, "Bruno", False, None, 200),
]


def draw_table() -> list[Frame]:
    """Five-card draw, the draw phase, my turn to pick discards."""
    n = len(DRAW_DEALT)
    mine = ["Kh", "Ks", "7d", "4c", "2s"]
    deck = arranged_deck({k * n + 3: card for k, card in enumerate(mine)})
    deal = DealCommitter(
        table_id="fixture-draw",
        hand_no=7,
        layout=DRAW_LAYOUT,
        button_seat=1,
        dealt_seats=DRAW_DEALT,
        deck=deck,
        committed_at_ms=int(time.time() * 1000),
        signing_key=SIGNING_KEY,
    )
    deal.record_draw(2, 3)
    deal.record_draw(4, 1)
    deal.record_draw(0, 0)
    history = [
        {
            "kind": "hand_started",
            "hand_no": 7,
            "variant": "draw",
            "button": 1,
            "dealt_seats": DRAW_DEALT,
        },
        *({"kind": "ante_posted", "seat": s, "amount": 1} for s in DRAW_DEALT),
        {"kind": "action", "seat": 2, "action": "bet", "amount": 2, "added": 2, "all_in": False},
        {"kind": "action", "seat": 4, "action": "call", "amount": 2, "added": 2, "all_in": False},
        {"kind": "action", "seat": 0, "action": "call", "amount": 2, "added": 2, "all_in": False},
        {"kind": "action", "seat": 1, "action": "call", "amount": 2, "added": 2, "all_in": False},
        {"kind": "street", "name": "draw", "cards": [], "positions": []},
        {"kind": "discarded", "seat": 2, "count": 3},
        {"kind": "discarded", "seat": 4, "count": 1},
        {"kind": "discarded", "seat": 0, "count": 0},
    ]
    view = {
        "variant": "draw",
        "viewer": 1,
        "street": "draw",
        "button": 1,
        "dealt_seats": DRAW_DEALT,
        "stakes": {"ante": 1, "small_bet": 2, "big_bet": 4, "raise_cap": 4},
        "seats": [
            _seat(0, 197, 0, 3, last={"kind": "discard", "amount": 0}, count=5, discards=0),
            _seat(1, 197, 0, 3, cards=mine, count=5),
            _seat(2, 197, 0, 3, last={"kind": "discard", "amount": 3}, count=5, discards=3),
            _seat(4, 197, 0, 3, last={"kind": "discard", "amount": 1}, count=5, discards=1),
        ],
        "board": [],
        "pots": [{"amount": 12, "eligible": DRAW_DEALT}],
        "to_act": 1,
        "legal": {
            "seat": 1,
            "can_fold": False,
            "can_check": False,
            "call_cost": 0,
            "bet_kind": None,
            "min_to": 0,
            "max_to": 0,
            "committed": 0,
            "stack": 197,
            "max_discards": 3,
            "is_draw_phase": True,
        },
        "history": history,
        "result": None,
    }
    openings = _openings(deal, [("hole", 1, k) for k in range(5)])
    stakes = {"ante": 1, "small_bet": 2, "big_bet": 4}
    return [
        _room("Draw das seis", 6, DRAW_PLAYERS, me=1, hand_no=7, variant="draw", stakes=stakes),
        _commitment(2, deal, stakes),
        _hand(3, 7, view, openings, to_act=1),
    ]


def holdem_joined() -> list[Frame]:
    """The mid-hand table reached by a snapshot (a reload or a late join): the commitment
    arrives together with cards already dealt (R-FD-04)."""
    snapshot, commitment, hand = holdem_midhand()
    snapshot["hand"] = {
        "hand_no": 42,
        "phase": "dealt",
        "commitment": commitment["commitment"],
        "view": {**hand["view"], "history": hand["events"]},
        "openings": hand["openings"],
        "deadline": hand["deadline"],
    }
    snapshot["seq"] = 3
    return [snapshot]


def ahiko_room() -> list[Frame]:
    """An Ahiko room (Iniciante 1/2) with a hand under way, watched by someone not seated."""
    snapshot, commitment, hand = holdem_midhand()
    snapshot["you"] = {"player_id": "p-watcher", "seat": None, "host": False}
    room = snapshot["room"]
    room.update(kind="ahiko", tier="iniciante", name="Iniciante 1", host_id=None)
    room["blinds"] = {"small_blind": 1, "big_blind": 2, "ante": 0, "small_bet": 0}
    view = {**hand["view"], "viewer": None, "legal": None}
    view["seats"] = [{**s, "cards": None} for s in view["seats"]]
    return [snapshot, commitment, {**hand, "view": view, "openings": hand["openings"][2:]}]


def ahiko_room_seated() -> list[Frame]:
    """The same Ahiko room, this time as the seated player joao."""
    snapshot, commitment, hand = holdem_midhand()
    snapshot["you"]["host"] = False
    snapshot["room"].update(kind="ahiko", tier="iniciante", name="Iniciante 1", host_id=None)
    return [snapshot, commitment, hand]


def _action(seat: int, action: str, amount: int, added: int, all_in: bool = False) -> Frame:
    return {
        "kind": "action",
        "seat": seat,
        "action": action,
        "amount": amount,
        "added": added,
        "all_in": all_in,
    }


FULL_PLAYERS = [
    (0, "joao", False, None, 1000),
    (1, "Marina Sakamoto", False, None, 1000),
    (2, "Bot 1", True, "easy", 1000),
    (3, "Lia", False, None, 1000),
    (4, "Bot 2", True, "hard", 1000),
    (5, "Rafa", False, None, 1000),
    (6, "Bot 3", True, "normal", 1000),
    (7, "Tom", False, None, 1000),
]
FULL_DEALT = [4, 5, 6, 7, 0, 1, 2, 3]  # button 3; me (seat 0) fifth


def holdem_full() -> list[Frame]:
    """Eight seats, every one taken, the flop: four bets out around the table, the button on
    a side seat, and my turn facing a raise (the phone's crowded case)."""
    n = len(FULL_DEALT)
    me = FULL_DEALT.index(0)
    deck = arranged_deck({me: "Ah", n + me: "Td", 2 * n: "Tc", 2 * n + 1: "7s", 2 * n + 2: "2d"})
    deal = DealCommitter(
        table_id="fixture-full",
        hand_no=9,
        layout=HOLDEM_LAYOUT,
        button_seat=3,
        dealt_seats=FULL_DEALT,
        deck=deck,
        committed_at_ms=int(time.time() * 1000),
        signing_key=SIGNING_KEY,
    )
    history: list[Frame] = [
        {
            "kind": "hand_started",
            "hand_no": 9,
            "variant": "holdem",
            "button": 3,
            "dealt_seats": FULL_DEALT,
        },
        {"kind": "blind_posted", "seat": 4, "amount": 10, "blind": "sb"},
        {"kind": "blind_posted", "seat": 5, "amount": 20, "blind": "bb"},
        *(_action(s, "call", 20, 20) for s in (6, 7, 0, 1, 2, 3)),
        _action(4, "call", 20, 10),
        _action(5, "check", 0, 0),
        {"kind": "street", "name": "flop", "cards": ["Tc", "7s", "2d"], "positions": [16, 17, 18]},
        _action(4, "bet", 40, 40),
        _action(5, "call", 40, 40),
        _action(6, "raise", 120, 120),
        _action(7, "call", 120, 120),
    ]
    bets = {4: 40, 5: 40, 6: 120, 7: 120}
    last = {
        4: {"kind": "bet", "amount": 40},
        5: {"kind": "call", "amount": 40},
        6: {"kind": "raise", "amount": 120},
        7: {"kind": "call", "amount": 120},
    }
    seats = [
        _seat(
            s,
            980 - bets.get(s, 0),
            bets.get(s, 0),
            20 + bets.get(s, 0),
            last=last.get(s),
            cards=["Ah", "Td"] if s == 0 else None,
        )
        for s in range(8)
    ]
    view = {
        "variant": "holdem",
        "viewer": 0,
        "street": "flop",
        "button": 3,
        "dealt_seats": FULL_DEALT,
        "stakes": {"small_blind": 10, "big_blind": 20, "ante": 0},
        "seats": seats,
        "board": ["Tc", "7s", "2d"],
        "pots": [{"amount": 160, "eligible": FULL_DEALT}],
        "to_act": 0,
        "legal": {
            "seat": 0,
            "can_fold": True,
            "can_check": False,
            "call_cost": 120,
            "bet_kind": "raise",
            "min_to": 200,
            "max_to": 980,
            "committed": 0,
            "stack": 980,
            "max_discards": 0,
            "is_draw_phase": False,
        },
        "history": history,
        "result": None,
    }
    openings = _openings(
        deal,
        [
            ("hole", 0, 0),
            ("hole", 0, 1),
            ("board", None, 0),
            ("board", None, 1),
            ("board", None, 2),
        ],
    )
    stakes = {"small_blind": 10, "big_blind": 20}
    snapshot = _room("Mesa cheia", 8, FULL_PLAYERS, me=0, hand_no=9, stakes=stakes, host=False)
    hand = _hand(3, 9, view, openings, to_act=0)
    hand["names"] = {str(s): n for s, n, *_ in FULL_PLAYERS}
    return [snapshot, _commitment(2, deal, stakes), hand]


def holdem_mucked() -> list[Frame]:
    """The showdown of holdem_showdown, but Robô Caio (seat 5) mucks his losing hand."""
    frames = holdem_showdown()
    hand = frames[-1]
    hand["events"] = [
        {"kind": "mucked", "seat": 5} if e["kind"] == "cards_shown" and e["seat"] == 5 else e
        for e in hand["events"]
    ]
    for seat in hand["view"]["seats"]:
        if seat["seat"] == 5:
            seat["cards"] = None
    hand["openings"] = [
        o for o in hand["openings"] if not (o["role"] == "showdown" and o.get("seat") == 5)
    ]
    return frames


AHIKO_PLAYERS = [(0, "ana", False, None, 150), (4, "Bot Ahiko", True, "normal", 150)]


def _ahiko(frame: Frame) -> Frame:
    frame["room"].update(kind="ahiko", tier="iniciante", name="Iniciante 1", host_id=None)
    frame["room"]["seats_total"] = 8
    frame["room"]["blinds"] = {"small_blind": 1, "big_blind": 2, "ante": 0, "small_bet": 0}
    frame["you"]["host"] = False
    return frame


def ahiko_waiting() -> list[Frame]:
    """An Ahiko room that runs but has no hand: ana has just bought in and sits alone."""
    snapshot = _ahiko(
        _room("Iniciante 1", 8, AHIKO_PLAYERS[:1], me=0, hand_no=1, stakes={}, host=False)
    )
    snapshot["room"]["hand_no"] = None
    snapshot["room"]["hands_dealt"] = 0
    snapshot["room"]["countdowns"] = {"bot_ahiko": 20.0}  # the server's count (R-BA-01)
    return [snapshot]


def _heads_up_showdown(
    holes: dict[int, str], board: str, betting: list[Frame], hands: dict[str, Frame]
) -> tuple[Frame, Frame, Frame]:
    """Ana (seat 0, the button) heads-up against the Bot Ahiko (seat 4) in Iniciante 1: the
    hand's real commitment and openings, played to a showdown ana wins (2 chips each in).
    ``holes`` are the two hands as text by seat, ``betting`` the actions after the blinds
    (streets are inserted), ``hands`` the pot's values. Returns snapshot, commitment, hand."""
    dealt = [4, 0]
    cards = board.split()
    placed = {2 * k + j: holes[s].split()[k] for j, s in enumerate(dealt) for k in range(2)}
    placed.update({4 + b: c for b, c in enumerate(cards)})
    deal = DealCommitter(
        table_id="iniciante-1",
        hand_no=1,
        layout=HOLDEM_LAYOUT,
        button_seat=0,
        dealt_seats=dealt,
        deck=arranged_deck(placed),
        committed_at_ms=int(time.time() * 1000),
        signing_key=SIGNING_KEY,
    )
    snapshot = _ahiko(
        _room("Iniciante 1", 8, AHIKO_PLAYERS, me=0, hand_no=1, stakes={}, host=False)
    )
    streets = [("flop", cards[:3], [4, 5, 6]), ("turn", cards[3:4], [7]), ("river", cards[4:], [8])]
    history: list[Frame] = [
        {
            "kind": "hand_started",
            "hand_no": 1,
            "variant": "holdem",
            "button": 0,
            "dealt_seats": dealt,
        },
        {"kind": "blind_posted", "seat": 0, "amount": 1, "blind": "sb"},
        {"kind": "blind_posted", "seat": 4, "amount": 2, "blind": "bb"},
        _action(0, "call", 2, 1),
        _action(4, "check", 0, 0),
    ]
    for (name, dealt_now, positions), acts in zip(streets, betting, strict=True):
        history.append({"kind": "street", "name": name, "cards": dealt_now, "positions": positions})
        history += acts
    history += [
        {"kind": "cards_shown", "seat": 4, "cards": holes[4].split(), "reason": "showdown"},
        {"kind": "cards_shown", "seat": 0, "cards": holes[0].split(), "reason": "showdown"},
        {
            "kind": "pot_awarded",
            "index": 0,
            "amount": 4,
            "eligible": dealt,
            "winners": [0],
            "shares": {"0": 4},
            "hands": hands,
        },
        {"kind": "hand_ended", "stacks": {"4": 148, "0": 152}},
    ]
    view = {
        "variant": "holdem",
        "viewer": 0,
        "street": "over",
        "button": 0,
        "dealt_seats": dealt,
        "stakes": {"small_blind": 1, "big_blind": 2, "ante": 0},
        "seats": [
            _seat(4, 148, 0, 2, cards=holes[4].split()),
            _seat(0, 152, 0, 2, cards=holes[0].split()),
        ],
        "board": cards,
        "pots": [],
        "to_act": None,
        "legal": None,
        "history": history,
        "result": {"pots": [{"amount": 4, "winners": [0]}]},
    }
    specs: list[tuple[str, int | None, int]] = [("hole", 0, 0), ("hole", 0, 1)]
    specs += [("board", None, b) for b in range(5)] + [("showdown", 4, 0), ("showdown", 4, 1)]
    hand = _hand(3, 1, view, _openings(deal, specs), to_act=None)
    hand["names"] = {"0": "ana", "4": "Bot Ahiko"}
    return snapshot, _commitment(2, deal, {}), hand


def ahiko_left() -> list[Frame]:
    """Heads-up against the Bot Ahiko; ana clicked "Sair após esta mão", won the hand and
    was paid out, and the bot left too: the room has nobody left, the last hand stays."""
    checks = [_action(4, "check", 0, 0), _action(0, "check", 0, 0)]
    snapshot, commitment, hand = _heads_up_showdown(
        {0: "Kh Ks", 4: "Qs Jd"},
        "Kd 5s Td Ts 2c",
        [checks, checks, checks],
        {
            "0": {"category": 6, "ranks": [11, 8]},  # kings full of tens
            "4": {"category": 1, "ranks": [8, 11, 10, 9]},  # a pair of tens
        },
    )
    snapshot["room"]["seats"][0]["leaving"] = True
    empty = {
        "t": "room",
        "seq": 5,
        "room": {**snapshot["room"], "seats": [], "seats_taken": 0, "hand_no": None},
    }
    wallet = {"t": "wallet", "seq": 5, "event": "cash_out", "amount": 152, "participation_id": 1}
    return [snapshot, commitment, hand, wallet, empty]


def _engine_frames(variant: str, seats: list[int], until: str) -> list[Frame]:
    """A real hand played by the engine to the start of street ``until`` (everyone calls or
    checks), framed as the server frames it: the view comes from ``ahiko.poker.view``."""
    from ahiko.poker.actions import Action
    from ahiko.poker.config import DrawConfig, HoldemConfig
    from ahiko.poker.draw import DrawHand
    from ahiko.poker.holdem import HoldemHand
    from ahiko.poker.view import view as engine_view

    n = len(seats)
    deck = list(FULL_DECK)
    hand: Any
    if variant == "draw":
        hand, _ = DrawHand.start(
            DrawConfig(ante=1, small_bet=2, raise_cap=4), seats, [200] * n, seats[-1], deck
        )
        stakes = {"ante": 1, "small_bet": 2, "big_bet": 4}
    else:
        hand, _ = HoldemHand.start(HoldemConfig(1, 2, 0), seats, [200] * n, seats[-1], deck)
        stakes = {"small_blind": 1, "big_blind": 2}
    bet = False
    while hand.street != until:
        legal = hand.legal_actions()
        if not bet and legal.bet_kind is not None and legal.can_check:
            hand.act(legal.seat, Action(legal.bet_kind, legal.min_to))  # one bet, called round
            bet = True
        else:
            hand.act(legal.seat, Action.check() if legal.can_check else Action.call())
    me = seats[0]
    players = [
        (s, name, s != me, None if s == me else "normal", 200)
        for s, name in zip(seats, ["joao", "Bot 1", "Bot 2"], strict=False)
    ]
    snapshot = _room("Mesa", 6, players, me=me, hand_no=1, stakes=stakes, variant=variant)
    view = engine_view(hand, me)
    history = view.pop("history")
    hand_frame = {
        "t": "hand",
        "seq": 3,
        "hand_no": 1,
        "events": history,
        "view": view,
        "openings": [],
        "deadline": None,
        "names": {str(s): n for s, n, *_ in players},
    }
    return [snapshot, hand_frame]


def draw_at_the_draw() -> list[Frame]:
    """Five-card draw, three players: one bet called round, and the draw has begun."""
    return _engine_frames("draw", [0, 1, 2], "draw")


def holdem_at_the_flop() -> list[Frame]:
    """Hold'em, three players: a raise called round before the flop, the flop is out."""
    return _engine_frames("holdem", [0, 1, 2], "flop")


def ahiko_kicker() -> list[Frame]:
    """Heads-up, ana (seat 0) against the Bot Ahiko (seat 4): both have a pair of aces, ana's
    king kicker beats the bot's queen. Ana is still seated; the bot too."""
    snapshot, commitment, hand = _heads_up_showdown(
        {0: "Ah Kd", 4: "As Qc"},
        "Ad 9s 5h 3c 2d",
        [[], [], []],
        {
            "0": {"category": 1, "ranks": [12, 11, 7, 3]},
            "4": {"category": 1, "ranks": [12, 10, 7, 3]},
        },
    )
    for entry in snapshot["room"]["seats"]:  # the room after the hand: its stacks
        entry["stack"] = {0: 152, 4: 148}[entry["seat"]]
    return [snapshot, commitment, hand]


def ahiko_kicker_mucked() -> list[Frame]:
    """``ahiko_kicker`` the other way round: the Bot Ahiko's ace-king beats ana's ace-queen,
    and ana mucks. Her cards are still hers to see; the pot names the bot's hand only."""
    snapshot, commitment, hand = _heads_up_showdown(
        {0: "As Qc", 4: "Ah Kd"},
        "Ad 9s 5h 3c 2d",
        [[], [], []],
        {"4": {"category": 1, "ranks": [12, 11, 7, 3]}},
    )
    for event in hand["events"]:
        if event["kind"] == "pot_awarded":
            event.update(winners=[4], shares={"4": 4})
        if event["kind"] == "hand_ended":
            event["stacks"] = {"4": 152, "0": 148}
    hand["events"] = [
        {"kind": "mucked", "seat": 0} if e["kind"] == "cards_shown" and e["seat"] == 0 else e
        for e in hand["events"]
    ]
    hand["view"]["result"] = {"pots": [{"amount": 4, "winners": [4]}]}
    for entry in snapshot["room"]["seats"]:
        entry["stack"] = {0: 148, 4: 152}[entry["seat"]]
    return [snapshot, commitment, hand]


def host_waiting() -> list[Frame]:
    """A room just created: the host is watching, nobody sits, nothing started."""
    snapshot = _room(
        "Mesa da Ana", 6, [], me=None, hand_no=1, stakes={"small_blind": 10, "big_blind": 20}
    )
    snapshot["you"] = {"player_id": "p0", "seat": None, "host": True}
    snapshot["room"].update(status="waiting", host_id="p0", hand_no=None, hands_dealt=0)
    return [snapshot]


FIXTURES = {
    f.__name__: f
    for f in (
        holdem_midhand,
        holdem_showdown,
        draw_table,
        holdem_joined,
        ahiko_room,
        ahiko_room_seated,
        holdem_full,
        holdem_mucked,
        ahiko_waiting,
        ahiko_left,
        host_waiting,
        draw_at_the_draw,
        holdem_at_the_flop,
        ahiko_kicker,
        ahiko_kicker_mucked,
        holdem_run_twice,
        house_options_showdown,
    )
}


def tampered(name: str) -> list[Frame]:
    """The same frames with one opened card changed: the verifier must flag it."""
    frames = FIXTURES[name]()
    for frame in frames:
        if frame.get("t") == "hand":
            first = frame["openings"][0]
            card = parse_card(first["card"])
            first["card"] = format_card((card + 4) % 52)
    return frames
