"""Signals of abuse (issue 45) on a planted archive: 20 honest bot-driven accounts play Ahiko
rooms among themselves; one account dumps chips to another for 200 hands (it folds every
strong starting hand to the other's bets), two others soft-play at a table with a third (left
alone in a round, they only check and call), and two more sit at a table from one address.
Each planted pair is flagged, with what was measured and the hands; no honest pair is."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, insert

from ahiko.cli import main
from ahiko.history.abuse_signals import Signal, signals, strong_start, weak_start
from ahiko.poker.actions import Action, ActionKind
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.table_hand import TableHand
from ahiko.store.engine import make_engine
from ahiko.store.migrate import upgrade
from ahiko.store.schema import table_addresses
from archive_factory import START, Sitter, add_person, play_hand

STAKES = Stakes(small_blind=5, big_blind=10)
STACK = 1000
PLANTED_HANDS = 200
HONEST_HANDS = 150
Decide = Callable[[TableHand, int], Action | None]


def _round(table: TableHand) -> tuple[int | None, set[int]]:
    """The betting round now: who bet or raised last in it, and who is neither folded nor
    all in."""
    aggressor, live = None, set(table.hand.dealt_seats)
    for event in table.hand.events:
        if event.kind == "street":
            aggressor = None
        elif event.kind == "action":
            seat, action = event.seat, event.action  # type: ignore[attr-defined]
            if action in ("bet", "raise"):
                aggressor = seat
            if action == "fold" or event.all_in:  # type: ignore[attr-defined]
                live.discard(seat)
    return aggressor, live


def dumping(dumper: int, receiver: int) -> Decide:
    """The receiver bets or raises whenever it may; the dumper folds a strong starting hand
    to the receiver's bet and calls it with a weak one, and plays like anyone otherwise."""

    def decide(table: TableHand, seat: int) -> Action | None:
        legal = table.legal()
        if seat == receiver and legal.bet_kind is not None:
            return Action(legal.bet_kind, legal.min_to)
        facing = _round(table)[0] == receiver
        if seat != dumper or not facing:
            return None
        cards = table.hand.hole_cards(seat)
        if strong_start(cards) and legal.can_fold:
            return Action(ActionKind.FOLD)
        return Action(ActionKind.CALL) if weak_start(cards) and legal.can_call else None

    return decide


def soft_play(pair: tuple[int, int]) -> Decide:
    """Left alone together in a round, the two only check or call."""

    def decide(table: TableHand, seat: int) -> Action | None:
        live = _round(table)[1]
        if seat not in pair or live != set(pair):
            return None
        legal = table.legal()
        return Action(ActionKind.CHECK if legal.can_check else ActionKind.CALL)

    return decide


def _session(
    engine: Engine, rng: random.Random, room_id: str, sitters: dict[int, Sitter], hands: int,
    decide: Decide | None = None,
) -> None:  # fmt: skip
    seats = sorted(sitters)
    for n in range(hands):
        play_hand(
            engine,
            rng,
            room_id=room_id,
            room_kind="ahiko",
            variant="holdem",
            hand_no=n + 1,
            sitters=sitters,
            stacks=dict.fromkeys(seats, STACK),
            stakes=STAKES,
            button=seats[n % len(seats)],
            ended_at=START + timedelta(minutes=2 * n),
            show_rate=0.0,
            decide=decide,
        )


def _seen_at(engine: Engine, room_id: str, user_id: int, address: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(table_addresses).values(
                room_id=room_id, user_id=user_id, address_hash=address, seen_at=START
            )
        )


