"""Seat views built by hand for bot tests: random but well-formed situations in the shape of
``ahiko.poker.view.view`` (CONTRACT.md), with every other seat's cards hidden (None)."""

from __future__ import annotations

import random
from typing import Any

from ahiko.bots.arena import _start
from ahiko.poker.actions import Action
from ahiko.poker.cards import format_card
from ahiko.poker.view import view

HOLDEM_STREETS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


def _seats_in_deal_order(seats: list[int], button: int) -> list[int]:
    i = seats.index(button)
    return seats[i + 1 :] + seats[: i + 1]


def random_view(rng: random.Random, variant: str) -> dict[str, Any]:
    max_players = 9 if variant == "holdem" else 6
    n = rng.randint(2, max_players)
    seats = sorted(rng.sample(range(9), n))
    button = rng.choice(seats)
    dealt = _seats_in_deal_order(seats, button)
    deck = list(range(52))
    rng.shuffle(deck)
    me = rng.choice(dealt)
    hole = {s: [deck.pop() for _ in range(2 if variant == "holdem" else 5)] for s in dealt}
    unit = 2 if variant == "holdem" else 4
    if variant == "holdem":
        street = rng.choice(list(HOLDEM_STREETS))
        board = [deck.pop() for _ in range(HOLDEM_STREETS[street])]
        stakes = {"small_blind": 1, "big_blind": 2, "ante": 0}
    else:
        street = rng.choice(["predraw", "draw", "postdraw"])
        board = []
        stakes = {"ante": 1, "small_bet": 2, "big_bet": 4, "raise_cap": 4}
    others = [s for s in dealt if s != me]
    folded = set(rng.sample(others, rng.randint(0, len(others) - 1)))
    allin = {s for s in others if s not in folded and rng.random() < 0.15}
    draw_phase = street == "draw"
    max_bet = 0 if draw_phase else rng.choice([0, unit, 2 * unit, 5 * unit, 20 * unit, 150])
    stacks = {s: rng.choice([1, 5, 30, 100, 200, 400, 1000]) for s in dealt}
    for s in allin:
        stacks[s] = 0
    bets = {s: 0 for s in dealt}
    for s in dealt:
        if s == me or s in folded:
            bets[s] = rng.choice([0, min(max_bet, unit)]) if not draw_phase else 0
        else:
            bets[s] = max_bet if rng.random() < 0.7 else rng.randint(0, max_bet)
    if max_bet and not any(bets[s] == max_bet for s in others if s not in folded):
        bets[next(s for s in others if s not in folded)] = max_bet
    committed = bets[me]
    top = max(bets.values())
    call_cost = min(top - committed, stacks[me])
    stack = stacks[me]
    if draw_phase:
        legal = {
            "seat": me,
            "can_fold": False,
            "can_check": False,
            "call_cost": 0,
            "bet_kind": None,
            "min_to": 0,
            "max_to": 0,
            "committed": 0,
            "stack": stack,
            "max_discards": 3,
            "is_draw_phase": True,
        }
    else:
        can_raise = stack > call_cost and rng.random() < 0.9
        step = unit if variant == "holdem" else (2 if street == "predraw" else 4)
        max_to = committed + stack if variant == "holdem" else min(committed + stack, top + step)
        min_to = min(max(top + step, step), max_to)
        legal = {
            "seat": me,
            "can_fold": call_cost > 0,
            "can_check": call_cost == 0,
            "call_cost": call_cost,
            "bet_kind": ("bet" if top == 0 else "raise") if can_raise else None,
            "min_to": min_to if can_raise else 0,
            "max_to": max_to if can_raise else 0,
            "committed": committed,
            "stack": stack,
            "max_discards": 0,
            "is_draw_phase": False,
        }
    history: list[dict[str, Any]] = []
    first = "preflop" if variant == "holdem" else "predraw"
    streets = [first] + (
        [k for k, v in HOLDEM_STREETS.items() if 0 < v <= len(board)]
        if variant == "holdem"
        else (["draw", "postdraw"][: ["predraw", "draw", "postdraw"].index(street)])
    )
    shown = 0
    for st in streets:
        if st != first:
            cards = board[shown : HOLDEM_STREETS.get(st, 0)] if variant == "holdem" else []
            shown += len(cards)
            history.append({"kind": "street", "name": st, "cards": [format_card(c) for c in cards]})
        for s in dealt:
            kind = (
                rng.choice(["check", "call", "bet", "raise", "fold"])
                if s in folded or s != me
                else "call"
            )
            if s in folded:
                kind = "fold"
            history.append(
                {
                    "kind": "action",
                    "seat": s,
                    "action": kind,
                    "amount": rng.choice([0, unit, 3 * unit]),
                    "added": 0,
                    "all_in": s in allin,
                }
            )
    discards = {
        s: (
            rng.randint(0, 3)
            if street == "postdraw" or (draw_phase and dealt.index(s) < dealt.index(me))
            else None
        )
        for s in dealt
    }
    return {
        "variant": variant,
        "viewer": me,
        "street": street,
        "button": button,
        "dealt_seats": dealt,
        "stakes": stakes,
        "seats": [
            {
                "seat": s,
                "stack": stacks[s],
                "bet": bets[s],
                "total_bet": bets[s] + rng.choice([0, unit, 10 * unit]),
                "status": "folded" if s in folded else "allin" if s in allin else "active",
                "last_action": None,
                "cards": [format_card(c) for c in hole[s]] if s == me else None,
                "card_count": len(hole[s]),
                "discards": discards[s] if variant == "draw" else None,
            }
            for s in seats
        ],
        "board": [format_card(c) for c in board],
        "pots": [],
        "to_act": me,
        "legal": legal,
        "history": history,
        "result": None,
    }


def played_view(
    variant: str, actions: list[str], seed: int = 1, viewer: int = 0, stop: bool = False
) -> dict[str, Any]:
    """A heads-up hand where the seats play ``actions`` in turn (``jam``, ``call``, ``fold``,
    ``check``, ``bet`` = a pot-sized bet), then check it down; ``viewer``'s final view, or
    with ``stop`` its view when the actions run out on its turn."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hand = _start(variant, deck, 0, 200)
    queue = list(actions)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        if legal.is_draw_phase:
            hand.act(seat, Action.discard(()))
            continue
        if stop and not queue and seat == viewer:
            return view(hand, viewer)
        kind = queue.pop(0) if queue else ("check" if legal.can_check else "call")
        if kind == "jam":
            act = (
                Action.raise_to(legal.max_to)
                if legal.bet_kind == "raise"
                else Action.bet(legal.max_to)
            )
        elif kind == "bet":
            to = min(legal.max_to, max(legal.min_to, legal.committed + sum(hand.total)))
            act = Action.raise_to(to) if legal.bet_kind == "raise" else Action.bet(to)
        else:
            act = {"call": Action.call(), "fold": Action.fold(), "check": Action.check()}[kind]
        hand.act(seat, act)
    return view(hand, viewer)
