"""Hand histories re-import what they export: hands archived from real rooms (a manual
clock) with a forfeit (R-TM-04: a withdrawn absentee's fold where a check was possible, or
out of turn, R-TM-04 D) or a stopped betting round (R-TM-06 D: the room expired), exported
as PHH the way a player downloads them and read back by our own reader, give the same hand."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from rooms_helpers import Table, draw_config, holdem_config

from ahiko.history.hand_log import VisibleCards
from ahiko.history.phh import loads
from ahiko.history.phh_draw import draw_from_phh
from ahiko.history.phh_holdem import holdem_from_phh
from ahiko.poker.actions import Action
from ahiko.poker.draw import DrawHand
from ahiko.rooms import commands as c
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.finished.archive import capture
from ahiko.rooms.finished.downloads import history_with, rebuild_hand
from ahiko.rooms.table_hand import TableHand


def seated(config: RoomConfig) -> Table:
    t = Table(config)
    for seat, pid in enumerate(("host", "bia", "caio")):
        t.join(pid, seat)
    t.ok(c.Start("host"))
    t.to_deal()
    return t


def forfeit_at_turn(config: RoomConfig) -> tuple[Table, TableHand]:
    """caio is withdrawn while not to act; the others check it down (R-TM-04)."""
    t = seated(config)
    return caio_withdrawn(t)


def forfeit_after_a_bet(config: RoomConfig) -> tuple[Table, TableHand]:
    """The host raises, caio (who has called) is withdrawn while bia thinks (R-TM-04 D)."""
    t = seated(config)
    hand = t.room.dealer.hand
    assert hand is not None
    while hand.legal().is_draw_phase or t.to_act_pid != "caio":
        t.passive()
    t.passive()  # caio calls or checks
    return caio_withdrawn(t)


def caio_withdrawn(t: Table) -> tuple[Table, TableHand]:
    """caio disconnects and stays away past the absence deadline; the others check along."""
    hand = t.room.dealer.hand
    assert hand is not None
    t.disconnect("caio")
    t.advance(120)
    t.play_hand_passively()
    return t, hand


def stopped_round(config: RoomConfig) -> tuple[Table, TableHand]:
    """The room's half minute runs out while a bet is pending (R-TM-06 D)."""
    t = seated(config)
    hand = t.room.dealer.hand
    assert hand is not None
    legal = hand.legal()
    assert legal.bet_kind is not None
    t.act(Action(legal.bet_kind, legal.min_to))
    t.advance(30)
    return t, hand


CASES: dict[str, Callable[[], tuple[Table, TableHand]]] = {
    "holdem forfeit where a check was possible": lambda: forfeit_at_turn(holdem_config()),
    "holdem forfeit out of turn": lambda: forfeit_after_a_bet(holdem_config()),
    "draw forfeit": lambda: forfeit_at_turn(draw_config()),
    "draw forfeit out of turn": lambda: forfeit_after_a_bet(draw_config()),
    "holdem stopped round": lambda: stopped_round(holdem_config(limit_minutes=0.5)),
    "draw stopped round": lambda: stopped_round(draw_config(limit_minutes=0.5)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_R_TM_04_R_TM_06_D_an_archived_hand_exported_as_phh_reads_back_the_same(case: str) -> None:
    t, hand = CASES[case]()
    assert hand.is_over
    engine = hand.hand
    kinds = {e.kind for e in engine.events}
    if "stopped" in case:
        assert "betting_stopped" in kinds
    else:
        assert engine.forfeits, "the case has no forfeit"
    archived = capture(t.room.view, hand, datetime.now(UTC))
    rebuilt = rebuild_hand(archived)
    assert rebuilt.events == engine.events
    text = history_with(archived, rebuilt, VisibleCards.all_cards(rebuilt), "phh").text
    document = loads(text)
    again = draw_from_phh(document) if isinstance(rebuilt, DrawHand) else holdem_from_phh(document)
    assert again.events == rebuilt.events, f"{case}: the PHH reads back a different hand"
    assert again.forfeits == rebuilt.forfeits
    assert document.finishing_stacks == [rebuilt.stacks[s] for s in rebuilt.dealt_seats]
    if "stopped" not in case:
        assert sum(line.endswith("f # forfeit") for line in document.actions) == len(
            rebuilt.forfeits
        )