@pytest.fixture(scope="module")
def archive_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("abuse") / "archive.sqlite3"
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    upgrade(engine)
    # Accounts made a day apart: no burst among them.
    made = iter(range(1000))

    def person(name: str) -> Sitter:
        return Sitter(name, add_person(engine, name, START - timedelta(days=next(made))))

    honest = [person(f"honest{n:02d}") for n in range(20)]
    dumper, receiver = person("dumper"), person("receiver")
    soft_a, soft_b = person("soft_a"), person("soft_b")
    twin_a, twin_b = person("twin_a"), person("twin_b")
    rng = random.Random(45)
    for table in range(4):  # honest tables of five, each seen from its own address
        sitters = dict(enumerate(honest[table * 5 : table * 5 + 5]))
        room_id = f"r-honest-{table}"
        _session(engine, rng, room_id, sitters, HONEST_HANDS)
        for sitter in sitters.values():
            assert sitter.user_id is not None
            _seen_at(engine, room_id, sitter.user_id, f"home-of-{sitter.name}")
    _session(
        engine, rng, "r-dump", {0: dumper, 1: receiver, 2: honest[0]}, PLANTED_HANDS,
        dumping(0, 1),
    )  # fmt: skip
    _session(
        engine, rng, "r-soft", {0: soft_a, 1: soft_b, 2: honest[5]}, PLANTED_HANDS,
        soft_play((0, 1)),
    )  # fmt: skip
    _session(engine, rng, "r-twins", {0: twin_a, 1: twin_b, 2: honest[10]}, 40)
    for twin in (twin_a, twin_b):
        assert twin.user_id is not None
        _seen_at(engine, "r-twins", twin.user_id, "one-flat")
    assert honest[10].user_id is not None
    _seen_at(engine, "r-twins", honest[10].user_id, "home-of-honest10")
    engine.dispose()
    return url


@pytest.fixture(scope="module")
def found(archive_url: str) -> list[Signal]:
    engine = make_engine(archive_url)
    try:
        return signals(engine)
    finally:
        engine.dispose()


def _pairs(found: list[Signal], kind: str) -> set[frozenset[str]]:
    return {frozenset(s.accounts) for s in found if s.kind == kind}


def test_chip_dumping_is_flagged_with_what_was_measured_and_the_hands(
    found: list[Signal],
) -> None:
    flow = [s for s in found if s.kind == "chip_flow"]
    assert [s.accounts for s in flow] == [("dumper", "receiver")]
    dump = flow[0]
    assert dump.figures["rate"] == 1.0 and dump.figures["rate_against_others"] < 0.5
    assert dump.figures["strong_folds"] >= 8 and len(dump.hands) == dump.figures["strong_folds"]
    assert dump.figures["coins_to"] > dump.figures["coins_back"]
    assert dump.figures["weak_calls"] >= 5 and "weak hands" in dump.measured
    assert "folded" in dump.measured and "dumper" in dump.measured


def test_soft_play_is_flagged_and_no_honest_pair_is(found: list[Signal]) -> None:
    assert _pairs(found, "soft_play") == {frozenset(("soft_a", "soft_b"))}
    soft = next(s for s in found if s.kind == "soft_play")
    assert soft.figures["actions_alone"] >= 25 and soft.hands
    assert "never bet or raised" in soft.measured


def test_a_shared_address_is_flagged_and_only_it(found: list[Signal]) -> None:
    assert _pairs(found, "shared_address") == {frozenset(("twin_a", "twin_b"))}
    assert next(s for s in found if s.kind == "shared_address").figures["rooms"] == ["r-twins"]


def test_no_honest_account_is_in_any_pair_signal(found: list[Signal]) -> None:
    flagged = {name for s in found if s.kind != "account_burst" for name in s.accounts}
    assert flagged == {"dumper", "receiver", "soft_a", "soft_b", "twin_a", "twin_b"}
    assert not [s for s in found if s.kind == "account_burst"]  # made a day apart


def test_abuse_report_lists_the_same_signals_on_the_command_line(
    archive_url: str, found: list[Signal], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    where = ["--database-url", archive_url, "--data-dir", str(tmp_path)]
    assert main(["admin", "abuse-report", *where, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [signal.as_dict() for signal in found]
    assert main(["admin", "abuse-report", *where]) == 0
    text = capsys.readouterr().out
    assert "[chip_flow] dumper, receiver" in text and "[soft_play] soft_a, soft_b" in text
    assert "hands: " in text
