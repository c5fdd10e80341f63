"""A multi-table tournament played at live tables (issue 20): ``competition.mtt.MultiTable``
decides, the tables' actors play.

- **Start** (``start``): the field is seated by ``MultiTable.seat`` (at random, tables within
  one player of each other); one tournament room per table (``RoomConfig.part_of``: the
  ``MttTable`` kind), each player placed with ``MoveIn`` at the seat the model chose, every
  table started by the house. Blinds rise by time (``BlindIncrease.MINUTES``), so every
  table plays the same level at the same moment.
- **After every hand** at a table (its hook's ``on_hand_end``): the players left with no
  chips are out (R-TN-04: ordered by their stacks at that hand's start, then by lot), then the
  model breaks and balances the tables (largest − smallest ≤ 1, moving the player who would
  be big blind next). Each move is sent to the actors: ``MoveOut`` at the source table (now
  between hands, or after the hand the player is in) and, once the player is up there
  (``on_player_left``, with their chips), ``MoveIn`` at the destination, at the seat the
  model chose (held back until that seat is really free). A broken table closes once its last
  player is up.
- **A leaver** (R-TN-05) is out at once, in the position of that moment.
- **The end**: one player has chips; the field's ranking is ``places``; the final table closes
  and, with an ``engine``, the places are stored (``store.tournament_places``).

Nothing here reads a table's state: the model, the actors' commands and the hooks' calls.
What the rooms choose themselves: the button and blinds of each hand (the model's "big blind
next" follows its own count of hands, not the room's dealer), and hand-for-hand play is not
wired (the model knows when it applies).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from ahiko.competition.mtt import MultiTable
from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.blinds import (
    TOURNAMENT_BIG_BLIND,
    TOURNAMENT_SMALL_BLIND,
    BlindIncrease,
    BlindSchedule,
    Stakes,
)
from ahiko.rooms.config import TOURNAMENT_STARTING_CHIPS, RoomConfig, RoomKind
from ahiko.rooms.hooks import HandOutcome, NoHooks
from ahiko.rooms.ranking import Placement
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.seats import Occupant
from ahiko.rooms.timing import Timing
from ahiko.store.tournament_places import StoredPlace, write_places
from ahiko.wallet.ledger import Clock, as_utc, utc_now

if TYPE_CHECKING:
    from ahiko.rooms.room import Room

log = logging.getLogger(__name__)

LEVEL_MINUTES = 10.0  # blinds double every ten minutes at every table


class MttRooms:
    """One multi-table tournament: the model, its tables' actors, the moves in flight."""

    def __init__(
        self,
        registry: RoomRegistry,
        mtt_id: str,
        players: Sequence[tuple[str, str]],  # (player id, name)
        *,
        rng: Random,
        name: str = "Torneio",
        starting_stack: int = TOURNAMENT_STARTING_CHIPS,
        level_minutes: float = LEVEL_MINUTES,
        timing: Timing | None = None,
        engine: Engine | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.registry = registry
        self.mtt_id = mtt_id
        self.name = name
        self.names = dict(players)
        self.model = MultiTable.seat(self.names, rng)
        self.starting_stack = starting_stack
        self.schedule = BlindSchedule(
            Stakes(small_blind=TOURNAMENT_SMALL_BLIND, big_blind=TOURNAMENT_BIG_BLIND),
            BlindIncrease.MINUTES,
            max(1, round(level_minutes)),
        )
        self.timing = timing or Timing()
        self.engine = engine
        self._clock = clock
        self.actors: dict[int, RoomActor] = {}
        # What each table really seats, as the commands sent and the hooks' calls say.
        self.seated: dict[int, dict[int, str]] = {}
        self.moving: dict[str, int] = {}  # player -> the table they are being moved out of
        self.held: dict[tuple[int, int], c.MoveIn] = {}  # (table, seat) -> waiting MoveIn
        self.broken: set[int] = set()
        self.finished = False
        self.hands = 0
        self.sizes_after_hands: list[list[int]] = []  # the model's table sizes, every hand

    # --- start ------------------------------------------------------------------------------
    def config(self, number: int) -> RoomConfig:
        return RoomConfig(
            name=f"{self.name} - Mesa {number}",
            kind=RoomKind.TOURNAMENT,
            seats=9,
            starting_chips=self.starting_stack,
            schedule=self.schedule,
            part_of=self.mtt_id,
            timing=self.timing,
        )

    async def start(self) -> None:
        for number, table in sorted(self.model.tables.items()):
            actor = self.registry.create(
                self.config(number),
                room_id=f"mtt-{self.mtt_id}-{number}",
                hooks=MttTableHooks(self, number),
            )
            self.actors[number] = actor
            self.seated[number] = {}
            for seat, player in sorted(table.seats.items()):
                command = c.MoveIn(player, self.names[player], seat, self.starting_stack)
                reply = await actor.ask(command)
                if not reply.ok:  # pragma: no cover - a new table has every seat free
                    raise RuntimeError(f"table {number}: {reply.message}")
                self.seated[number][seat] = player
        for actor in self.actors.values():
            reply = await actor.ask(c.Start(None))
            if not reply.ok:  # pragma: no cover
                raise RuntimeError(f"{actor.room_id}: {reply.message}")

    def room_ids(self) -> dict[int, str]:
        return {number: actor.room_id for number, actor in self.actors.items()}

    # --- the hooks' calls ---------------------------------------------------------------------
    def hand_ended(self, number: int, outcome: HandOutcome) -> None:
        if self.finished:
            return
        self.hands += 1
        table = self.model.tables.get(number)
        if table is not None and len(table.seats) >= 2:
            table.start_hand()  # the model's big blind moves forward one player
        remaining = set(self.model.remaining())
        busted = {
            player: outcome.stacks[seat] - outcome.net[seat]
            for seat, player in outcome.players.items()
            if outcome.stacks[seat] == 0 and player in remaining
        }
        if busted:
            self._apply(self.model.hands_ended({number: busted}))
        self.sizes_after_hands.append(sorted(len(t.seats) for t in self.model.tables.values()))

    def player_left(self, number: int, occupant: Occupant) -> None:
        player = occupant.player_id
        seats = self.seated.get(number, {})
        for seat in [s for s, p in seats.items() if p == player]:
            del seats[seat]
            self._release(number, seat)
        if self.finished:
            return
        if self.moving.get(player) == number:
            del self.moving[player]
            if occupant.stack > 0 and player in self.model.remaining():
                target = self.model.table_of(player)
                seat = next(s for s, p in target.seats.items() if p == player)
                self._move_in(target.number, c.MoveIn(player, occupant.name, seat, occupant.stack))
        elif occupant.stack > 0 and player in self.model.remaining():
            self._apply(self.model.leave(player))  # R-TN-05: out at once
        self._close_if_broken(number)
        self._finish_when_settled()

    # --- moves ------------------------------------------------------------------------------
    def _apply(self, moves: Sequence[Any]) -> None:
        for move in moves:
            self.moving[move.player] = move.from_table
            self.actors[move.from_table].tell(c.MoveOut(move.player))
        for number in [n for n in self.actors if n not in self.model.tables]:
            self.broken.add(number)
        self._finish_when_settled()

    def _finish_when_settled(self) -> None:
        """The model's tournament is over once one player remains; the tables close only when
        no move is still on its way (a stack between two tables, or waiting for its seat):
        closing before would leave those chips out of the final table's count."""
        if self.model.over and not self.finished and not self.moving and not self.held:
            self._finish()

    def _move_in(self, number: int, command: c.MoveIn) -> None:
        if command.seat in self.seated[number]:  # its player is still up there: wait
            self.held[(number, command.seat)] = command
            return
        self.seated[number][command.seat] = command.player_id
        self.actors[number].tell(command)

    def _release(self, number: int, seat: int) -> None:
        waiting = self.held.pop((number, seat), None)
        if waiting is not None:
            self._move_in(number, waiting)

    def _close_if_broken(self, number: int) -> None:
        if number in self.broken and not self.seated.get(number):
            self.broken.discard(number)
            self.registry.retire(self.actors[number].room_id, "table_broken")

    # --- the end ----------------------------------------------------------------------------
    @property
    def places(self) -> list[Placement]:
        return self.model.placements()

    def _finish(self) -> None:
        self.finished = True
        places = self.places
        if self.engine is not None:
            now = as_utc(self._clock())
            rows = [
                StoredPlace(
                    f"mtt-{self.mtt_id}",
                    p.place,
                    p.player,
                    int(p.player) if p.player.isdigit() else None,
                    self.names.get(p.player, p.player),
                    0,
                    None,
                    len(places),
                    now,
                )
                for p in places
            ]
            with self.engine.begin() as conn:
                write_places(conn, rows)
        for number in list(self.model.tables):
            self.registry.retire(self.actors[number].room_id, "tournament_over")


class MttTableHooks(NoHooks):
    """The hooks of one table: every hand's end and every player up go to the tournament."""

    def __init__(self, tournament: MttRooms, number: int) -> None:
        self.tournament = tournament
        self.number = number

    def on_hand_end(self, room: Room, outcome: HandOutcome) -> None:
        self.tournament.hand_ended(self.number, outcome)

    def on_player_left(self, room: Room, occupant: Occupant) -> None:
        self.tournament.player_left(self.number, occupant)

    def lobby_entry(self, room: Room, entry: dict[str, Any]) -> dict[str, Any]:
        return {**entry, "mtt": self.tournament.mtt_id, "table": self.number}
