"""The Bot Ahiko and its reserve (R-BA-01..03), absence in Ahiko rooms (R-TM-03, R-TM-07),
on a manual clock over a real ledger."""

from __future__ import annotations

from pathlib import Path

from ahiko_helpers import Ahiko, act_passively, play_out, to_hand
from rooms_helpers import Recorder

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.rooms.room import Room
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
    assert room.dealer.hand is not None and set(room.dealer.hand.players.values()) == {
        ana,
        BOT_AHIKO_ID,
    }
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
    assert caio not in room.dealer.hand.players.values()  # type: ignore[union-attr]
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
    hand = room.dealer.hand
    assert hand is not None and hand.to_act == 0  # the first button acts first three-handed
    legal = hand.legal()
    assert room.submit(c.Act(ana, hand.hand_no, Action(legal.bet_kind, legal.max_to))).ok  # type: ignore[arg-type]
    ahiko.disconnect(room, ana)
    absent_for = 0.0
    while room.dealer.hand is hand and hand.to_act is not None:
        ahiko.advance(19)  # the others take their time, within the deadline
        absent_for += 19
        if absent_for > 120:  # withdrawal scheduled: the all-in still contests the pot
            ana_seat = room.seats.get(0)
            assert ana_seat is not None and ana_seat.leave_after_hand
            assert stays_of(ahiko.engine, int(ana))[0].status == "open"
        assert act_passively(room).ok
    assert absent_for > 120 and room.dealer.hand is None
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
    hand = room.dealer.hand
    assert hand is not None and hand.to_act is not None
    absent = hand.players[hand.to_act]
    ahiko.disconnect(room, absent)
    ahiko.advance(20)  # R-RM-11 deadline: the seat folds (a bet was pending)
    seat = hand.seat_of(absent)
    assert hand.view(None)["seats"][hand.dealt_seats.index(seat)]["status"] == "folded"  # type: ignore[index, arg-type]
    play_out(room)
    ahiko.check()


def alone_with_a_reserve_of(ahiko: Ahiko, reserve: int, *, stack: int) -> tuple[Room, Recorder]:
    """Drain the reserve down to ``reserve``; a person sits alone at Iniciante with
    ``stack`` and waits the Bot Ahiko's 20 seconds."""
    save_room(ahiko.engine, "drain", "ahiko", {"purpose": f"leave {reserve} in the reserve"})
    ahiko.wallet.bot_fund("drain", 0, ahiko.wallet.reserve_balance() - reserve, "drain-reserve")
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    rec = ahiko.connect(room, ana)
    assert ahiko.sit(room, ana, 0, stack).ok
    ahiko.advance(20)
    return room, rec


def test_R_BA_01_D_the_bot_buys_in_for_what_the_reserve_holds_when_that_is_less(
    ahiko: Ahiko,
) -> None:
    """Iniciante (buy-in 100-200), the person sits with 200, the reserve holds 150: the bot
    buys in for 150 (at least the tier's minimum), where it used to insist on 200."""
    room, rec = alone_with_a_reserve_of(ahiko, 150, stack=200)
    seat = room.seats.seat_of(BOT_AHIKO_ID)
    assert seat is not None and room.seats.get(seat).stack == 150  # type: ignore[union-attr]
    assert ahiko.wallet.reserve_balance() == 0 and rec.of("notice") == []
    ahiko.check()


def test_R_BA_02_below_the_tier_minimum_the_person_is_told_to_wait_or_stand_up(
    ahiko: Ahiko,
) -> None:
    """A reserve of 99 at Iniciante (minimum 100) cannot fund the bot; the notice says what
    the original says: wait for another person, or stand up to receive your balance."""
    room, rec = alone_with_a_reserve_of(ahiko, 99, stack=100)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None
    [notice] = rec.of("notice")
    assert notice["code"] == "bot_reserve_unavailable" and notice["rule"] == "R-BA-02"
    assert notice["message"] == (
        "The Bot Ahiko's reserve is unavailable: wait for another person, or stand up to "
        "receive your balance."
    )
    assert ahiko.wallet.reserve_balance() == 99
    ahiko.check()


