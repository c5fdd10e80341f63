"""Multi-table tournaments, the pure logic: seating, balancing, breaking, the final
table, hand-for-hand on the bubble, and the R-TN-04 ranking across the whole field.

- **Seating**: players are shuffled (an injected ``random.Random``) and dealt round-robin to
  ``ceil(n / 9)`` tables, so tables start within one player of each other; seats at random.
- **Blinds**: at each table the big blind moves forward one player every hand (a bust does not
  make anyone skip it); the small blind and the button are the players before it (heads-up:
  the button is the small blind).
- **Balancing** (after every hand, ``balance``): while the largest table has two players more
  than the smallest, the player who would be **big blind next** at the largest table moves to
  the smallest, into the free seat that gets the big blind soonest there.
- **Breaking**: when the field fits in one table fewer, the smallest table (the highest number
  among equals) breaks; its players go one by one to the smallest remaining tables, each into
  the seat that gets the big blind soonest. At nine players or fewer one table is left: the
  final table.
- **Nobody skips a big blind by moving**: a moved player waits, not dealt in, for the hand
  whose big blind is their seat (``Table.waiting``), so the first hand they are dealt at the
  new table is their big blind. The hands they are dealt from one big blind to the next are
  then those they would have been dealt at the old table (a balancing move takes the next big
  blind there); with the big blind moving forward one seat a hand, never more than
  ``MAX_SEATS``, one orbit of a full table, for anyone.
- **Ranking** (R-TN-04/05, ``rooms.ranking.TournamentRanking``): players out in the same hand
  are ordered by their stacks at that hand's start, then by lot. Hands at different tables are
  not the same hand, except in **hand-for-hand** play (``hand_for_hand``: a paid tournament at
  the bubble): every table plays one hand and waits, and players out at different
  tables in that round count as out in the same hand. It runs from the moment the tables
  together could burst the bubble in one round (remaining ≤ paid places + tables) until the
  field is in the money.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from random import Random

from ahiko.rooms.ranking import Placement, TournamentRanking

MAX_SEATS = 9


@dataclass
class Table:
    number: int
    seats: dict[int, str] = field(default_factory=dict)  # seat -> player
    big: int | None = None  # the seat of the last hand's big blind
    # The button of the live room's hand now being played (or last played): once a live
    # table tells it, the blinds follow the room's own dealing (R-HE-02: the button one
    # seat on every hand, the blinds the players after it), not the big blind forward.
    button: int | None = None
    # Seats of players moved here who wait, not dealt in, for the hand whose big blind is
    # theirs: a move then never skips a big blind nor deals a hand before it.
    waiting: set[int] = field(default_factory=set)
    dealt: list[int] = field(default_factory=list)  # the seats dealt the last hand

    def occupied(self) -> list[int]:
        return sorted(self.seats)

    def free(self) -> list[int]:
        return [s for s in range(MAX_SEATS) if s not in self.seats]

    def _after(self, seat: int, among: list[int]) -> int:
        later = [s for s in among if s > seat]
        return later[0] if later else among[0]

    def _before(self, seat: int, among: list[int]) -> int:
        earlier = [s for s in among if s < seat]
        return earlier[-1] if earlier else among[-1]

    def next_blinds(self) -> tuple[int, int, int]:
        """(button, small blind, big blind) seats of the next hand. The big blind moves
        forward one player every hand, whoever busted (so nobody skips it); the small blind
        and the button are the players before it (heads-up: the button is the small blind)."""
        return self._blinds_among(self.dealt_seats())

    def _blinds_among(self, seats: list[int]) -> tuple[int, int, int]:
        if len(seats) < 2:
            raise ValueError(f"table {self.number} has fewer than two players")
        if self.button is not None:  # the live room's rule (R-HE-02, R-HE-03 heads-up)
            button = self._after(self.button, seats)
            small = button if len(seats) == 2 else self._after(button, seats)
            return button, small, self._after(small, seats)
        big = seats[min(2, len(seats) - 1)] if self.big is None else self._after(self.big, seats)
        small = self._before(big, seats)
        button = small if len(seats) == 2 else self._before(small, seats)
        return button, small, big

    def dealt_seats(self) -> list[int]:
        """The seats dealt the next hand: all but the waiting ones, of whom the first whose
        seat that hand's big blind would be comes in. With fewer than two others (three under
        the live room's button, R-HE-02: after a heads-up hand a newcomer is never the big
        blind of a three-handed one), or before the table's first hand, there is no big blind
        to wait for: everyone is dealt."""
        seats = self.occupied()
        playing = [s for s in seats if s not in self.waiting]
        few = 2 if self.button is None else 3
        if len(playing) < few or (self.big is None and self.button is None):
            return seats
        for seat in sorted(self.waiting & set(seats)):
            trial = sorted([*playing, seat])
            if self._blinds_among(trial)[2] == seat:
                return trial
        return playing

    def big_blind_next(self) -> str:
        return self.seats[self.next_blinds()[2]]

    def soonest_big_blind_seat(self) -> int:
        """The free seat where a player moved in now posts the big blind soonest."""
        free = self.free()
        if not free:
            raise ValueError(f"table {self.number} is full")
        if len(self.seats) < 2:
            return free[0]
        return min(free, key=self.hands_to_big_blind)

    def hands_to_big_blind(self, seat: int) -> int:
        """The number of the next hand (1: the next one) in which a player moved now to
        ``seat`` (free or theirs), waiting for it, posts the big blind, the other players
        staying."""
        trial = Table(
            self.number,
            {**self.seats, seat: "?"},
            big=self.big,
            button=self.button,
            waiting=self.waiting | {seat},
        )
        for hand in range(1, 2 * MAX_SEATS + 1):
            if trial.next_blinds()[2] == seat:
                return hand
            trial.start_hand()
        raise AssertionError("a big blind comes round within an orbit")  # pragma: no cover

    def start_hand(self) -> tuple[int, int, int]:
        self.dealt = self.dealt_seats()
        blinds = self._blinds_among(self.dealt)
        self.waiting -= set(self.dealt)
        self.big = blinds[2]
        if self.button is not None:
            self.button = blinds[0]
        return blinds

    def unseat(self, player: str) -> int:
        seat = next(s for s, p in self.seats.items() if p == player)
        del self.seats[seat]
        self.waiting.discard(seat)
        return seat

    def seat_moved(self, player: str) -> int:
        """Seats a player moved from another table where the big blind comes soonest; they
        wait for it (``dealt_seats``)."""
        seat = self.soonest_big_blind_seat()
        self.seats[seat] = player
        self.waiting.add(seat)
        return seat


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    from_table: int
    to_table: int
    to_seat: int
    reason: str  # "balance" or "break"


@dataclass
class MultiTable:
    """The field of one multi-table tournament."""

    rng: Random
    paid_places: int = 0  # 0: a free tournament (no bubble)
    tables: dict[int, Table] = field(default_factory=dict)
    ranking: TournamentRanking = field(init=False)
    moves: list[Move] = field(default_factory=list)
    _hand_numbers: int = 0

    @classmethod
    def seat(cls, players: Iterable[str], rng: Random, paid_places: int = 0) -> MultiTable:
        field_ = list(dict.fromkeys(players))
        if len(field_) < 2:
            raise ValueError("a tournament needs two players or more")
        mtt = cls(rng, paid_places)
        mtt.ranking = TournamentRanking(entrants=len(field_), rng=rng)
        count = math.ceil(len(field_) / MAX_SEATS)
        rng.shuffle(field_)
        dealt: dict[int, list[str]] = {n: [] for n in range(1, count + 1)}
        for i, player in enumerate(field_):
            dealt[1 + i % count].append(player)
        for number, group in dealt.items():
            seats = rng.sample(range(MAX_SEATS), len(group))
            mtt.tables[number] = Table(number, dict(zip(seats, group, strict=True)))
        return mtt

    # --- the field ---------------------------------------------------------------------------
    def remaining(self) -> list[str]:
        return [p for t in self.tables.values() for p in t.seats.values()]

    def table_of(self, player: str) -> Table:
        return next(t for t in self.tables.values() if player in t.seats.values())

    @property
    def final_table(self) -> bool:
        return len(self.tables) == 1

    @property
    def hand_for_hand(self) -> bool:
        """A paid tournament near the bubble: still out of the money, and close enough that
        the tables together could burst it in one round (remaining ≤ paid + tables)."""
        left = len(self.remaining())
        return 0 < self.paid_places < left <= self.paid_places + len(self.tables)

    @property
    def over(self) -> bool:
        return len(self.remaining()) == 1

    def add_late(self, player: str) -> Move:
        """Late registration: seated at the smallest table, where the big blind comes soonest."""
        if player in self.remaining() or player in self.ranking.eliminated:
            raise ValueError(f"{player} is already in the tournament")
        self.ranking.entrants += 1
        target = min(self.tables.values(), key=lambda t: (len(t.seats), t.number))
        if not target.free():
            target = Table(max(self.tables) + 1)
            self.tables[target.number] = target
        seat = target.soonest_big_blind_seat()
        target.seats[seat] = player
        return Move(player, 0, target.number, seat, "late")

    # --- after hands -------------------------------------------------------------------------
    def hands_ended(
        self, busted: Mapping[int, Mapping[str, int]], together: bool | None = None
    ) -> list[Move]:
        """Hands just ended at some tables: ``busted[table]`` = {player: stack at that hand's
        start} of those left with no chips. In hand-for-hand play every table played this
        hand: all of them are out in the same hand (``together``; by default when
        ``hand_for_hand``: the live tables say it themselves). Then tables are broken and
        balanced."""
        if self.hand_for_hand if together is None else together:
            self._hand_numbers += 1
            self._eliminate({p: s for out in busted.values() for p, s in out.items()})
        else:
            for number in sorted(busted):
                self._hand_numbers += 1
                self._eliminate(busted[number])
        for out in busted.values():
            for player in out:
                self.table_of(player).unseat(player)
        if self.over:
            self.ranking.declare_winner(self.remaining()[0])
            return []
        return self.rebalance()

    def leave(self, player: str) -> list[Move]:
        """R-TN-05: out at once, in the position of that moment."""
        table = self.table_of(player)
        self._hand_numbers += 1
        self.ranking.eliminate_leaver(player, self._hand_numbers, 0)
        table.unseat(player)
        if self.over:
            self.ranking.declare_winner(self.remaining()[0])
            return []
        return self.rebalance()

    def _eliminate(self, stacks: Mapping[str, int]) -> None:
        if stacks:
            self.ranking.eliminate_in_hand(self._hand_numbers, dict(stacks))

    def rebalance(self) -> list[Move]:
        moves: list[Move] = []
        for table in [t for t in self.tables.values() if not t.seats]:
            del self.tables[table.number]
        while len(self.tables) > math.ceil(len(self.remaining()) / MAX_SEATS):
            moves += self._break()
        while True:
            ordered = sorted(self.tables.values(), key=lambda t: (len(t.seats), t.number))
            small, large = ordered[0], ordered[-1]
            if len(large.seats) - len(small.seats) <= 1:
                break
            player = (
                large.big_blind_next()
                if len(large.seats) >= 2
                else large.seats[large.occupied()[0]]
            )
            moves.append(self._move(player, large, small, "balance"))
        self.moves += moves
        return moves

    def _break(self) -> list[Move]:
        doomed = min(self.tables.values(), key=lambda t: (len(t.seats), -t.number))
        del self.tables[doomed.number]
        moves = []
        # Those nearest their big blind first, so they get the soonest seats.
        order = []
        seats = doomed.occupied()
        if len(seats) >= 2:
            big = doomed.next_blinds()[2]
            start = seats.index(big)
            order = [doomed.seats[seats[(start + i) % len(seats)]] for i in range(len(seats))]
        else:
            order = [doomed.seats[s] for s in seats]
        for player in order:
            target = min(self.tables.values(), key=lambda t: (len(t.seats), t.number))
            doomed.unseat(player)
            seat = target.seat_moved(player)
            moves.append(Move(player, doomed.number, target.number, seat, "break"))
        return moves

    def _move(self, player: str, source: Table, target: Table, reason: str) -> Move:
        source.unseat(player)
        seat = target.seat_moved(player)
        return Move(player, source.number, target.number, seat, reason)

    def placements(self) -> list[Placement]:
        return self.ranking.placements()
