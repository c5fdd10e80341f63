"""A multi-table tournament of 200 at live tables, on a manual clock (issue 20's "an MTT of 200
bots and people across 23 tables played to the end"): the real tables' actors
(``live_mtt.MttRooms``), 200 players seated at random over 23 tables of up to nine, played to
one winner holding every chip. A live MTT seats people only (the house's ``MoveIn``; a room's
bots cannot be entrants), so every entrant is a scripted person through the actors
(``competition_players.Scripted``): a third of them are named ``bot…`` and all play by script,
two in three shoving every turn, the others checking and calling small bets only (``mtt_play.play``, each
following the tables it sits at). Checked:

- **after every hand** (``Checked.hand_ended``): the running tables within one player of each
  other, none over nine, exactly as many as the field needs (broken as it shrinks, down to a
  final table); and whenever no move is in flight, every room seats exactly the model's
  players;
- **nobody skips a big blind by moving** (R-HE-02, R-TN-03; ``mtt_watch.check_big_blinds``),
  for every move: a balancing move takes the source table's next big blind, and a moved
  player's first hand at the new table is their big blind;
- **the ranking** (R-TN-04): all 200 once, in the reverse order of the hands they went out in
  as the tables played them; players out in the same hand, at one table or at several in a
  hand-for-hand round on the bubble, by their stacks at that hand's start, equal stacks by
  lot. So that players go out in one round at several tables, the test moves the places paid
  (``paid_places``, as a late registration would) to the field left less one whenever the
  field is 45 or fewer at two tables or more: the next bust is always the bubble, and every
  round from there to the final table is played hand for hand."""

from __future__ import annotations

import asyncio
import math
from random import Random
from typing import Any

import pytest
from mtt_play import play
from mtt_watch import Watched, check_big_blinds

from ahiko.competition.mtt import MAX_SEATS
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.registry import RoomRegistry

PLAYERS = 200
TABLES = 23
CHIPS = PLAYERS * 1000


