"""The leak test (FAIRNESS.md, DESIGN.md principle 3): thousands of random hands with people,
bots, spectators, reconnects, all-ins, folds, mucks, voluntary shows and draw hands. Every
frame sent to every connection is checked, when it is sent, against the hand's true deck and
salts: no card or salt of a position that receiver may not see, ever."""

from __future__ import annotations

import json
import re
from random import Random

from rooms_helpers import Table, draw_config, holdem_config, random_action

from ahiko.poker.cards import format_card
from ahiko.poker.events import CardsShown, Discarded, HoleDealt, StreetDealt, event_to_dict
from ahiko.rooms import commands as c
from ahiko.rooms.outbox import Frame
from ahiko.rooms.room import Room
from ahiko.rooms.table_hand import TableHand

QUOTED_CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
QUOTED_HEX64 = re.compile(r'"([0-9a-f]{64})"')
HANDS_PER_TABLE = 250
TABLES = 8  # 2,000 hands in all, half of them five-card draw


def allowed_positions(hand: TableHand, seat: int | None) -> set[int]:
    """Positions this viewer may know now, from the engine's private log, independently of
    the view and release code under test."""
    if hand.engine is None:
        return set()
    deck = hand.committer.deck
    allowed: set[int] = set()
    for event in hand.engine.events:
        if (
            (isinstance(event, HoleDealt) and event.seat == seat)
            or isinstance(event, StreetDealt)
            or (isinstance(event, Discarded) and event.seat == seat)
        ):
            allowed.update(event.positions)
        elif isinstance(event, CardsShown):
            allowed.update(deck.index(card) for card in event.cards)
    return allowed


class LeakGuard:
    """A connection that checks each frame against the truth at the moment it is sent."""

    def __init__(self, room: Room, pid: str | None, stats: dict[str, int]) -> None:
        self.room = room
        self.pid = pid
        self.stats = stats
        self.connection_id = f"guard-{id(self)}"

    @property
    def player_id(self) -> str | None:
        return self.pid

    def deliver(self, sent: Frame) -> None:
        frame = json.loads(sent.text())  # exactly what the gateway sends
        self.stats["frames"] += 1
        hand = (
            self.room.dealer.hand
            if (self.room.dealer.hand and self.room.dealer.hand.engine)
            else self.room.dealer.last_hand
        )
        if hand is None or hand.engine is None:
            return
        seat = hand.seat_of(self.pid) if self.pid is not None else None
        allowed = allowed_positions(hand, seat)
        deck, salts = hand.committer.deck, hand.committer.salts
        hidden_cards = {format_card(deck[p]) for p in range(len(deck)) if p not in allowed}
        hidden_salts = {salts[p].hex() for p in range(len(deck)) if p not in allowed}
        wire = sent.text()
        for text in QUOTED_CARD.findall(wire):
            self.stats["cards"] += 1
            assert text not in hidden_cards, (self.pid, seat, text, frame["t"])
        for text in QUOTED_HEX64.findall(wire):
            assert text not in hidden_salts, (self.pid, seat, "salt", frame["t"])


def play_table(index: int, stats: dict[str, int]) -> None:
    rng = Random(1000 + index)
    config_of = draw_config if index % 2 else holdem_config
    players = 2 + index % 3  # heads-up to four-handed
    t = Table(config_of(starting_chips=150, seats=6), host="p0", seed=index)
    people = [f"p{i}" for i in range(players - 1)]
    guards: dict[str, LeakGuard] = {}
    for i, pid in enumerate(people):
        guards[pid] = LeakGuard(t.room, pid, stats)
        t.attach(guards[pid])
        t.ok(c.Sit(pid, pid, i))
    t.ok(c.AddBot("p0", "random"))
    t.attach(LeakGuard(t.room, None, stats))  # a spectator
    t.ok(c.Start("p0"))
    while t.room.dealer.hands_dealt < HANDS_PER_TABLE:
        hand = t.room.dealer.hand
        if hand is None or hand.engine is None or hand.to_act is None:
            between_hands(t, rng, people, stats)
            t.advance(2)
            continue
        seat = hand.to_act
        action = random_action(rng, hand.legal(), hand.hand.hole_cards(seat))
        assert t.submit(c.Act(hand.players[seat], hand.hand_no, action)).ok
        if rng.random() < 0.02:  # someone drops and reconnects mid-hand: a fresh snapshot
            pid = rng.choice(people)
            t.detach(guards[pid])
            guards[pid] = LeakGuard(t.room, pid, stats)
            t.attach(guards[pid])
    stats["hands"] += t.room.dealer.hands_dealt


def between_hands(t: Table, rng: Random, people: list[str], stats: dict[str, int]) -> None:
    last = t.room.dealer.last_hand
    if last is not None and last.engine is not None and rng.random() < 0.3:
        winner = next(
            (p for s, p in last.players.items() if last.final_stacks()[s] > last.start_stacks[s]),
            None,
        )
        if winner in people and t.submit(c.Show(winner, last.hand_no)).ok:
            stats["shows"] += 1
    for pid in people:
        seat = t.room.seats.seat_of(pid)
        occupant = t.room.seats.get(seat) if seat is not None else None
        if occupant is not None and occupant.stack == 0 and t.room.dealer.hand is None:
            t.ok(c.NewEntry(pid))
    if t.room.seats.get(len(people)) is None and t.room.dealer.hand is None:
        t.ok(c.AddBot("p0", "random", seat=len(people)))  # the broke bot left: a new one


def test_R_FD_03_leak_no_frame_carries_a_card_or_salt_its_receiver_may_not_see() -> None:
    stats = {"frames": 0, "cards": 0, "hands": 0, "shows": 0}
    for index in range(TABLES):
        play_table(index, stats)
    assert stats["hands"] >= 2000
    assert stats["cards"] > 10 * stats["hands"]  # the check really looked at cards
    assert stats["shows"] > 0


def test_R_HE_12_a_mucked_hand_stays_private_in_every_frame() -> None:
    stats = {"frames": 0, "cards": 0, "hands": 0, "shows": 0}
    t = Table(holdem_config(), host="p0")
    t.attach(LeakGuard(t.room, "p0", stats))
    t.ok(c.Sit("p0", "p0", 0))
    t.attach(LeakGuard(t.room, "p1", stats))
    t.ok(c.Sit("p1", "p1", 1))
    t.ok(c.Start("p0"))
    t.to_deal()
    t.play_hand_passively()
    last = t.room.dealer.last_hand
    assert last is not None and last.engine is not None
    kinds = [event_to_dict(e)["kind"] for e in last.engine.events]
    assert "cards_shown" in kinds and stats["cards"] > 0
