"""The Bot Ahiko and its reserve (R-BA-01..03), absence in Ahiko rooms (R-TM-03, R-TM-07),
on a manual clock over a real ledger."""

from __future__ import annotations

from ahiko_helpers import Ahiko, act_passively, play_out, to_hand

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.store.rooms import save_room
from ahiko.wallet.policy import SIGNUP_GRANT
from ahiko.wallet.stays import bot_stays, reserve_statement, stays_of


def test_R_BA_01_a_person_alone_for_20_seconds_meets_the_funded_bot(ahiko: Ahiko) -> None:
    room = ahiko.room("classica")
    ana = ahiko.person("ana")
    reserve = ahiko.wallet.reserve_balance()
    assert ahiko.sit(room, ana, 0, 700).ok
    ahiko.advance(19.9)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None
    ahiko.advance(0.1)
    seat = room.seats.seat_of(BOT_AHIKO_ID)
    assert seat is not None
    bot = room.seats.get(seat)
    assert bot is not None and bot.is_bot and bot.name == "Bot Ahiko" and bot.stack == 700
    assert ahiko.wallet.reserve_balance() == reserve - 700
    stay = bot_stays(ahiko.engine)[0]
    assert (stay.room_id, stay.entry, stay.status) == (room.room_id, 700, "open")
    ahiko.advance(8 + 2)
    assert room.hand is not None and set(room.hand.players.values()) == {ana, BOT_AHIKO_ID}
    ahiko.check()


def test_R_BA_02_the_reserve_never_creates_chips_and_a_short_reserve_is_told(
    ahiko: Ahiko,
) -> None:
    save_room(ahiko.engine, "drain", "ahiko", {"purpose": "empty the reserve"})
    ahiko.wallet.bot_fund("drain", 0, ahiko.wallet.reserve_balance(), "drain-reserve")
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    rec = ahiko.connect(room, ana)
    assert ahiko.sit(room, ana, 0, 100).ok
    ahiko.advance(20)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None
    notices = rec.of("notice")
    assert len(notices) == 1 and notices[0]["code"] == "bot_reserve_unavailable"
    assert notices[0]["rule"] == "R-BA-02" and "reserve" in notices[0]["message"]
    ahiko.advance(60)  # still waiting, told once
    assert room.seats.seat_of(BOT_AHIKO_ID) is None and len(rec.of("notice")) == 1
    ahiko.wallet.reserve_add(500, "refill for the test", "refill")
    ahiko.advance(20)
    assert room.seats.seat_of(BOT_AHIKO_ID) is not None
    balance, lines = reserve_statement(ahiko.engine)
    assert balance == 400 and [line.kind for line in lines][-2:] == ["reserve_add", "bot_fund"]
    assert sum(line.amount for line in lines) == balance
    ahiko.check()


def test_R_BA_03_the_bot_leaves_between_hands_when_a_person_arrives(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    reserve = ahiko.wallet.reserve_balance()
    assert ahiko.sit(room, ana, 0, 150).ok
    ahiko.advance(20)
    entry = room.lobby_entry()  # what GET /api/ahiko/rooms lists
    assert entry["people"] == 1 and entry["bot_ahiko"]
    to_hand(ahiko, room)
    assert ahiko.sit(room, bia, 3, 100).data["reserved"]
    seat = room.seats.seat_of(BOT_AHIKO_ID)
    assert seat is not None and room.seats.get(seat).leave_after_hand  # type: ignore[union-attr]
    play_out(room)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None
    bot = bot_stays(ahiko.engine)[0]
    assert bot.status == "closed"
    assert ahiko.wallet.reserve_balance() == reserve + bot.net  # type: ignore[operator]
    ahiko.check()


def test_R_BA_03_the_bot_leaves_when_no_eligible_person_remains(ahiko: Ahiko) -> None:
    room = ahiko.room("alta")
    ana = ahiko.person("ana")
    reserve = ahiko.wallet.reserve_balance()
    assert ahiko.sit(room, ana, 1, 1500).ok
    ahiko.advance(20)
    assert room.seats.seat_of(BOT_AHIKO_ID) is not None
    assert room.submit(c.Leave(ana)).ok
    assert room.seats.taken == 0
    assert ahiko.wallet.reserve_balance() == reserve
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT
    ahiko.check()


def test_R_TM_03_two_minutes_disconnected_starts_the_withdrawal(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia, caio = ahiko.person("ana"), ahiko.person("bia"), ahiko.person("caio")
    for pid, seat in ((ana, 0), (bia, 2), (caio, 4)):
        assert ahiko.sit(room, pid, seat, 100).ok
    ahiko.disconnect(room, caio)  # between hands: not dealt in (R-TM-05)
    to_hand(ahiko, room)
    assert caio not in room.hand.players.values()  # type: ignore[union-attr]
    ahiko.advance(109)  # 119 s since the disconnection
    assert stays_of(ahiko.engine, int(caio))[0].status == "open"
    ahiko.advance(1)
    assert room.seats.seat_of(caio) is None
    assert stays_of(ahiko.engine, int(caio))[0].exit == 100
    assert ahiko.wallet_of(caio) == SIGNUP_GRANT
    ahiko.check()


def test_R_TM_07_an_absent_all_in_keeps_its_right_and_the_room_plays_on(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia, caio = ahiko.person("ana"), ahiko.person("bia"), ahiko.person("caio")
    for pid, seat, amount in ((ana, 0, 100), (bia, 2, 200), (caio, 4, 200)):
        assert ahiko.sit(room, pid, seat, amount).ok
    to_hand(ahiko, room)
    hand = room.hand
    assert hand is not None and hand.to_act == 0  # the first button acts first three-handed
    legal = hand.legal()
    assert room.submit(c.Act(ana, hand.hand_no, Action(legal.bet_kind, legal.max_to))).ok  # type: ignore[arg-type]
    ahiko.disconnect(room, ana)
    absent_for = 0.0
    while room.hand is hand and hand.to_act is not None:
        ahiko.advance(19)  # the others take their time, within the deadline
        absent_for += 19
        if absent_for > 120:  # withdrawal scheduled: the all-in still contests the pot
            ana_seat = room.seats.get(0)
            assert ana_seat is not None and ana_seat.leave_after_hand
            assert stays_of(ahiko.engine, int(ana))[0].status == "open"
        assert act_passively(room).ok
    assert absent_for > 120 and room.hand is None
    result = hand.hand.result
    assert result is not None and 0 in result.pots[0].eligible  # the all-in's right stood
    assert room.seats.seat_of(ana) is None  # paid out at the end of the participation
    stay = stays_of(ahiko.engine, int(ana))[0]
    assert stay.status == "closed" and stay.exit == result.stacks[0]
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT + stay.net  # type: ignore[operator]
    assert room.is_open
    ahiko.check()


def test_R_TM_07_a_disconnected_player_is_played_by_the_deadline(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia, caio = ahiko.person("ana"), ahiko.person("bia"), ahiko.person("caio")
    for pid, seat in ((ana, 0), (bia, 2), (caio, 4)):
        assert ahiko.sit(room, pid, seat, 100).ok
    to_hand(ahiko, room)
    hand = room.hand
    assert hand is not None and hand.to_act is not None
    absent = hand.players[hand.to_act]
    ahiko.disconnect(room, absent)
    ahiko.advance(20)  # R-RM-11 deadline: the seat folds (a bet was pending)
    seat = hand.seat_of(absent)
    assert hand.view(None)["seats"][hand.dealt_seats.index(seat)]["status"] == "folded"  # type: ignore[index, arg-type]
    play_out(room)
    ahiko.check()
