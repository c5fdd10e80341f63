"""Multi-table tournaments, the pure logic (issue 20): 200 players (people and bots) seated at
random across 23 tables and played to the end, checked after every hand: no table more than
one player off another, none over nine, exactly as many tables as the field needs (broken as
it shrinks, down to the final table), everyone seated once, every balancing move taking the
player who would be big blind next, and nobody's big blind skipped by a move (R-TN-03, the
blinds rotate every hand): every moved player's first hand dealt at the new table is one in
which they post the big blind, and nobody, moved or not, is dealt more than ``MAX_SEATS``
hands (one orbit of a full table) between two big blinds; hand-for-hand
on the bubble; the final ranking matching R-TN-04 with cross-table ties: players out in the
same hand-for-hand round at different tables (the only time hands at different tables are the
same hand, ``mtt.MultiTable.hand_for_hand``) ordered by their stacks at that hand's start,
then by lot. The first hand-for-hand round is made to bust one player at each of three tables,
two of them with equal stacks, so the case is there whatever the seed does."""

from __future__ import annotations

import math
import random
from collections import defaultdict

import pytest

from ahiko.competition.mtt import MAX_SEATS, MultiTable, Table


class CheckedField(MultiTable):
    """The tournament, with the balancing rule checked at the moment of each move."""

    def _move(self, player, source, target, reason):  # type: ignore[no-untyped-def]
        assert reason != "balance" or player == source.big_blind_next(), "not the next big blind"
        assert len(target.seats) < MAX_SEATS
        return super()._move(player, source, target, reason)


def test_blinds_move_forward_heads_up() -> None:
    table = Table(1, {2: "a", 5: "b"})
    assert table.next_blinds() == (2, 2, 5)  # heads-up: the button is the small blind
    table.start_hand()
    table.seats[7] = "c"
    assert table.next_blinds() == (2, 5, 7)  # the big blind moves forward one player
    table.start_hand()
    table.start_hand()  # big blind at 2
    del table.seats[5]  # the next big blind busts: the one after it pays, nobody skips
    assert table.next_blinds()[2] == 7
    with pytest.raises(ValueError, match="two players"):
        Table(2, {0: "x"}).next_blinds()


@pytest.mark.parametrize(
    ("table", "soon"),
    [
        (Table(1, {s: f"p{s}" for s in range(7)}, big=1), 6),  # the big blind forward
        (Table(1, {s: f"p{s}" for s in range(7)}, button=0), 5),  # the live rooms' R-HE-02
    ],
)
def test_R_TN_03_a_moved_player_is_dealt_in_first_at_their_big_blind(
    table: Table, soon: int
) -> None:
    """Seats 0-6 taken, the next big blind seat 2 (forward) or 3 (button at 0): the free seat
    where the big blind comes soonest is 7, ``soon`` hands away; till then the moved player
    waits, not dealt in, so the move skips no big blind and deals no hand before it."""
    seat = table.seat_moved("mover")
    assert seat == 7 and table.hands_to_big_blind(seat) == soon
    for _hand in range(soon - 1):
        assert table.start_hand()[2] != seat and seat not in table.dealt
    assert table.start_hand()[2] == seat and seat in table.dealt
    assert not table.waiting
    assert table.start_hand()[1] == seat  # one of the table from now on


def test_nobody_waits_without_two_others_to_deal_to() -> None:
    table = Table(3, {0: "x", 4: "y", 6: "z"}, button=0, waiting={4, 6})
    assert table.dealt_seats() == [0, 4, 6]


def test_R_HE_02_nobody_waits_at_a_table_playing_heads_up() -> None:
    """After a heads-up hand (the button one seat on) a newcomer is never the big blind of a
    three-handed one: waiting, they would wait for ever (found by the 200-player live MTT,
    where a broken table's players reached a table down to two)."""
    table = Table(10, {6: "a", 7: "b", 1: "c", 2: "d"}, button=7, waiting={1, 2})
    assert table.dealt_seats() == [1, 2, 6, 7]
    assert table.hands_to_big_blind(0) <= 4  # it raised: no big blind within an orbit
    assert table.seat_moved("e") in (0, 3, 4, 5, 8)


