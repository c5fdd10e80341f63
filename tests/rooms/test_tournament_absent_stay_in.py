"""R-TN-07 D on a manual clock: in a tournament nobody is eliminated with chips and nobody
can freeze it. Timed-out, sitting-out and disconnected players stay in the field, are dealt
in, pay their blinds and have their hand folded; the table always reaches one winner.
The rooms are built as the house builds a sit & go's (``sitgo_config``)."""

from __future__ import annotations

from rooms_helpers import Table

from ahiko.competition.live_sitgo import sitgo_config
from ahiko.competition.sitgo import QUEUES
from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.room import RoomStatus
from ahiko.rooms.table_hand import TableHand

SPECS = {spec.key: spec for spec in QUEUES}
MAX_SECONDS = 6 * 3600  # far past any end: a frozen table fails the test, it does not hang


def sit_and_go(key: str, people: list[str]) -> Table:
    t = Table(sitgo_config(SPECS[key], 1), host=people[0])
    for seat, pid in enumerate(people):
        t.join(pid, seat)
    t.ok(c.Start(people[0]))
    return t


def shove_or_call(t: Table) -> None:
    hand = t.room.dealer.hand
    assert hand is not None
    legal = hand.legal()
    if legal.bet_kind is not None:
        t.act(Action(legal.bet_kind, legal.max_to))
    else:
        t.act(Action.call() if legal.can_call else Action.check())


def run_out_clock(t: Table, hand: TableHand) -> None:
    """The seat to act lets its deadline and its time bank run out (R-TN-06)."""
    seat = hand.to_act
    while t.room.dealer.hand is hand and hand.to_act == seat:
        left = t.room.timers.left("deadline")
        assert left is not None, "a tournament decision without a deadline"
        t.advance(left)


def record_idle(t: Table, stacks: dict[int, int]) -> None:
    """idle's stack at the end of the last hand played, if he was dealt in it."""
    hand = t.room.dealer.last_hand
    if hand is not None and hand.is_over and "idle" in hand.players.values():
        stacks[hand.hand_no] = hand.final_stacks()[hand.seat_of("idle")]  # type: ignore[index]


def did_more_than_fold(hand: TableHand, pid: str) -> bool:
    seat = hand.seat_of(pid)
    if seat is None:
        return False
    history = hand.view(None)["history"]  # type: ignore[index]
    return any(
        e["kind"] == "action" and e["seat"] == seat and e["action"] != "fold" for e in history
    )


def test_R_TN_07_D_a_player_who_times_out_twice_then_sits_out_is_blinded_off_not_eliminated() -> (
    None
):
    """A 6-max sit & go: "idle" lets the clock run out in two hands (R-TM-01: sat out at
    the boundary), then stays sitting out to the end. Every hand dealt while he has chips
    deals him in; his hand is folded each time, so he only pays blinds (and an all-in blind
    may win); he is never withdrawn at the absence deadline nor eliminated with chips; when
    his chips run out he is ranked by R-TN-04 in that hand; the sit & go has one winner."""
    people = ["host", "p1", "p2", "p3", "p4", "idle"]
    t = sit_and_go("6max-free", people)
    ranking = t.room.ranking
    assert ranking is not None
    timeouts = 0
    idle_last_stack: dict[int, int] = {}  # hand no -> idle's stack when it ended
    while t.room.status is RoomStatus.RUNNING and t.clock.now() < MAX_SECONDS:
        t.advance(1)
        record_idle(t, idle_last_stack)
        hand = t.room.dealer.hand
        if hand is None or hand.phase.value != "dealt":
            continue
        idle_seat = t.room.seats.seat_of("idle")
        if idle_seat is not None and t.room.seats.get(idle_seat).stack > 0:  # type: ignore[union-attr]
            assert "idle" in hand.players.values(), "a sitting-out player skipped his blinds"
        while t.room.dealer.hand is hand and hand.to_act is not None:
            if t.to_act_pid == "idle":
                assert timeouts < 2, "the sitting-out player was asked to act"
                run_out_clock(t, hand)
                timeouts += 1
            else:
                shove_or_call(t)
        record_idle(t, idle_last_stack)
        if timeouts >= 2 and idle_seat is not None and t.room.seats.get(idle_seat) is not None:
            assert t.room.seats.get(idle_seat).sitting_out  # type: ignore[union-attr]
        if "idle" in ranking.eliminated:
            assert idle_last_stack[max(idle_last_stack)] == 0, "idle was eliminated with chips"
    assert t.room.status is RoomStatus.FINISHED, "the sit & go never reached one winner"
    assert any(n["code"] == "sat_out_timeouts" for n in t.conns["idle"].of("notice"))
    results = t.conns["host"].of("tournament_over")[-1]["results"]
    assert [r["place"] for r in results] == [1, 2, 3, 4, 5, 6]
    assert max(t.stacks().values()) == 6 * SPECS["6max-free"].starting_stack
    idle = next(r for r in results if r["player_id"] == "idle")
    if idle["place"] > 1:
        out_in = idle["eliminated_in_hand"]
        assert idle_last_stack[out_in] == 0 and idle["chips_at_hand_start"] > 0  # R-TN-04
        assert max(idle_last_stack) == out_in  # dealt in every hand until then


