"""Tournament results read back from the hand archive (R-TN-04, R-TN-05), for profiles and
the tournament leaderboard.

A tournament room's archived hands, in order, say who ended each hand with no chips (out in
that hand, ordered among themselves by their stacks at its start, then by lot) and who stopped
appearing with chips left (a leaver, out after the last hand they were dealt into). The
tournament is over when a hand leaves one player with chips. The ranking is
``ahiko.rooms.ranking.TournamentRanking``'s, the same as the live room's; a tie broken by lot
is drawn again here from the room id (the archive keeps no draw), so only such a tie can read
differently from the room's own ``tournament_over`` frame.

Where the room's hook stored its places when it ended (sit & go's and multi-table
tournaments, ``ahiko.store.tournament_places``), those are the places (``with_stored``): the
archive's reading of that room is not used, and the tables of a multi-table tournament are
never read as tournaments of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from random import Random

from ahiko.rooms.ranking import TournamentRanking
from ahiko.store.archive_reads import SeatLine
from ahiko.store.tournament_places import StoredPlace

MTT_TABLE_PREFIX = "mtt-"  # ``live_mtt``'s table rooms: ``mtt-<tournament>-<table>``


@dataclass(frozen=True, slots=True)
class Finish:
    room_id: str
    room_name: str
    player_id: str
    user_id: int | None
    name: str
    place: int
    entrants: int
    ended_at: datetime

    def points(self) -> int:
        """Leaderboard points: one for each player finished ahead of, plus one for playing."""
        return self.entrants - self.place + 1

    def to_json(self) -> dict[str, object]:
        return {
            "room_id": self.room_id,
            "room_name": self.room_name,
            "place": self.place,
            "entrants": self.entrants,
            "ended_at": self.ended_at.isoformat(),
        }


def tournament_finishes(lines: Iterable[SeatLine]) -> list[Finish]:
    """Every place of every finished tournament in ``lines`` (seat lines of tournament hands,
    ordered by room and hand number, as ``archive_seats`` gives them)."""
    finishes: list[Finish] = []
    for _room, room_lines in groupby(lines, key=lambda line: line.room_id):
        hands = [list(seats) for _no, seats in groupby(room_lines, key=lambda ln: ln.hand_no)]
        finishes += _finishes_of_room(hands)
    return finishes


def _finishes_of_room(hands: Sequence[Sequence[SeatLine]]) -> list[Finish]:
    if not hands:
        return []
    first = hands[0][0]
    who: dict[str, SeatLine] = {}  # each player's last seat line
    last_seen: dict[str, int] = {}
    for i, hand in enumerate(hands):
        for line in hand:
            who[line.player_id] = line
            last_seen[line.player_id] = i
    ranking = TournamentRanking(entrants=len(who), rng=Random(first.room_id))
    for i, hand in enumerate(hands):
        ranking.eliminate_in_hand(
            hand[0].hand_no,
            {ln.player_id: ln.start_stack for ln in hand if ln.start_stack + ln.net == 0},
        )
        if i + 1 < len(hands):  # dealt in for the last time with chips left: left the game
            left = {
                ln.player_id: ln.start_stack + ln.net
                for ln in hand
                if ln.start_stack + ln.net > 0 and last_seen[ln.player_id] == i
            }
            ranking.eliminate_in_hand(hand[0].hand_no, left)
    last = hands[-1]
    alive = [ln.player_id for ln in last if ln.start_stack + ln.net > 0]
    if len(alive) > 1:
        return []  # still running (or stopped without a winner): no places yet
    if alive:
        ranking.declare_winner(alive[0])
    ended = last[0].ended_at
    return [
        Finish(
            room_id=first.room_id,
            room_name=first.room_name,
            player_id=p.player,
            user_id=who[p.player].user_id,
            name=who[p.player].name,
            place=p.place,
            entrants=ranking.entrants,
            ended_at=ended,
        )
        for p in ranking.placements()
    ]


def with_stored(archived: Iterable[Finish], stored: Iterable[StoredPlace]) -> list[Finish]:
    """The archive's finishes, except for rooms whose places were stored (those win) and the
    tables of a multi-table tournament (its places are stored under the tournament's id)."""
    stored = list(stored)
    kept_rooms = {p.room_id for p in stored}
    names: dict[str, str] = {}
    finishes: list[Finish] = []
    for finish in archived:
        names.setdefault(finish.room_id, finish.room_name)
        if finish.room_id in kept_rooms or finish.room_id.startswith(MTT_TABLE_PREFIX):
            continue
        finishes.append(finish)
    for place in stored:
        finishes.append(
            Finish(
                room_id=place.room_id,
                room_name=names.get(place.room_id, place.room_id),
                player_id=place.player_id,
                user_id=place.user_id,
                name=place.name,
                place=place.place,
                entrants=place.entrants,
                ended_at=place.finished_at,
            )
        )
    return finishes
