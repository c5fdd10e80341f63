"""A multi-table tournament played at live tables: ``competition.mtt.MultiTable``
decides, the tables' actors play.

- **Start** (``start``): the field is seated by ``MultiTable.seat`` (at random, tables within
  one player of each other); one tournament room per table (``RoomConfig.part_of``: the
  ``MttTable`` kind), each player placed with ``MoveIn`` at the seat the model chose, every
  table started by the house. Blinds double by time (``BlindIncrease.MINUTES``), so every
  table plays the same level at the same moment; or, with ``level_hands``, every that many
  hands each table deals (``BlindIncrease.HANDS``: each table counts its own hands, and the
  tournament's level, for late registration and the lobby, is the furthest table's).
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

- **The browser follows a move**: once a moved player is up at the old table, that table
  sends their connections a ``moved`` frame naming the new room (``room_id``, ``table``,
  ``seat``); the client opens it (docs/protocol.md). A connection that opens at a table its
  player no longer sits at (``on_connected``: the first frame reached no socket of theirs, the
  client was between two tables) is sent the same frame, naming where they sit now
  (``elsewhere``); a socket to a broken table's room, gone, is told by the gateway
  (``MttService.moved_from``).
- **Late registration** (``add_late``): the player is seated at the table with the fewest
  players (a new table when every one is full; it starts once it has two), in the seat that
  gets the big blind soonest, with the starting stack; then the tables are balanced.
- **Hand-for-hand on the bubble** (a paid tournament, ``paid_places`` > 0, whose players
  left are the paid places + 1, with two tables or more): a table that ended its hand holds
  its next one (``hold_deal``) until every table has ended the hand it is playing; then all
  of them deal together (``Wake``). The players out in one such round are out in the same
  hand (R-TN-04: by their stacks at that hand's start, then by lot), whichever tables they
  sat at. It ends as soon as someone busts (the field is then in the money).

- **Nobody skips a big blind by moving**, as the rooms deal (R-HE-02: the button one seat
  on every hand, the blinds the two players after it; heads-up the button is the small
  blind): each hand's button reaches the model when the hand is dealt (``hand_started``), so
  the model's "big blind next" at a table is the room's own: the player that table would
  make big blind in its next hand (the one after the hand being played, if one is). A
  balancing move takes that player; when they are up at the old table, the new table's
  seat is chosen again, as the free seat where, under the same dealing, the big blind comes
  soonest (``Table.hands_to_big_blind``), and they wait there, not dealt in, for the hand
  whose big blind is their seat (``MoveIn.waits_for_big_blind``): the first hand a moved
  player is dealt at the new table is their big blind.

Nothing here reads a table's state: the model, the actors' commands and the hooks' calls
(a hook tells the button of the hand it deals and asks its room whether it has two players
ready to deal).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from ahiko.competition.mtt import Move, MultiTable
from ahiko.competition.mtt_lobby import MTT_TABLE_SEATS
from ahiko.poker.games import HOLDEM
from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.blinds import (
    TOURNAMENT_BIG_BLIND,
    TOURNAMENT_SMALL_BLIND,
    BlindIncrease,
    BlindSchedule,
    Stakes,
)
from ahiko.rooms.config import TOURNAMENT_STARTING_CHIPS, RoomConfig, RoomKind, Variant
from ahiko.rooms.frame_types import Moved, RoomSummary, TournamentPart
from ahiko.rooms.hooks import HandOutcome, NoHooks
from ahiko.rooms.ranking import Placement
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.seats import Occupant
from ahiko.rooms.timing import Timing
from ahiko.store.tournament_places import StoredPlace, write_places
from ahiko.wallet.ledger import Clock, as_utc, utc_now

if TYPE_CHECKING:
    from ahiko.rooms.room_view import RoomView

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
        level_hands: int | None = None,
        variant: str = HOLDEM.name,
        timing: Timing | None = None,
        engine: Engine | None = None,
        clock: Clock = utc_now,
        paid_places: int = 0,
        on_finish: Callable[[list[Placement]], None] | None = None,
        claim: Callable[[str], Awaitable[object]] | None = None,
        prizes: Callable[[], list[int]] = list,
    ) -> None:
        self.registry = registry
        # Asked, not kept: a late registration grows the pool while the tables play.
        self.prizes = prizes
        self.mtt_id = mtt_id
        # On a cluster, each table's room is owned like any room (a lease and a fence token,
        # ``ahiko.server.cluster.competition``): claimed before anything about it is written.
        self.claim = claim
        self._claimed: set[str] = set()
        self.name = name
        self.names = dict(players)
        self.model = MultiTable.seat(self.names, rng, paid_places)
        self.on_finish = on_finish
        self.starting_stack = starting_stack
        self.variant = Variant(variant)
        base = Stakes(small_blind=TOURNAMENT_SMALL_BLIND, big_blind=TOURNAMENT_BIG_BLIND)
        if level_hands is None:
            self.schedule = BlindSchedule(base, BlindIncrease.MINUTES, max(1, round(level_minutes)))
        else:
            self.schedule = BlindSchedule(base, BlindIncrease.HANDS, level_hands)
        self.dealt_at: dict[int, int] = {}  # hands dealt, by table
        self.chips: dict[str, int] = {}  # each player's stack after their table's last hand
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
        self.started_at: float | None = None  # the room clock's time of the start
        self.unstarted: set[int] = set()  # tables opened by a late registration, not dealing
        # Hand-for-hand (``bubble``): tables in a hand, tables holding their next one, and
        # the round under way (the tables that dealt in it, the players out in it).
        self.playing: set[int] = set()
        self.waiting: set[int] = set()
        self.in_round = False
        self.round_dealt: set[int] = set()
        self.round_busts: dict[int, dict[str, int]] = {}
        self.rounds = 0  # hand-for-hand rounds played
        self.round_log: list[tuple[int, dict[int, dict[str, int]]]] = []  # (round, busts)
        # moved players' (player, table, seat, the hand from now in which they are big blind)
        self.arrivals: list[tuple[str, int, int, int]] = []
        # the tables each player was moved away from (or sent to, then re-sent elsewhere
        # before their seat was free): a socket of theirs opening there is told where they sit
        self.left_behind: dict[str, set[int]] = {}

    # --- start ------------------------------------------------------------------------------
    def config(self, number: int) -> RoomConfig:
        return RoomConfig(
            name=f"{self.name} - Mesa {number}",
            kind=RoomKind.TOURNAMENT,
            variant=self.variant,
            seats=MTT_TABLE_SEATS,
            starting_chips=self.starting_stack,
            schedule=self.schedule,
            part_of=self.mtt_id,
            timing=self.timing,
        )

    def _open_table(self, number: int) -> RoomActor:
        actor = self.registry.create(
            self.config(number),
            room_id=f"mtt-{self.mtt_id}-{number}",
            hooks=MttTableHooks(self, number),
        )
        self.actors[number] = actor
        self.seated[number] = {}
        return actor

    async def claim_tables(self) -> None:
        """Claims every table opened and not claimed yet (on a cluster; nothing without
        ``claim``): called before a new table deals its first hand."""
        if self.claim is None:
            return
        for actor in list(self.actors.values()):
            if actor.room_id not in self._claimed:
                await self.claim(actor.room_id)
                self._claimed.add(actor.room_id)

    async def start(self) -> None:
        self.started_at = self.registry.clock.now()
        for number in sorted(self.model.tables):
            self._open_table(number)
        await self.claim_tables()
        for number, table in sorted(self.model.tables.items()):
            actor = self.actors[number]
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

    def room_of(self, player: str) -> str | None:
        """The room of the table ``player`` sits at (or is on the way to), if still in."""
        if player not in self.model.remaining():
            return None
        return self.actors[self.model.table_of(player).number].room_id

    @property
    def level(self) -> int:
        """The blind level now (1 at the start): every table's by time, the furthest
        table's by hands."""
        if self.started_at is None:
            return 0
        if self.schedule.increase is BlindIncrease.HANDS:
            return 1 + max(self.dealt_at.values(), default=0) // self.schedule.every
        elapsed = self.registry.clock.now() - self.started_at
        return 1 + int(elapsed // (self.schedule.every * 60))

    def add_late(self, player: str, name: str) -> None:
        """Late registration: seated with the starting stack at the table with the fewest
        players, in the seat that gets the big blind soonest; then the tables balanced."""
        move = self.model.add_late(player)
        self.names[player] = name
        if move.to_table not in self.actors:
            self._open_table(move.to_table)
            self.unstarted.add(move.to_table)
        self._move_in(move.to_table, c.MoveIn(player, name, move.to_seat, self.starting_stack))
        self._apply(self.model.rebalance())

    # --- the hooks' calls ---------------------------------------------------------------------
    def hand_ended(self, number: int, outcome: HandOutcome) -> None:
        self.playing.discard(number)
        if self.finished:
            return
        self.hands += 1
        for seat, player in outcome.players.items():  # the tournament's page shows stacks
            self.chips[player] = outcome.stacks[seat]
        table = self.model.tables.get(number)
        if table is not None and table.button is None and len(table.seats) >= 2:
            table.start_hand()  # no button told: the model's big blind moves forward one
        remaining = set(self.model.remaining())
        busted = {
            player: outcome.stacks[seat] - outcome.net[seat]
            for seat, player in outcome.players.items()
            if outcome.stacks[seat] == 0 and player in remaining
        }
        if self.in_round:  # hand-for-hand: the round's busts count when every table is done
            if busted:
                self.round_busts[number] = busted
            if not self.playing:
                self._end_round()
        elif busted:
            self._apply(self.model.hands_ended({number: busted}, together=False))
        self.sizes_after_hands.append(sorted(len(t.seats) for t in self.model.tables.values()))
        self._release_when_ready()

    # --- hand-for-hand on the bubble -----------------------------------------------------------
    @property
    def bubble(self) -> bool:
        """A paid tournament whose next bust is the bubble, at two tables or more."""
        paid = self.model.paid_places
        left = len(self.model.remaining())
        return paid > 0 and left == paid + 1 and len(self.model.tables) > 1

    def hold_deal(self, number: int, ready: bool) -> bool:
        """Table ``number`` is about to deal (``ready``: it has two players to deal to).
        On the bubble it waits unless a round is under way that it has not dealt in."""
        self.playing.discard(number)  # asking to deal: its last hand ended or was cancelled
        if not ready or self.finished or not self.bubble:
            return False
        if self.in_round and number not in self.round_dealt:
            self.round_dealt.add(number)
            self.playing.add(number)
            return False
        self.waiting.add(number)
        self._release_when_ready()
        return True

    def hand_started(self, number: int, button: int | None, seats: Sequence[int]) -> None:
        """Table ``number`` dealt a hand with ``button`` to ``seats``: the model's blinds
        follow the room's (R-HE-02), so "big blind next" is the room's own."""
        self.playing.add(number)
        self.dealt_at[number] = self.dealt_at.get(number, 0) + 1
        table = self.model.tables.get(number)
        if table is not None and button is not None:
            table.button = button
            table.dealt = list(seats)
            table.waiting -= set(seats)

    def _end_round(self) -> None:
        self.in_round = False
        self.round_dealt.clear()
        busts, self.round_busts = self.round_busts, {}
        self.rounds += 1
        self.round_log.append((self.rounds, busts))
        if busts:  # out in the same hand, whatever their tables (R-TN-04)
            self._apply(self.model.hands_ended(busts, together=True))

    def _release_when_ready(self) -> None:
        """No table in a hand: a new hand-for-hand round (every waiting table deals now),
        or, off the bubble, every held table deals again."""
        if self.playing or self.in_round or not self.waiting or self.finished:
            return
        if self.bubble:
            self.in_round = True
            self.round_dealt = set()
        held, self.waiting = self.waiting, set()
        for number in sorted(held):
            if number in self.actors and number in self.model.tables:
                self.actors[number].tell(c.Wake())

    def player_left(self, number: int, occupant: Occupant) -> Moved | None:
        """``occupant`` is up at table ``number``. Returns where a moved player goes (the
        ``moved`` frame's body), None otherwise."""
        player = occupant.player_id
        seats = self.seated.get(number, {})
        for seat in [s for s, p in seats.items() if p == player]:
            del seats[seat]
            self._release(number, seat)
        if self.finished:
            return None
        moved = None
        if self.moving.get(player) == number:
            del self.moving[player]
            self.left_behind.setdefault(player, set()).add(number)
            if occupant.stack > 0 and player in self.model.remaining():
                target = self.model.table_of(player)
                seat = next(s for s, p in target.seats.items() if p == player)
                if target.button is not None:  # the seat where the big blind comes soonest now
                    target.unseat(player)
                    seat = target.seat_moved(player)
                    soon = target.hands_to_big_blind(seat)
                    self.arrivals.append((player, target.number, seat, soon))
                command = c.MoveIn(
                    player, occupant.name, seat, occupant.stack, waits_for_big_blind=True
                )
                self._move_in(target.number, command)
                moved = self._where(target.number, seat)
        elif occupant.stack > 0 and player in self.model.remaining():
            self._apply(self.model.leave(player))  # R-TN-05: out at once
        self._close_if_broken(number)
        self._finish_when_settled()
        return moved

    def elsewhere(self, number: int, player: str) -> Moved | None:
        """``player`` connected to table ``number``, one they were moved away from: the
        ``moved`` frame's body when they are still in and sit at another table now (its seat
        taken or waiting for it); None when they sit here, are out, or never sat here (a
        player watching another table of their tournament is not sent back). The ``moved``
        frame sent when they were up at the old table went only to the connections open there
        then; a client between two sockets (a second move before its socket to the first new
        table was open) learns it here."""
        if self.finished or number not in self.left_behind.get(player, ()):
            return None
        if player not in self.model.remaining():
            return None
        where = next(
            (
                (n, seat)
                for n, seats in self.seated.items()
                for seat, p in seats.items()
                if p == player
            ),
            None,
        )
        if where is None:  # waiting for its seat at the new table
            where = next(
                ((n, seat) for (n, seat), cmd in self.held.items() if cmd.player_id == player), None
            )
        if where is None or where[0] == number or where[0] not in self.actors:
            return None
        return self._where(*where)

    def _where(self, number: int, seat: int) -> Moved:
        """The ``moved`` frame's body: the player sits at table ``number``, seat ``seat``."""
        return {
            "room_id": self.actors[number].room_id,
            "table": number,
            "seat": seat,
            "mtt": self.mtt_id,
        }

    def elsewhere_from(self, room_id: str, player: str) -> Moved | None:
        """``elsewhere`` for the table whose room is ``room_id`` (a broken table's room too,
        retired: the gateway asks when a socket names a room that is gone)."""
        number = next((n for n, a in self.actors.items() if a.room_id == room_id), None)
        return None if number is None else self.elsewhere(number, player)

    # --- moves ------------------------------------------------------------------------------
    def _apply(self, moves: Sequence[Move]) -> None:
        """Each move to the tables. A player moved again before reaching their last new
        table goes straight to the latest one: still up at the table they are leaving, they
        get their seat there once they are up; waiting for a seat, the wait moves."""
        for move in moves:
            if move.player in self.moving:
                continue  # on the way: ``player_left`` seats them where the model says
            waiting = next(
                (k for k, cmd in self.held.items() if cmd.player_id == move.player), None
            )
            if waiting is not None:
                command = self.held.pop(waiting)
                self.left_behind.setdefault(move.player, set()).add(waiting[0])
                self._move_in(move.to_table, dataclasses.replace(command, seat=move.to_seat))
                # their client, told of that table, waits there for the seat: told again
                where = self._where(move.to_table, move.to_seat)
                self.actors[waiting[0]].tell(c.TellMoved(move.player, where))
                continue
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
        if number in self.unstarted and len(self.seated[number]) >= 2:
            self.unstarted.discard(number)  # a table a late registration opened: deal now
            self.actors[number].tell(c.Start(None))

    def _release(self, number: int, seat: int) -> None:
        waiting = self.held.pop((number, seat), None)
        if waiting is not None:
            self._move_in(number, waiting)

    def _close_if_broken(self, number: int) -> None:
        if number in self.broken and not self.seated.get(number):
            self.broken.discard(number)
            actor = self.actors[number]
            # a client still there (its move's frame came while it was between sockets, or
            # it waited there for a seat) is told where its player sits before the close
            for player in [p for p, tables in self.left_behind.items() if number in tables]:
                where = self.elsewhere(number, player)
                if where is not None:
                    actor.tell(c.TellMoved(player, where))
            self.registry.retire(actor.room_id, "table_broken")

    # --- the end ----------------------------------------------------------------------------
    @property
    def places(self) -> list[Placement]:
        return self.model.placements()

    def _finish(self) -> None:
        self.finished = True
        places = self.places
        if self.on_finish is not None:
            self.on_finish(places)
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

    def on_hand_start(self, room: RoomView, hand_no: int, stacks: Mapping[int, int]) -> None:
        self.tournament.hand_started(self.number, room.button, sorted(stacks))

    def on_hand_end(self, room: RoomView, outcome: HandOutcome) -> None:
        self.tournament.hand_ended(self.number, outcome)

    def on_player_left(self, room: RoomView, occupant: Occupant) -> None:
        moved = self.tournament.player_left(self.number, occupant)
        if moved is not None:  # the browser follows the move (docs/protocol.md)
            room.notify(occupant.player_id, "moved", moved)

    def on_connected(self, room: RoomView, player_id: str) -> None:
        moved = self.tournament.elsewhere(self.number, player_id)
        if moved is not None:  # told again: the first frame found no socket of theirs here
            room.notify(player_id, "moved", moved)

    def hold_deal(self, room: RoomView) -> bool:
        return self.tournament.hold_deal(self.number, bool(room.ready_seats))

    def lobby_entry(self, room: RoomView, entry: RoomSummary) -> dict[str, Any]:
        return {**entry, "mtt": self.tournament.mtt_id, "table": self.number}

    def tournament_part(self, room: RoomView) -> TournamentPart | None:
        return {
            "mtt": self.tournament.mtt_id,
            "table": self.number,
            "prizes": self.tournament.prizes(),
        }