def test_R_TN_07_D_a_heads_up_final_with_sit_out_toggled_every_50_seconds_ends() -> None:
    """A heads-up sit & go: "toggler" sits out and every 50 s switches it off and at once on
    again, so he is never present when a hand is dealt. The table deals him in anyway, folds
    his hand and blinds him off: the host wins, the toggler is second, out with no chips."""
    t = sit_and_go("hu-free", ["host", "toggler"])
    t.ok(c.SitOut("toggler"))
    next_toggle = t.clock.now() + 50
    while t.room.status is RoomStatus.RUNNING and t.clock.now() < MAX_SECONDS:
        hand = t.room.dealer.hand
        if hand is not None and hand.to_act is not None and t.to_act_pid == "host":
            t.passive()
            continue
        toggler = t.room.seats.get(1)
        if t.to_act_pid == "toggler" and toggler is not None:
            assert not toggler.sitting_out, "a hand dealt to a player sitting out waits for him"
        t.advance(1)
        if t.clock.now() >= next_toggle and t.room.status is RoomStatus.RUNNING:
            t.ok(c.SitOut("toggler", on=False))
            t.ok(c.SitOut("toggler", on=True))
            next_toggle += 50
    assert t.room.status is RoomStatus.FINISHED, "the toggling froze the heads-up final"
    results = t.conns["host"].of("tournament_over")[-1]["results"]
    assert [(r["place"], r["player_id"]) for r in results] == [(1, "host"), (2, "toggler")]
    assert results[1]["eliminated_in_hand"] is not None  # out by R-TN-04, not as a leaver
    assert t.stacks().get("host") == 2 * SPECS["hu-free"].starting_stack


def test_R_TN_07_D_a_disconnected_player_stays_in_past_the_absence_deadline() -> None:
    """R-TN-07 meets R-TM-03/R-TM-05: disconnected for minutes, p2 is not withdrawn (so not
    eliminated as a leaver, R-TN-05); he is dealt in and his hand folded; back, he plays."""
    t = sit_and_go("6max-free", ["host", "p1", "p2"])
    t.to_deal()
    t.disconnect("p2")
    hands_while_away = 0
    while t.clock.now() < 150:  # past the two minutes of R-TM-03
        t.advance(1)
        hand = t.room.dealer.hand
        if hand is None or hand.phase.value != "dealt":
            continue
        if "p2" in hand.players.values():
            hands_while_away += 1
        while t.room.dealer.hand is hand and hand.to_act is not None:
            if t.to_act_pid == "p2":
                run_out_clock(t, hand)  # the hand he was dealt while still here
            else:
                t.passive()
        if hands_while_away > 1:  # dealt while away: his hand is only ever folded
            assert not did_more_than_fold(hand, "p2")
    assert t.room.ranking is not None and "p2" not in t.room.ranking.eliminated
    assert t.room.seats.seat_of("p2") is not None and hands_while_away > 2
    t.connect("p2")
    for _ in range(600):  # play on until he is asked to act, as anyone present is
        t.advance(1)
        hand = t.room.dealer.hand
        if hand is None or hand.to_act is None:
            continue
        if t.to_act_pid == "p2":
            break
        t.passive()
    assert t.to_act_pid == "p2", (
        f"back at the table, p2 was not given a turn {t.room.status} {t.stacks()}"
    )
