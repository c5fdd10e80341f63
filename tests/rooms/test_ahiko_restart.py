"""Durable Ahiko rooms (issues 5 and 9): after a crash the room reopens with the same id,
seats and stacks (the interrupted hand cancelled, R-FD-06), participations still open with
escrow == stack and no coin moved; hand numbers go on; people come back through their
connection (R-TM-05 meanwhile) or are paid out two minutes after the restart (R-TM-03/07);
the Bot Ahiko goes back to its reserve (R-BA-02). A "crash" drops a lobby without finishing
anything; a new lobby starts on the same database."""

from __future__ import annotations

import pytest
from ahiko_helpers import Ahiko, act_passively, play_out, to_hand
from sqlalchemy import Engine, func, select, update

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.rooms.room import Room
from ahiko.store.engine import make_engine
from ahiko.store.rooms import open_stays
from ahiko.store.schema import hands, ledger_transactions, participations, seats


def restart(ahiko: Ahiko) -> Ahiko:
    """The process died: its rooms, timers and clock are gone; a new one starts."""
    return Ahiko(ahiko.engine)


def reopened(ahiko: Ahiko, room_id: str) -> Room:
    actor = ahiko.registry.get(room_id)
    assert actor is not None, f"room {room_id} did not reopen"
    return actor.room


def ledger_transaction_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ledger_transactions)).scalar())


def hand_rows(engine: Engine, room_id: str) -> dict[int, tuple[str, str | None]]:
    query = select(hands.c.hand_no, hands.c.status, hands.c.cancel_reason).where(
        hands.c.room_id == room_id
    )
    with engine.connect() as conn:
        return {n: (status, reason) for n, status, reason in conn.execute(query)}


def seated(room: Room) -> dict[int, tuple[str, int]]:
    return {seat: (o.player_id, o.stack) for seat, o in room.seats.items()}


def until_in_play(ahiko: Ahiko, room: Room, at_least: int) -> int:
    """Let time pass, people acting passively, until a hand numbered ``at_least`` or more
    is dealt and waits for a decision (a bot may fold its hand away at the deal)."""
    for _ in range(1200):
        hand = room.dealer.hand
        if hand is not None and hand.phase.value == "dealt" and hand.to_act is not None:
            if hand.hand_no >= at_least:
                return hand.hand_no
            occupant = room.seats.get(hand.to_act)
            if occupant is not None and occupant.is_person:
                act_passively(room)
                continue
        ahiko.advance(0.5)
    raise AssertionError(f"no hand from number {at_least} on came into play")


def crash_mid_hand(ahiko: Ahiko) -> tuple[Room, str, str, dict[str, int]]:
    """Two people play a hand to its end, then crash in the middle of the next one (chips
    in the pot). Returns the room, the people and their stacks at that hand's start."""
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, 150).ok
    assert ahiko.sit(room, bia, 3, 200).ok
    to_hand(ahiko, room)
    play_out(room)
    ahiko.advance(room.config.timing.next_hand_delay_s + room.config.timing.commitment_display_s)
    hand = room.dealer.hand
    assert hand is not None and hand.phase.value == "dealt" and hand.hand_no == 2
    seat = hand.to_act
    assert seat is not None
    legal = hand.legal()
    assert room.submit(c.Act(hand.players[seat], 2, Action(legal.bet_kind, legal.min_to))).ok
    start = {hand.players[s]: chips for s, chips in hand.start_stacks.items()}
    assert room.seats.get(seat).stack == start[hand.players[seat]]  # type: ignore[union-attr]
    return room, ana, bia, start


def test_issue5_R_FD_06_a_crash_mid_hand_reopens_the_room_with_the_hands_start_stacks(
    ahiko: Ahiko,
) -> None:
    room, ana, bia, start = crash_mid_hand(ahiko)
    room_id, name = room.room_id, room.config.name
    transactions = ledger_transaction_count(ahiko.engine)
    wallets = {p: ahiko.wallet_of(p) for p in (ana, bia)}

    after = restart(ahiko)
    again = reopened(after, room_id)
    assert again.config.name == name and again.is_open
    assert seated(again) == {0: (ana, start[ana]), 3: (bia, start[bia])}
    assert all(not o.connected for _, o in again.seats.items())
    stays = {s.user_id: s for s in open_stays(after.engine, room_id)}
    assert {str(u): s.escrow for u, s in stays.items()} == start
    assert ledger_transaction_count(after.engine) == transactions  # no coin moved
    assert {p: after.wallet_of(p) for p in (ana, bia)} == wallets
    assert hand_rows(after.engine, room_id)[2] == ("cancelled", "server restarted mid-hand")
    assert again.dealer.next_hand_no > 2
    assert len(after.rooms()) == 6  # the reopened one and five others, no more
    after.check()


def test_issue9_R_TM_05_people_reconnect_to_their_seats_and_play_on(ahiko: Ahiko) -> None:
    room, ana, bia, start = crash_mid_hand(ahiko)
    after = restart(ahiko)
    again = reopened(after, room.room_id)
    after.advance(30)
    assert again.dealer.hand is None  # R-TM-05: nobody connected, nobody dealt in
    rec = after.connect(again, ana)
    assert rec.frames[0]["t"] == "snapshot"
    after.advance(30)
    assert again.dealer.hand is None  # one connected person and one absent: no hand
    after.connect(again, bia)
    to_hand(after, again)
    hand = again.dealer.hand
    assert hand is not None and hand.hand_no == again.dealer.next_hand_no - 1 > 2
    assert {hand.players[s]: chips for s, chips in hand.start_stacks.items()} == start
    play_out(again)
    assert again.dealer.hand is None and again.dealer.last_hand is hand
    after.check()
    rows = hand_rows(after.engine, room.room_id)
    assert rows[hand.hand_no][0] == "finished" and rows[2][0] == "cancelled"
    assert sum(o.stack for _, o in again.seats.items()) == sum(start.values())