def test_R_BA_02_the_pt_BR_and_en_notices_follow_the_original() -> None:
    root = Path(__file__).resolve().parents[2] / "src/ahiko/web/js/locales"
    pt = (root / "pt-BR.js").read_text(encoding="utf-8")
    en = (root / "en.js").read_text(encoding="utf-8")
    assert "aguarde outra pessoa ou levante para receber seu saldo" in pt
    assert "wait for another person, or stand up to receive your balance" in en


def test_R_BA_03_D_the_bot_leaves_between_hands_when_the_person_disconnects(
    ahiko: Ahiko,
) -> None:
    """A disconnected person is not eligible (R-TM-05): the bot does not wait beside them
    for the two minutes of absence; it leaves at the end of the hand in play."""
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    reserve = ahiko.wallet.reserve_balance()
    assert ahiko.sit(room, ana, 0, 150).ok
    ahiko.advance(20)
    to_hand(ahiko, room)
    hand = room.dealer.hand
    ahiko.disconnect(room, ana)
    seat = room.seats.seat_of(BOT_AHIKO_ID)
    assert seat is not None and room.seats.get(seat).leave_after_hand  # type: ignore[union-attr]
    while room.dealer.hand is hand:
        ahiko.advance(20)  # the deadline plays the absent person's turns
    assert room.seats.seat_of(BOT_AHIKO_ID) is None  # gone between hands, well before 120 s
    assert room.seats.seat_of(ana) is not None  # the person's own withdrawal is later
    stay = bot_stays(ahiko.engine)[0]
    assert stay.status == "closed"
    assert ahiko.wallet.reserve_balance() == reserve + stay.net  # type: ignore[operator]
    ahiko.check()


def test_R_BA_03_D_the_bot_leaves_a_disconnected_person_at_once_between_hands(
    ahiko: Ahiko,
) -> None:
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    assert ahiko.sit(room, ana, 0, 150).ok
    ahiko.advance(20)
    assert room.seats.seat_of(BOT_AHIKO_ID) is not None and room.dealer.hand is None
    ahiko.disconnect(room, ana)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None
    ahiko.check()


def test_R_TM_04_an_absentee_in_an_ahiko_room_folds_after_the_absence_deadline(
    ahiko: Ahiko,
) -> None:
    """The others take 19 s a decision, the absentee's own turns go by the 20 s deadline
    (checks while it is present in the hand); once withdrawn at 120 s, its next betting turn
    is a fold even where it could check: it cannot reach the showdown and win."""
    room = ahiko.room("iniciante")
    ana, bia, caio = ahiko.person("ana"), ahiko.person("bia"), ahiko.person("caio")
    for pid, seat in ((ana, 0), (bia, 2), (caio, 4)):
        assert ahiko.sit(room, pid, seat, 200).ok
    to_hand(ahiko, room)
    hand = room.dealer.hand
    assert hand is not None
    absent_seat = hand.hand.big_blind_seat  # type: ignore[attr-defined]
    absent = hand.players[absent_seat]
    ahiko.disconnect(room, absent)
    away = 0.0
    while room.dealer.hand is hand and hand.to_act is not None:
        if hand.to_act == absent_seat:
            ahiko.advance(20)
            away += 20
        else:
            ahiko.advance(19)
            away += 19
            if room.dealer.hand is hand and hand.to_act is not None and hand.to_act != absent_seat:
                assert act_passively(room).ok
    assert away > 120 and hand.is_over
    folds = [
        e
        for e in hand.hand.events
        if getattr(e, "seat", None) == absent_seat and getattr(e, "action", None) == "fold"
    ]
    assert len(folds) == 1
    result = hand.hand.result
    assert result is not None and all(absent_seat not in p.eligible for p in result.pots)
    assert room.seats.seat_of(absent) is None
    ahiko.check()