@pytest.mark.slow
def test_R_TN_03_R_TN_04_200_players_across_23_tables_to_the_end_checked_after_every_hand() -> None:
    rng = random.Random(23)
    players = [f"{'bot' if n % 3 == 0 else 'p'}{n}" for n in range(200)]
    mtt = MultiTable.seat(players, rng, paid_places=20)
    mtt.__class__ = CheckedField
    assert len(mtt.tables) == 23
    sizes = sorted(len(t.seats) for t in mtt.tables.values())
    assert sizes[0] == 8 and sizes[-1] == 9 and sum(sizes) == 200
    stacks = dict.fromkeys(players, 1000)
    since_bb: dict[str, int] = defaultdict(int)  # hands dealt since the last big blind
    # Eliminations, in order, each one hand's: {player: (stack at hand start, table)}.
    groups: list[dict[str, tuple[int, int]]] = []
    rounds = hand_for_hand_rounds = final_table_hands = 0
    moved: set[str] = set()
    gone = [0]
    crossed: set[str] = set()  # moved, and not dealt a hand since
    arrivals_checked = 0
    forced: dict[str, int] = {}  # the cross-table bust made to happen: {player: table}
    while not mtt.over:
        rounds += 1
        assert rounds < 5000
        together = mtt.hand_for_hand
        hand_for_hand_rounds += together
        final_table_hands += mtt.final_table
        doomed = _doom_across_tables(mtt, stacks) if together and not forced else set()
        forced |= {p: mtt.table_of(p).number for p in doomed}
        busted: dict[int, dict[str, tuple[int, int]]] = {}
        for number in sorted(mtt.tables):
            table = mtt.tables[number]
            _button, _small, big = table.start_hand()
            dealt = [table.seats[s] for s in table.dealt]
            payer = table.seats[big]
            for p in dealt:
                since_bb[p] += 1
                if p in crossed:  # their first hand since a move: it is their big blind
                    assert p == payer, (p, number, since_bb[p])
                    crossed.discard(p)
                    arrivals_checked += 1
            assert since_bb[payer] <= MAX_SEATS, (payer, since_bb[payer])
            since_bb[payer] = 0
            start = {p: stacks[p] for p in dealt}
            out = _play(rng, dealt, stacks, 0.05 if together else 0.12, doomed & set(dealt))
            busted[number] = {p: (start[p], number) for p in out}
        if not together:
            groups += [busted[n] for n in sorted(busted) if busted[n]]
        elif any(busted.values()):
            groups.append({p: s for out in busted.values() for p, s in out.items()})
        moves = mtt.hands_ended(
            {n: {p: s for p, (s, _t) in out.items()} for n, out in busted.items() if out}
        )
        moved |= {m.player for m in moves}
        crossed |= {m.player for m in moves}
        _check_field(mtt, stacks, gone[0])
        if not mtt.over and rounds % 37 == 0 and len(mtt.remaining()) > 3:  # a leaver
            who = rng.choice(mtt.remaining())
            groups.append({who: (-1, mtt.table_of(who).number)})
            gone[0] += stacks[who]  # R-TN-05: a leaver's chips leave with them
            stacks[who] = 0
            moves = mtt.leave(who)
            moved |= {m.player for m in moves}
            crossed |= {m.player for m in moves}
            _check_field(mtt, stacks, gone[0])
    winner = mtt.remaining()[0]
    assert stacks[winner] > 0
    assert hand_for_hand_rounds >= 1 and final_table_hands > 5 and len(moved) > 20
    assert arrivals_checked > 20

    # R-TN-04: reverse order of elimination; out together: more chips at the start first, then
    # by lot (any order among equals).
    expected: list[set[str]] = []
    for group in reversed(groups):
        by_stack: dict[int, set[str]] = defaultdict(set)
        for p, (s, _t) in group.items():
            by_stack[s].add(p)
        expected += [by_stack[s] for s in sorted(by_stack, reverse=True)]
    placements = mtt.placements()
    got = [p.player for p in placements]
    assert got[0] == winner and len(got) == 200 and len(set(got)) == 200
    at = 1
    for tied in expected:
        assert set(got[at : at + len(tied)]) == tied, (at, tied)
        at += len(tied)

    # The cross-table ties: one hand-for-hand round's players out at two tables or more, in
    # consecutive places, more chips at that hand's start first; equal stacks by lot.
    across = [g for g in groups if len({t for _s, t in g.values()}) >= 2]
    assert across, "no players out in the same hand at different tables"
    assert any(forced.items() <= {p: t for p, (_s, t) in g.items()}.items() for g in across)
    place = {p.player: p for p in placements}
    for group in across:
        ranked = sorted(group, key=lambda p: place[p].place)
        first = place[ranked[0]].place
        assert [place[p].place for p in ranked] == list(range(first, first + len(group)))
        starts = [group[p][0] for p in ranked]
        assert starts == sorted(starts, reverse=True), (ranked, starts)
        for p in ranked:
            assert place[p].chips_at_hand_start == group[p][0]
            assert place[p].by_lot == (starts.count(group[p][0]) > 1), p
    lot = [g for g in across if len({s for s, _t in g.values()}) < len(g)]
    assert lot, "no tie by lot across tables"
    assert len({t for g in lot for p, (s, t) in g.items() if place[p].by_lot}) >= 2