def test_R_TM_03_R_TM_07_who_does_not_come_back_is_paid_out_two_minutes_after_restart(
    ahiko: Ahiko,
) -> None:
    room, ana, bia, start = crash_mid_hand(ahiko)
    wallet_before = ahiko.wallet_of(bia)
    after = restart(ahiko)
    again = reopened(after, room.room_id)
    after.advance(60)
    after.connect(again, ana)
    after.advance(59.9)
    assert again.seats.seat_of(bia) == 3
    after.advance(0.2)
    assert again.seats.seat_of(bia) is None and again.seats.seat_of(ana) == 0
    assert after.wallet_of(bia) == wallet_before + start[bia]
    assert [s.user_id for s in open_stays(after.engine, room.room_id)] == [int(ana)]
    after.check()


def test_R_BA_02_a_seated_bot_ahiko_goes_back_to_the_reserve_and_returns_later(
    ahiko: Ahiko,
) -> None:
    room = ahiko.room("classica")
    ana = ahiko.person("ana")
    assert ahiko.sit(room, ana, 0, 700).ok
    ahiko.advance(20)  # R-BA-01: the bot joins the lone person
    assert room.seats.seat_of(BOT_AHIKO_ID) is not None
    until_in_play(ahiko, room, 2)
    assert room.dealer.hand is not None
    bot_seat = room.seats.seat_of(BOT_AHIKO_ID)
    bot_start = room.dealer.hand.start_stacks[bot_seat]  # type: ignore[index]
    reserve = ahiko.wallet.reserve_balance()

    after = restart(ahiko)
    again = reopened(after, room.room_id)
    assert again.seats.seat_of(BOT_AHIKO_ID) is None and again.seats.seat_of(ana) == 0
    assert after.wallet.reserve_balance() == reserve + bot_start
    with after.engine.connect() as conn:
        open_bots = conn.execute(
            select(func.count()).where(
                participations.c.player == "bot_ahiko", participations.c.status == "open"
            )
        ).scalar()
    assert open_bots == 0
    [report] = [r for r in after.lobby.reopened if r.room_id == room.room_id]
    assert report.bot_returned and report.people == [0]
    after.check()
    after.connect(again, ana)
    after.advance(20)  # funded again, under a new idempotency key
    assert again.seats.seat_of(BOT_AHIKO_ID) is not None
    expected = again.dealer.next_hand_no
    assert until_in_play(after, again, expected) >= expected
    after.check()


def test_R_FD_06_numbers_of_hands_cancelled_before_the_deal_are_never_reused(
    ahiko: Ahiko,
) -> None:
    room = ahiko.room("iniciante")
    ana, bia, caio = ahiko.person("ana"), ahiko.person("bia"), ahiko.person("caio")
    for seat, pid in enumerate((ana, bia, caio)):
        assert ahiko.sit(room, pid, seat, 100).ok
    ahiko.advance(8)  # hand 1 committed, not dealt
    assert room.dealer.hand is not None and room.dealer.hand.hand_no == 1
    assert room.submit(c.Leave(caio)).ok  # R-FD-06: cancelled, no blinds
    assert room.dealer.hand is None
    assert hand_rows(ahiko.engine, room.room_id)[1][0] == "cancelled"
    ahiko.advance(8)  # hand 2 committed; the process dies before its cards
    assert room.dealer.hand is not None and room.dealer.hand.hand_no == 2
    after = restart(ahiko)
    again = reopened(after, room.room_id)
    assert again.dealer.next_hand_no >= 3
    after.connect(again, ana)
    after.connect(again, bia)
    after.advance(8)
    assert (
        again.dealer.hand is not None
        and again.dealer.hand.hand_no == again.dealer.next_hand_no - 1 >= 3
    )
    after.check()


def test_issue5_a_seat_that_disagrees_with_its_escrow_takes_the_escrows_amount(
    ahiko: Ahiko,
) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, 150).ok
    assert ahiko.sit(room, bia, 1, 120).ok
    with ahiko.engine.begin() as conn:  # damage the stored seat, not the ledger
        conn.execute(
            update(seats).where(seats.c.room_id == room.room_id, seats.c.seat == 0).values(stack=1)
        )
    after = restart(ahiko)
    again = reopened(after, room.room_id)
    assert seated(again) == {0: (ana, 150), 1: (bia, 120)}
    [report] = [r for r in after.lobby.reopened if r.room_id == room.room_id]
    assert len(report.corrections) == 1 and "escrow holds 150" in report.corrections[0]
    after.check()


def test_issue5_restarting_twice_without_play_changes_nothing(ahiko: Ahiko) -> None:
    room, ana, bia, start = crash_mid_hand(ahiko)
    first = restart(ahiko)
    second = restart(first)
    again = reopened(second, room.room_id)
    assert seated(again) == {0: (ana, start[ana]), 3: (bia, start[bia])}
    assert again.dealer.next_hand_no > reopened(first, room.room_id).dealer.next_hand_no - 1
    assert len(second.rooms()) == 6
    second.check()


@pytest.mark.postgres
def test_issue5_issue9_restart_mid_hand_on_postgresql(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    try:
        room, ana, bia, start = crash_mid_hand(Ahiko(engine))
        after = Ahiko(engine)
        again = reopened(after, room.room_id)
        assert seated(again) == {0: (ana, start[ana]), 3: (bia, start[bia])}
        after.check()
        after.connect(again, ana)
        after.connect(again, bia)
        to_hand(after, again)
        play_out(again)
        after.check()
    finally:
        engine.dispose()
