"""R-TM-04 D on a manual clock: a withdrawn absentee with chips folds when the absence
deadline passes, whether or not it is their turn, so they never reach a showdown."""

from __future__ import annotations

from rooms_helpers import Table, draw_config, holdem_config

from ahiko.poker.actions import Action
from ahiko.poker.holdem import HoldemHand
from ahiko.rooms import commands as c
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.table_hand import TableHand


def heads_up(stacks: dict[str, int]) -> Table:
    """A recreational room without a deadline, "ana" and "caio" seated with these stacks."""
    t = Table(holdem_config(), host="ana")
    for seat, pid in enumerate(stacks):
        t.join(pid, seat)
    for seat, pid in enumerate(stacks):
        occupant = t.room.seats.get(seat)
        assert occupant is not None
        t.room.chips_in += stacks[pid] - occupant.stack  # the room's books follow the stack
        occupant.stack = stacks[pid]
    t.ok(c.Start("ana"))
    t.to_deal()
    return t


def three_dealt(config: RoomConfig) -> tuple[Table, TableHand]:
    t = Table(config)
    for seat, pid in enumerate(("host", "bia", "caio")):
        t.join(pid, seat)
    t.ok(c.Start("host"))
    t.to_deal()
    assert t.room.dealer.hand is not None
    return t, t.room.dealer.hand


def status_of(hand: TableHand, pid: str) -> str:
    seat = hand.seat_of(pid)
    return str(hand.view(None)["seats"][hand.dealt_seats.index(seat)]["status"])  # type: ignore[index, arg-type]


def test_R_TM_04_D_the_absentee_who_bet_folds_at_the_deadline_not_at_a_turn_that_never_comes() -> (
    None
):
    """The audit's reproduction: caio bets 550 with 1,500 behind and disconnects; at 120 s
    he is withdrawn while ana thinks (no deadline). Today ana then called all-in for 500,
    caio got no further turn and took the pot at showdown. Now he folds at the deadline:
    his unmatched 550 goes back (R-PT-03), ana takes the blinds, no showdown."""
    t = heads_up({"ana": 510, "caio": 2060})
    hand = t.room.dealer.hand
    assert hand is not None
    engine = hand.hand
    assert isinstance(engine, HoldemHand)
    assert engine.big_blind_seat == hand.seat_of("caio")  # caio acts first after the flop
    t.passive()  # ana (the button, small blind) calls
    t.passive()  # caio checks: the flop comes
    assert t.to_act_pid == "caio" and len(engine.board) == 3
    t.act(Action.bet(550))
    assert engine.stacks[hand.seat_of("caio")] == 1500  # type: ignore[index]
    t.disconnect("caio")
    t.advance(119.9)
    assert status_of(hand, "caio") != "folded"  # the deadline has not passed
    t.advance(0.2)  # 120 s: the withdrawal begins, and with it the forfeit
    assert engine.is_over, "the absentee kept his chips contesting the pot"
    assert status_of(hand, "caio") == "folded"
    result = engine.result
    assert result is not None and not result.showdown
    caio = hand.seat_of("caio")
    assert all(caio not in pot.winners for pot in result.pots)
    returned = [(e.seat, e.amount) for e in engine.events if e.kind == "bet_returned"]  # type: ignore[attr-defined]
    assert returned == [(caio, 550)]
    assert result.stacks == {hand.seat_of("ana"): 520, caio: 2050}
    assert t.room.seats.get(caio) is None  # withdrawn once the hand ended
    t.assert_chips_conserved()
    assert type(engine).from_events(engine.events).events == engine.events  # archive replays


def test_R_TM_04_D_an_absentee_out_of_turn_folds_and_the_others_play_on() -> None:
    """Three-handed: caio is withdrawn while bia is to act; he folds at once, out of turn,
    and bia and the host finish the hand between them (R-TM-03 meets R-TM-04)."""
    t, hand = three_dealt(holdem_config())
    t.disconnect("caio")
    t.passive()  # the host calls; bia (small blind) is to act, caio (big blind) after her
    assert t.to_act_pid == "bia"
    t.advance(120)
    assert status_of(hand, "caio") == "folded" and not hand.is_over
    assert t.to_act_pid == "bia"
    t.play_hand_passively()
    result = hand.hand.result
    assert result is not None
    caio = hand.seat_of("caio")
    assert all(caio not in pot.eligible for pot in result.pots)
    t.assert_chips_conserved()


def test_R_TM_04_D_an_absentee_folds_during_someone_elses_draw() -> None:
    t, hand = three_dealt(draw_config())
    while not hand.legal().is_draw_phase:
        t.passive()
    absent = next(p for p in ("host", "bia", "caio") if p != t.to_act_pid)
    t.disconnect(absent)
    t.advance(120)
    assert status_of(hand, absent) == "folded"
    t.play_hand_passively()
    result = hand.hand.result
    assert result is not None
    assert all(hand.seat_of(absent) not in pot.eligible for pot in result.pots)
    assert type(hand.hand).from_events(hand.hand.events).events == hand.hand.events


def test_R_TM_04_an_all_in_absentee_still_waits_for_the_pot() -> None:
    """The D line takes nothing from R-TM-04's first sentence: all-in, nothing to forfeit."""
    t = heads_up({"ana": 2000, "caio": 300})
    hand = t.room.dealer.hand
    assert hand is not None
    t.passive()  # ana calls
    t.act(Action.raise_to(300))  # caio all-in
    t.disconnect("caio")
    t.advance(121)
    assert status_of(hand, "caio") != "folded"
    t.passive()  # ana calls: the board runs out to the showdown
    result = hand.hand.result
    assert result is not None and result.showdown
    assert any(hand.seat_of("caio") in pot.eligible for pot in result.pots)
