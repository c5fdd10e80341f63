"""R-TM-08 D and R-BA-03 D: sitting out meets the absence clock (R-TM-03) and the Bot Ahiko
(R-BA-01..03), on a manual clock (Ahiko rooms over a real ledger)."""

from __future__ import annotations

from ahiko_helpers import Ahiko, play_out, to_hand
from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.rooms.timing import ABSENCE_WITHDRAWAL_S
from ahiko.wallet.stays import bot_stays


def three_seated() -> Table:
    """A recreational room without a deadline: ana and bia play, caio is seated too."""
    t = Table(holdem_config(), host="ana")
    for seat, pid in enumerate(("ana", "bia", "caio")):
        t.join(pid, seat)
    t.ok(c.Start("ana"))
    t.to_deal()
    t.play_hand_passively()
    return t


def test_R_TM_08_D_switching_sit_out_off_and_on_does_not_restart_the_absence_clock() -> None:
    """The audit's squatter: caio sits out, then every 50 s switches sit-out off and at once
    on again between hands, never dealt a hand. The clock runs from when he first sat out:
    he is withdrawn at 120 s, not 120 s after his last switch (R-TM-03's deadline)."""
    t = three_seated()
    assert t.room.dealer.hand is None  # between hands
    t.ok(c.SitOut("caio"))
    for _ in range(2):  # at 50 s and 100 s
        t.advance(50)
        assert t.room.seats.seat_of("caio") == 2
        t.ok(c.SitOut("caio", on=False))
        t.ok(c.SitOut("caio", on=True))
    t.advance(ABSENCE_WITHDRAWAL_S - 100 - 0.1)
    assert t.room.seats.seat_of("caio") == 2
    t.advance(0.1)  # 120 s after he first sat out
    assert t.room.seats.seat_of("caio") is None, "the toggling squatter kept his seat"
    t.play_hand_passively()  # the hand ana and bia were dealt meanwhile
    t.assert_chips_conserved()


def test_R_TM_08_D_the_clock_restarts_once_he_is_dealt_a_hand() -> None:
    """Coming back and being dealt a hand is playing: a later sit-out has a fresh two
    minutes (R-TM-08 D meets R-TM-03)."""
    t = three_seated()
    t.ok(c.SitOut("caio"))
    t.advance(100)
    t.ok(c.SitOut("caio", on=False))
    t.play_hand_passively()  # the hand dealt without him meanwhile
    t.advance(t.room.config.timing.next_hand_delay_s)
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None and "caio" in hand.players.values()  # dealt: the clock resets
    t.play_hand_passively()
    t.ok(c.SitOut("caio"))
    t.advance(ABSENCE_WITHDRAWAL_S - 0.1)
    assert t.room.seats.seat_of("caio") == 2
    t.advance(0.1)
    assert t.room.seats.seat_of("caio") is None


def test_R_BA_03_D_the_bot_does_not_join_a_lone_person_sitting_out(ahiko: Ahiko) -> None:
    """A lone person who sits out is not eligible: no bot is funded for them (R-BA-01),
    however long they wait, and they are withdrawn at the absence deadline with their chips
    back (R-TM-08 meets R-TM-03); coming back, the 20 s wait starts again."""
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    reserve = ahiko.wallet.reserve_balance()
    assert ahiko.sit(room, ana, 0, 150).ok
    assert room.submit(c.SitOut(ana)).ok
    ahiko.advance(60)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None, "the bot joined a person sitting out"
    assert ahiko.wallet.reserve_balance() == reserve
    assert room.submit(c.SitOut(ana, on=False)).ok
    ahiko.advance(room.config.timing.bot_ahiko_wait_s)
    assert room.seats.seat_of(BOT_AHIKO_ID) is not None  # eligible again: R-BA-01 as before
    ahiko.check()


def test_R_BA_03_D_a_person_who_sits_out_does_not_keep_the_bot_beside_them(
    ahiko: Ahiko,
) -> None:
    """With the bot seated, the lone person sits out during a hand: the hand plays on
    (sitting out skips only the next hands) and the bot leaves between hands, its stack back
    in the reserve; it does not sit beside them for the two minutes of absence."""
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    reserve = ahiko.wallet.reserve_balance()
    assert ahiko.sit(room, ana, 0, 150).ok
    ahiko.advance(room.config.timing.bot_ahiko_wait_s)
    to_hand(ahiko, room)
    hand = room.dealer.hand
    assert hand is not None and BOT_AHIKO_ID in hand.players.values()
    assert room.submit(c.SitOut(ana)).ok
    play_out(room)
    assert room.seats.seat_of(BOT_AHIKO_ID) is None, "the bot stayed beside a person sitting out"
    assert room.seats.seat_of(ana) == 0  # her own withdrawal comes at the absence deadline
    ahiko.advance(room.config.timing.next_hand_delay_s + 2)
    assert room.dealer.hand is None or room.dealer.hand is hand
    net = sum(stay.net or 0 for stay in bot_stays(ahiko.engine))
    assert ahiko.wallet.reserve_balance() == reserve + net
    ahiko.check()
