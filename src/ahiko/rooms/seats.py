"""Who sits where: seats, reservations and the places bots give up (R-RM-01, R-RM-16).

Pure bookkeeping, no clock and no hand. A person picks a seat; while a hand runs they reserve
it (a free seat, or in a recreational room a bot's place: the bot finishes the hand and then
gives the seat up) and watch until the next hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class SeatError(ValueError):
    """A seat request the room refuses; ``rule`` names why."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


@dataclass
class Occupant:
    player_id: str  # account id for people, "bot-<n>" for bots
    name: str
    stack: int
    is_bot: bool = False
    bot_level: str | None = None
    connected: bool = True
    disconnected_since: float | None = None
    waiting: bool = False  # reserved during a hand: plays from the next one (R-RM-16)
    leave_after_hand: bool = False  # removed bot or "leave after this hand"
    new_entries: int = 0  # R-RM-06: times the starting chips were granted again
    sitting_out: bool = False  # "Ficar fora nas próximas mãos": not dealt in
    # moved from another table of a multi-table tournament: dealt in first at their big blind
    waits_for_big_blind: bool = False

    @property
    def is_person(self) -> bool:
        return not self.is_bot


@dataclass
class Seats:
    size: int
    _by_seat: dict[int, Occupant] = field(default_factory=dict)
    # A person waiting for a bot's place: seat -> the person, applied when the hand ends.
    _replacements: dict[int, Occupant] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 2 <= self.size <= 9:
            raise ValueError("a table has 2 to 9 seats")

    # --- queries -------------------------------------------------------------------------
    def get(self, seat: int) -> Occupant | None:
        return self._by_seat.get(seat)

    def items(self) -> list[tuple[int, Occupant]]:
        return sorted(self._by_seat.items())

    def seat_of(self, player_id: str) -> int | None:
        for seat, occupant in self._by_seat.items():
            if occupant.player_id == player_id:
                return seat
        for seat, occupant in self._replacements.items():
            if occupant.player_id == player_id:
                return seat
        return None

    def reservation_of(self, player_id: str) -> int | None:
        for seat, occupant in self._replacements.items():
            if occupant.player_id == player_id:
                return seat
        return None

    def free_seats(self) -> list[int]:
        return [
            s for s in range(self.size) if s not in self._by_seat and s not in self._replacements
        ]

    @property
    def taken(self) -> int:
        return len(self._by_seat) + len(self._replacements)

    def people(self) -> list[Occupant]:
        return [o for _, o in self.items() if o.is_person] + list(self._replacements.values())

    def bots(self) -> list[tuple[int, Occupant]]:
        return [(s, o) for s, o in self.items() if o.is_bot]

    def eligible_for_hand(self, *, absent_too: bool = False) -> list[int]:
        """Seats dealt into the next hand: chips, not leaving, not sitting out, and not a
        disconnected person (R-TM-05); with ``absent_too`` (a tournament, R-TN-07 D) those
        sitting out and the disconnected as well: they pay their blinds."""
        return [
            s
            for s, o in self.items()
            if o.stack > 0
            and not o.waiting
            and not o.leave_after_hand
            and (absent_too or (not o.sitting_out and (o.is_bot or o.connected)))
        ]

    # --- changes -------------------------------------------------------------------------
    def sit(
        self, seat: int, occupant: Occupant, *, hand_running: bool, may_take_bot_place: bool
    ) -> bool:
        """Seat ``occupant``; returns True when it is a reservation for the next hand."""
        if not 0 <= seat < self.size:
            raise SeatError("R-RM-01", "that seat does not exist")
        if self.seat_of(occupant.player_id) is not None:
            raise SeatError("R-RM-01", "you already have a seat in this room")
        if seat in self._replacements:
            raise SeatError("R-RM-16", "that seat is already reserved")
        current = self._by_seat.get(seat)
        if current is None:
            occupant.waiting = hand_running
            self._by_seat[seat] = occupant
            return hand_running
        if not (current.is_bot and may_take_bot_place and occupant.is_person):
            raise SeatError("R-RM-01", "that seat is taken")
        if not hand_running:
            del self._by_seat[seat]
            self._by_seat[seat] = occupant
            return False
        current.leave_after_hand = True
        occupant.waiting = True
        self._replacements[seat] = occupant
        return True

    def remove(self, seat: int) -> Occupant:
        occupant = self._by_seat.pop(seat, None)
        if occupant is None:
            raise SeatError("R-RM-01", "that seat is empty")
        return occupant

    def cancel_reservation(self, player_id: str) -> Occupant | None:
        seat = self.reservation_of(player_id)
        if seat is None:
            return None
        occupant = self._replacements.pop(seat)
        bot = self._by_seat.get(seat)
        if bot is not None and bot.is_bot:
            bot.leave_after_hand = False
        return occupant

    def between_hands(self) -> list[Occupant]:
        """Apply what waited for the hand to end: leavers go, reserved people take their
        seats, waiting flags clear. Returns the occupants who left."""
        left = []
        for seat, occupant in list(self._by_seat.items()):
            if occupant.leave_after_hand:
                left.append(self._by_seat.pop(seat))
        for seat in list(self._replacements):
            if seat not in self._by_seat:
                self._by_seat[seat] = self._replacements.pop(seat)
        for occupant in self._by_seat.values():
            occupant.waiting = False
        return left
