"""Durable rooms: seats and stacks at hand boundaries, hand logs, crash recovery."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from ahiko.store.accounts import insert_user
from ahiko.store.engine import make_engine
from ahiko.store.rooms import (
    SeatRecord,
    begin_hand,
    load_rooms,
    recover_interrupted_hands,
    save_room,
)
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import Wallet, open_wallet
from store_helpers import load_hand_events, record_hand, save_seats

CONFIG = {"tier": "iniciante", "small_blind": 1, "big_blind": 2, "seats": 8}
EVENTS = [
    {"kind": "hand_started", "seats": [0, 3], "stacks": [150, 200]},
    {"kind": "hand_ended", "stacks": [140, 210]},
]


def test_rooms_and_seats_survive_a_restart(engine, database_url):
    save_room(engine, "r1", "ahiko", CONFIG)
    save_room(engine, "r2", "recreational", {"host": 1}, status="closed")
    save_seats(
        engine, "r1", [SeatRecord(0, "bot", "Bot Fácil", 1_000), SeatRecord(5, "bot", "B", 7)]
    )
    engine.dispose()
    fresh = make_engine(database_url)
    [room] = load_rooms(fresh)
    assert (room.id, room.kind, room.config) == ("r1", "ahiko", CONFIG)
    assert [(s.seat, s.name, s.stack) for s in room.seats] == [(0, "Bot Fácil", 1_000), (5, "B", 7)]
    assert {r.id for r in load_rooms(fresh, include_closed=True)} == {"r1", "r2"}
    fresh.dispose()


def test_save_seats_replaces_the_previous_seats(engine):
    save_room(engine, "r1", "ahiko", CONFIG)
    save_seats(engine, "r1", [SeatRecord(0, "bot", "a", 10), SeatRecord(1, "bot", "b", 10)])
    save_seats(engine, "r1", [SeatRecord(1, "bot", "b", 20)])
    [room] = load_rooms(engine)
    assert [(s.seat, s.stack) for s in room.seats] == [(1, 20)]
    with pytest.raises(ValueError, match="appears twice"):
        save_seats(engine, "r1", [SeatRecord(1, "bot", "b", 20), SeatRecord(1, "bot", "c", 2)])


def test_finished_hands_are_stored_as_event_logs(engine):
    save_room(engine, "r1", "ahiko", CONFIG)
    begin_hand(engine, "r1", 1, {0: 150, 3: 200})
    record_hand(engine, "r1", 1, EVENTS, "finished")
    record_hand(engine, "r1", 2, EVENTS, "finished")  # never begun: inserted whole
    assert load_hand_events(engine, "r1", 1) == EVENTS
    assert load_hand_events(engine, "r1", 2) == EVENTS
    assert load_rooms(engine)[0].last_hand_no == 2
    with pytest.raises(IntegrityError):
        begin_hand(engine, "r1", 1, {0: 1})
    with pytest.raises(ValueError, match="not 'lost'"):
        record_hand(engine, "r1", 3, EVENTS, "lost")


def test_crash_mid_hand_is_cancelled_and_stacks_return(engine, database_url):
    """The process "dies" during hand 2 (the engine is dropped without finishing it); a new
    process recovers: the hand is cancelled, every seat is back to its stack at the hand's
    start, the room reopens with the same seats, and the ledger is intact."""
    wallet = Wallet(engine)
    with engine.begin() as conn:
        now = datetime.now(UTC)
        ana = insert_user(conn, "ana", "h", now)
        open_wallet(conn, ana, now)
        bia = insert_user(conn, "bia", "h", now)
        open_wallet(conn, bia, now)
    save_room(engine, "r1", "ahiko", CONFIG)
    pa = wallet.buy_in(ana, "r1", 0, 150, "a").participation_id
    pb = wallet.buy_in(bia, "r1", 3, 200, "b").participation_id
    seated = [
        SeatRecord(0, "person", "ana", 150, ana, pa),
        SeatRecord(3, "person", "bia", 200, bia, pb),
    ]
    save_seats(engine, "r1", seated)
    begin_hand(engine, "r1", 1, {0: 150, 3: 200})
    record_hand(engine, "r1", 1, EVENTS, "finished")
    wallet.settle_hand("r1", [(pa, -10), (pb, 10)], "r1:hand:1")
    after_first = [
        SeatRecord(0, "person", "ana", 140, ana, pa),
        SeatRecord(3, "person", "bia", 210, bia, pb),
    ]
    save_seats(engine, "r1", after_first)
    begin_hand(engine, "r1", 2, {0: 140, 3: 210})
    engine.dispose()  # crash: hand 2 never ends

    restarted = make_engine(database_url)
    recovered = recover_interrupted_hands(restarted)
    assert [(h.room_id, h.hand_no, h.start_stacks) for h in recovered] == [
        ("r1", 2, {0: 140, 3: 210})
    ]
    assert recover_interrupted_hands(restarted) == []
    [room] = load_rooms(restarted)
    assert [(s.seat, s.stack, s.participation_id) for s in room.seats] == [
        (0, 140, pa),
        (3, 210, pb),
    ]
    assert room.last_hand_no == 2  # the next hand gets another number (R-FD-06)
    assert load_hand_events(restarted, "r1", 2) is None
    assert check_ledger(restarted) == []
    restarted.dispose()
