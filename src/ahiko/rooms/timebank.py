"""The time bank: extra seconds each person may spend beyond the action deadline.

Every person starts with ``initial_s`` (30 s), earns ``refill_s`` (5 s) every
``refill_every_hands`` (10) hands they are dealt, never more than ``cap_s`` (60 s). A host sets
these for a recreational room; Ahiko rooms and tournaments use the defaults. The bank starts
by itself when the deadline runs out, or earlier by the player's button (its seconds are then
added after what is left of the deadline); only the seconds past the deadline are spent.
When the bank is empty the timeout rule applies as before (R-TM-01). A pause (R-RM-07)
freezes it with every other clock. Pure bookkeeping on the room's clock; the room arms the
timers.
"""

from __future__ import annotations

from dataclasses import dataclass

TIME_BANK_S = 30.0  # a person's bank when they first sit
TIME_BANK_REFILL_S = 5.0  # ... earned every TIME_BANK_REFILL_HANDS hands dealt
TIME_BANK_REFILL_HANDS = 10
TIME_BANK_CAP_S = 60.0  # ... and never more than this
TIME_BANK_MAX_S = 300.0  # the most a host may set


@dataclass(frozen=True, slots=True)
class TimeBankPolicy:
    initial_s: float = TIME_BANK_S
    refill_s: float = TIME_BANK_REFILL_S
    refill_every_hands: int = TIME_BANK_REFILL_HANDS
    cap_s: float = TIME_BANK_CAP_S

    def __post_init__(self) -> None:
        if not 0 <= self.initial_s <= self.cap_s <= TIME_BANK_MAX_S:
            raise ValueError(f"a time bank needs 0 <= start <= cap <= {TIME_BANK_MAX_S:g} seconds")
        if self.refill_s < 0 or self.refill_s > self.cap_s:
            raise ValueError("a time bank refill is between 0 and the cap")
        if self.refill_every_hands < 1:
            raise ValueError("a time bank refills every 1 or more hands")

    @property
    def enabled(self) -> bool:
        return self.cap_s > 0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "initial_s": self.initial_s,
            "refill_s": self.refill_s,
            "refill_every_hands": self.refill_every_hands,
            "cap_s": self.cap_s,
        }


@dataclass(slots=True)
class _Running:
    player_id: str
    seat: int
    spends_from: float  # when the bank's seconds start to be spent (room clock)


class TimeBanks:
    """Every person's bank in one room, and the one that may be running now."""

    def __init__(self, policy: TimeBankPolicy) -> None:
        self.policy = policy
        self._left: dict[str, float] = {}
        self._hands: dict[str, int] = {}
        self.running: _Running | None = None
        self._frozen: tuple[str, int, float] | None = None  # paused: (player, seat, normal left)

    def left(self, player_id: str) -> float:
        return self._left.get(player_id, self.policy.initial_s)

    def start(self, player_id: str, seat: int, now: float, normal_left: float) -> float | None:
        """Start the bank for the player to act; returns the seconds their clock now has
        (what is left of the deadline plus the bank), or None when there is nothing to add."""
        if self.running is not None or self.left(player_id) <= 0:
            return None
        self._frozen = None
        self.running = _Running(player_id, seat, now + max(0.0, normal_left))
        return max(0.0, normal_left) + self.left(player_id)

    def settle(self, now: float) -> None:
        """The running bank stops (the player acted, or it ran out): what was spent is gone."""
        running = self.running
        if running is None:
            return
        spent = max(0.0, now - running.spends_from)
        self._left[running.player_id] = max(0.0, self.left(running.player_id) - spent)
        self.running = None

    def seconds_left(self, now: float) -> float | None:
        """The running bank's seconds still unspent, or None when none runs."""
        running = self.running
        if running is None:
            return None
        return max(0.0, self.left(running.player_id) - max(0.0, now - running.spends_from))

    def hand_dealt(self, player_id: str) -> None:
        """One more hand for ``player_id``: every ``refill_every_hands`` the bank grows."""
        policy = self.policy
        count = self._hands.get(player_id, 0) + 1
        self._hands[player_id] = count
        if count % policy.refill_every_hands == 0:
            self._left[player_id] = min(policy.cap_s, self.left(player_id) + policy.refill_s)

    def freeze(self, now: float) -> None:
        """A pause: the running bank keeps what it had (R-RM-07)."""
        running = self.running
        if running is None:
            return
        normal_left = max(0.0, running.spends_from - now)
        self.settle(now)
        self._frozen = (running.player_id, running.seat, normal_left)

    def thaw(self, now: float) -> None:
        if self._frozen is None:
            return
        player_id, seat, normal_left = self._frozen
        self._frozen = None
        self.running = _Running(player_id, seat, now + normal_left)