def _doom_across_tables(mtt: MultiTable, stacks: dict[str, int]) -> set[str]:
    """One player to bust at each of the first three tables of a hand-for-hand round: the
    shortest stack at the first two, the second one's stack first evened to the first one's
    by an earlier pot with a tablemate (a tie to break by lot), and the biggest stack at the
    third (more chips: ranks above them)."""
    tables = [mtt.tables[n] for n in sorted(mtt.tables)][:3]
    assert len(tables) >= 2
    # those the round deals (not a moved player waiting for their big blind)
    dealt = [[t.seats[s] for s in t.dealt_seats()] for t in tables]
    shortest = [min(players, key=lambda p: (stacks[p], p)) for players in dealt[:2]]
    a, b = shortest
    mate = max((p for p in dealt[1] if p != b), key=lambda p: (stacks[p], p))
    stacks[mate] -= stacks[a] - stacks[b]
    stacks[b] = stacks[a]
    assert stacks[mate] > 0
    doomed = {a, b}
    if len(tables) == 3:
        doomed.add(max(dealt[2], key=lambda p: (stacks[p], p)))
    return doomed


def _play(
    rng: random.Random,
    dealt: list[str],
    stacks: dict[str, int],
    bust_rate: float,
    doomed: set[str] | None = None,
) -> list[str]:
    """One hand's chips: some players lose all to a winner (``doomed`` ones surely), the others
    move a little."""
    doomed = doomed or set()
    winner = rng.choice([p for p in dealt if p not in doomed])
    out = []
    for p in dealt:
        if p == winner:
            continue
        if p in doomed or rng.random() < bust_rate or stacks[p] < 20:
            stacks[winner] += stacks[p]
            stacks[p] = 0
            out.append(p)
        else:
            step = rng.randint(0, stacks[p] // 4)
            stacks[p] -= step
            stacks[winner] += step
    return out


def _check_field(mtt: MultiTable, stacks: dict[str, int], gone: int) -> None:
    remaining = mtt.remaining()
    assert len(remaining) == len(set(remaining))
    assert set(remaining) == {p for p, s in stacks.items() if s > 0}
    sizes = [len(t.seats) for t in mtt.tables.values()]
    assert max(sizes) <= MAX_SEATS
    assert max(sizes) - min(sizes) <= 1, sizes
    assert len(mtt.tables) == math.ceil(len(remaining) / MAX_SEATS)
    assert sum(stacks.values()) + gone == 200 * 1000