class Checked(Watched):
    """The live tournament, checked after every hand, with the players out in each hand (a
    hand-for-hand round is one hand) as the rooms' outcomes say: (table, stack at the start)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.out: list[dict[str, tuple[int, int]]] = []  # each hand's players out, in order
        self.round_out: dict[str, tuple[int, int]] = {}
        self.tables_seen: list[int] = []  # running tables after every hand
        self.final_table_of: int | None = None  # the field when one table was left

    def hand_ended(self, number: int, outcome: HandOutcome) -> None:
        remaining = set(self.model.remaining())
        busted = {
            player: (number, outcome.stacks[seat] - outcome.net[seat])
            for seat, player in outcome.players.items()
            if outcome.stacks[seat] == 0 and player in remaining
        }
        in_round, rounds = self.in_round, self.rounds
        super().hand_ended(number, outcome)
        if in_round:
            self.round_out.update(busted)
            if self.rounds > rounds:  # every table of the round is done: one hand
                if self.round_out:
                    self.out.append(self.round_out)
                self.round_out = {}
        elif busted:
            self.out.append(busted)
        if self.finished:
            return
        tables = self.model.tables.values()
        sizes = sorted(len(t.seats) for t in tables)
        left = len(self.model.remaining())
        assert sizes[-1] - sizes[0] <= 1 and sizes[-1] <= MAX_SEATS, sizes
        assert len(sizes) == math.ceil(left / MAX_SEATS), (sizes, left)
        self.tables_seen.append(len(sizes))
        if len(sizes) == 1 and self.final_table_of is None:
            self.final_table_of = left


@pytest.mark.slow
def test_R_TN_04_R_HE_02_R_TN_03_200_players_at_23_live_tables_to_one_winner() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"{'bot' if n % 3 == 0 else 'p'}{n}", f"P{n}") for n in range(PLAYERS)]
    mtt = Checked(registry, "big", field, rng=Random(200), level_minutes=5, paid_places=0)
    rooms_checked = 0

    def every_second() -> None:
        """Between clock ticks: the places paid moved to the bubble, near the end; and, no
        move in flight, every room seats the model's players."""
        left = len(mtt.model.remaining())
        if left <= 45 and len(mtt.model.tables) > 1 and not mtt.in_round and not mtt.bubble:
            mtt.model.paid_places = left - 1  # the next bust is the bubble: hand-for-hand
        if mtt.finished or mtt.moving or mtt.held:
            return
        for number, table in mtt.model.tables.items():
            actor = registry.get(mtt.room_ids()[number])
            assert actor is not None
            seats = actor.summary()["seats"] or []
            assert {s["player_id"] for s in seats if s} == set(table.seats.values()), number
        nonlocal rooms_checked
        rooms_checked += 1

    async def scenario() -> None:
        await mtt.start()
        rooms = dict(mtt.room_ids())
        assert len(rooms) == TABLES
        sizes = sorted(len(t.seats) for t in mtt.model.tables.values())
        assert sizes == [8] * 7 + [9] * 16
        players = await play(
            registry,
            clock,
            mtt,
            every_second,
            steps=200_000,
            everywhere=False,
            cautious=lambda n: n % 3 == 2,
        )
        assert mtt.finished and mtt.model.over and rooms_checked > 100
        # tables broken as the field shrank, down to a final table of nine or fewer
        assert mtt.tables_seen == sorted(mtt.tables_seen, reverse=True)
        assert mtt.final_table_of is not None and 2 <= mtt.final_table_of <= MAX_SEATS
        assert {m.reason for m in mtt.model.moves} == {"balance", "break"}
        departures, arrivals = check_big_blinds(mtt)
        assert departures >= 5 and arrivals >= 20, (departures, arrivals)
        # the final table closed with the winner holding every chip; every table is gone
        await asyncio.sleep(0)
        clock.advance(1.0)
        winner = mtt.places[0].player
        closed = [
            f
            for (pid, _n), p in players.items()
            if pid == winner
            for f in p.of("closed")
            if f["reason"] == "tournament_over"
        ]
        assert closed and closed[-1]["stacks"] == {winner: CHIPS}
        assert all(registry.get(room_id) is None for room_id in rooms.values())
        check_ranking(mtt, winner)

    asyncio.run(asyncio.wait_for(scenario(), 600))


def check_ranking(mtt: Checked, winner: str) -> None:
    """R-TN-04 against what the tables played: the players out in each hand, the last hand
    first, by their stacks at its start, equal stacks by lot; the winner first."""
    places = mtt.places
    assert [p.place for p in places] == list(range(1, PLAYERS + 1))
    assert sorted(p.player for p in places) == sorted(pid for pid in mtt.names)
    assert places[0].player == winner and places[0].eliminated_in_hand is None
    assert sum(len(out) for out in mtt.out) == PLAYERS - 1
    at = 1
    hands = set()
    for out in reversed(mtt.out):
        group = places[at : at + len(out)]
        at += len(out)
        assert {p.player for p in group} == set(out)
        hands |= {p.eliminated_in_hand for p in group}
        assert len({p.eliminated_in_hand for p in group}) == 1  # one hand, whatever the tables
        stacks = [out[p.player][1] for p in group]
        assert stacks == sorted(stacks, reverse=True), group
        for p in group:
            tied = stacks.count(out[p.player][1]) > 1
            assert p.chips_at_hand_start == out[p.player][1] and p.by_lot == tied, (p, out)
    assert len(hands) == len(mtt.out)  # a hand's players out are not split, nor merged
    across = [out for out in mtt.out if len({table for table, _s in out.values()}) > 1]
    assert mtt.rounds >= 1 and across, "players out in one hand-for-hand round at two tables"
    print(f"hands {mtt.hands}, out-groups {len(mtt.out)}, across tables {len(across)}")
