"""A room's timers, by name: set, cancel, what is left, and frozen by a pause.

Every timer has a ``TimerName``; a timer kept per player or per seat is the pair of its name
and that player or seat: ``(ABSENCE, player)``, ``(SIT_OUT, player)``, ``(WAIT_OFFER, "3")``.
A pause (R-RM-07, R-RM-09) freezes the timers of play (``PAUSABLE``) with what was left of
them and ``thaw`` hands that back; the others (absence, sitting out, a waiting-list offer, the empty
room's close, the Bot Ahiko's wait) keep running through a pause. The callbacks run through the room's ``fire`` so
each is one job on the room's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from ahiko.rooms.clock import Clock, TimerHandle


class TimerName(StrEnum):
    DEAL = "deal"  # R-FD-02: the commitment is shown, then the cards
    DEADLINE = "deadline"  # the clock of the seat to act (R-TM-01, R-TM-02)
    BOT = "bot"  # a bot's human-like pause before it answers
    BOT_LIMIT = "bot_limit"  # a bot thinking too long is answered for
    NEXT_HAND = "next_hand"  # the wait between hands (R-RM-11)
    EXPIRY = "expiry"  # the room's time limit (R-RM-18)
    EMPTY_CLOSE = "empty_close"  # an empty recreational room closes (R-RM-09)
    ABSENCE = "absence"  # a disconnected player is withdrawn (R-TM-03), one per player
    BOT_AHIKO = "bot_ahiko"  # the Bot Ahiko joins a person waiting alone (R-BA-01)
    SIT_OUT = "sit_out"  # a person sitting out is withdrawn (R-TM-03), one per player
    WAIT_OFFER = "wait_offer"  # a free seat held for the first on the waiting list, per seat
    RUNS = "runs"  # the all-in players' clock to answer whether to run it twice
    STRADDLE = "straddle"  # the straddler seat's clock to answer, before the cards


#: The timers a pause stops, keeping what was left of them.
PAUSABLE: tuple[TimerName, ...] = (
    TimerName.DEAL,
    TimerName.DEADLINE,
    TimerName.BOT,
    TimerName.NEXT_HAND,
    TimerName.EXPIRY,
    TimerName.RUNS,
    TimerName.STRADDLE,
)

#: Timers the table shows as countdowns ("Próxima mão em 5 s", the Bot Ahiko's arrival): the
#: server sends what is left of them whenever one is set or dropped (``countdown`` frames,
#: the summary's ``countdowns``).
COUNTDOWN_TIMERS: tuple[TimerName, ...] = (TimerName.NEXT_HAND, TimerName.BOT_AHIKO)

TimerKey = TimerName | tuple[TimerName, str]
Job = Callable[[], None]


def absence(player_id: str) -> TimerKey:
    return (TimerName.ABSENCE, player_id)


def sit_out(player_id: str) -> TimerKey:
    return (TimerName.SIT_OUT, player_id)


def wait_offer(seat: int) -> TimerKey:
    return (TimerName.WAIT_OFFER, str(seat))


class Timers:
    def __init__(
        self,
        clock: Clock,
        fire: Callable[[Job], None],
        on_countdown: Callable[[], None] | None = None,
    ) -> None:
        self._clock = clock
        self._fire = fire
        self._on_countdown = on_countdown
        self._handles: dict[TimerKey, TimerHandle] = {}
        self._due: dict[TimerKey, float] = {}
        self._frozen: dict[TimerName, float] = {}  # frozen by a pause: seconds left

    def set(self, key: TimerKey, seconds: float, job: Job) -> None:
        self._drop(key)
        box: list[TimerHandle] = []

        def run() -> None:
            if self._handles.get(key) is box[0]:
                del self._handles[key]
                self._due.pop(key, None)
                self._fire(job)

        box.append(self._clock.call_later(seconds, run))
        self._handles[key] = box[0]
        self._due[key] = self._clock.now() + seconds
        self._counted(key)

    def cancel(self, key: TimerKey) -> None:
        if self._drop(key):
            self._counted(key)

    def _drop(self, key: TimerKey) -> bool:
        handle = self._handles.pop(key, None)
        self._due.pop(key, None)
        if handle is not None:
            handle.cancel()
        return handle is not None

    def _counted(self, key: TimerKey) -> None:
        if key in COUNTDOWN_TIMERS and self._on_countdown is not None:
            self._on_countdown()

    def countdowns(self) -> dict[str, float]:
        """Seconds left of the timers the table counts down to (``COUNTDOWN_TIMERS``)."""
        out = {}
        for name in COUNTDOWN_TIMERS:
            left = self.left(name)
            if left is not None:
                out[name.value] = round(left, 3)
        return out

    def left(self, key: TimerKey) -> float | None:
        due = self._due.get(key)
        return None if due is None else max(0.0, due - self._clock.now())

    def is_set(self, key: TimerKey) -> bool:
        return key in self._handles

    def frozen_left(self, name: TimerName) -> float | None:
        return self._frozen.get(name)

    def freeze(self) -> None:
        """A pause: the timers of play stop, keeping what was left of them."""
        for name in PAUSABLE:
            left = self.left(name)
            if left is not None:
                self._frozen[name] = left
                self.cancel(name)

    def thaw(self) -> dict[TimerName, float]:
        """The end of a pause: what the frozen timers had left (the caller re-arms them)."""
        frozen, self._frozen = self._frozen, {}
        return frozen

    def cancel_all(self) -> None:
        for key in list(self._handles):
            self.cancel(key)
        self._frozen.clear()
