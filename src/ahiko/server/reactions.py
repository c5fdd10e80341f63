"""How soon each account acts after its table's frame reached it, for the machine-speed
signal of ``ahiko.history.abuse_signals``. The gateway hands each accepted action's delay (from
the last write to that socket, the frame that showed the turn, to the action's frame read);
the counts go to the database in batches of ``FLUSH_EVERY`` actions an account, off the loop
(a node that stops loses at most that many an account)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ahiko.store.operators import add_reactions
from ahiko.store.writer import StoreWriter, writer_for

LANE = "reactions"
FAST_S = 0.25  # sooner than a person reads a table and clicks
FLUSH_EVERY = 20


@dataclass(slots=True)
class _Pending:
    actions: int = 0
    fast: int = 0
    total_ms: int = 0


class ReactionBook:
    def __init__(self, engine: Any, clock: Any, writer: StoreWriter) -> None:
        self._engine, self._clock, self._writer = engine, clock, writer
        self._pending: dict[str, _Pending] = {}

    def record(self, account: str, seconds: float) -> None:
        pending = self._pending.get(account)
        if pending is None:
            if not account.isdigit():
                return
            pending = self._pending[account] = _Pending()
        pending.actions += 1
        pending.fast += seconds < FAST_S
        pending.total_ms += round(seconds * 1000)
        if pending.actions >= FLUSH_EVERY:
            self.flush(account)

    def flush(self, account: str) -> None:
        pending = self._pending.pop(account, None)
        if pending is None or not pending.actions:
            return
        user_id, now = int(account), self._clock()
        self._writer.submit(
            LANE,
            lambda: add_reactions(
                self._engine, user_id, pending.actions, pending.fast, pending.total_ms, now
            ),
            retry=True,
        )


def reaction_book(app: Any) -> ReactionBook | None:
    """The app's book (made at its first use), or None for an app without a database."""
    found: ReactionBook | None = getattr(app.state, "reaction_book", None)
    if found is None:
        services = getattr(app.state, "services", None)
        if services is None:
            return None
        writer = writer_for(True, threads=1, name="ahiko-reactions")
        found = app.state.reaction_book = ReactionBook(services.engine, services.clock, writer)
    return found
