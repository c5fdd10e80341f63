"""Fencing tokens for the rooms of a cluster.

In a cluster each room has one owner at a time, chosen by a lease in Redis that comes with a
fencing token: a number that only grows, one more for every new owner. A lease can expire
under an owner that is merely slow (paused by the kernel, a long garbage collection, a network
cut): a newer owner then takes the room while the old one still believes it holds it. So the
database, not the old owner's belief, has the last word. ``room_fences`` keeps, per room, the
token of its newest owner; every durable write about a room (its seats, hand records, archived
hands, participations and the table's ledger postings) runs ``check_fence`` in its own
transaction, which refuses it (``FencedOut``, the whole transaction rolled back) unless the
writer's token is still the newest.

``check_fence`` is an ``UPDATE … WHERE room_id = :room AND token = :mine``: on PostgreSQL the
row stays locked until the write commits, so a new owner's ``claim_fence`` (an ``UPDATE`` of
the same row) waits for it, and every write lands either wholly before the takeover (and the
new owner restores from it) or not at all. SQLite serialises writers anyway.

The cluster's leader has a fence too, ``LEADER_FENCE`` (a row of ``room_fences`` no room id
can take): the leader records its leader-lease token there when it starts leading, and the
writes that must never come from two leaders (the sit & go and MTT pools' postings,
``ahiko.wallet.sitgo``) check it, so a leader paused past its lease cannot post after a newer
one took over.

A node of a cluster installs its ``FenceBook`` (the tokens it holds) on its engine; without one
(the embedded single server) ``check_fence`` does nothing, exactly as before. With one, a write
about a room the node holds no token for is refused too.

**A run of a room writes under one token for its whole life.** A node that lost a room (its
lease ran out while it was frozen) and later owns it again runs it anew under a newer token; the
old run's writes still in flight, or set off by its timers, must not pass under the node's new
token (they would settle a hand the other owner cancelled). So a run carries its own
``RunFence`` in its ``contextvars`` context (``run_context``: the room's actor, its timers and
its writes' threads all run in it), and ``check_fence`` checks the token of the run the write
comes from; only a write from outside any run of the room (an HTTP request, the lobby) uses
the node's current token. A refused write of an old run tells the node nothing: the node's
current run of the room is not the one fenced out.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import weakref
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from ahiko.store.schema import room_fences

log = logging.getLogger(__name__)

#: The fence of the cluster's leader (``ahiko.server.cluster.competition``); no room has it.
LEADER_FENCE = "cluster:leader"


class FencedOut(RuntimeError):
    """A write about ``room_id`` by an owner that is no longer the newest: refused."""

    def __init__(self, room_id: str, token: int | None, newest: int | None) -> None:
        self.room_id = room_id
        self.token = token
        self.newest = newest
        if token is None:
            why = "this node holds no lease on it"
        else:
            why = f"this node's token {token} is older than the newest owner's ({newest})"
        super().__init__(f"write about room {room_id} refused: {why}")


class FenceBook:
    """The fencing tokens one node holds, by room; ``on_fenced(room_id)`` is told (once per
    refusal, from whatever thread wrote) when the database refused one of its writes."""

    def __init__(self, owner: str, on_fenced: Callable[[str], None] | None = None) -> None:
        self.owner = owner
        self.on_fenced = on_fenced
        self._tokens: dict[str, int] = {}
        self._lock = threading.Lock()
        self.refused = 0  # writes the database refused (monitoring)

    def hold(self, room_id: str, token: int) -> None:
        with self._lock:
            self._tokens[room_id] = token

    def drop(self, room_id: str) -> None:
        with self._lock:
            self._tokens.pop(room_id, None)

    def token(self, room_id: str) -> int | None:
        with self._lock:
            return self._tokens.get(room_id)

    def rooms(self) -> dict[str, int]:
        with self._lock:
            return dict(self._tokens)


class RunFence:
    """The fencing token of one run of a room: the node's token for the room when the run
    began, or (a room opened before its claim) at the run's first write; never changed
    afterwards."""

    def __init__(self, room_id: str, book: FenceBook) -> None:
        self.room_id = room_id
        self.book = book
        self.token = book.token(room_id)

    def pinned(self) -> int | None:
        if self.token is None:
            self.token = self.book.token(self.room_id)
        return self.token


_run_fence: contextvars.ContextVar[RunFence | None] = contextvars.ContextVar(
    "ahiko_run_fence", default=None
)


def run_context(room_id: str, book: FenceBook) -> contextvars.Context:
    """A fresh context for one run of ``room_id``, carrying its ``RunFence``."""
    context = contextvars.Context()
    context.run(_run_fence.set, RunFence(room_id, book))
    return context


def writer_token(room_id: str, book: FenceBook) -> int | None:
    """The token a write about ``room_id`` carries: its run's, else the node's current."""
    run = _run_fence.get()
    if run is not None and run.room_id == room_id and run.book is book:
        return run.pinned()
    return book.token(room_id)


_books: weakref.WeakKeyDictionary[Engine, FenceBook] = weakref.WeakKeyDictionary()


def install_fences(engine: Engine, book: FenceBook) -> None:
    """From now on every write about a room on ``engine`` must carry a token of ``book``."""
    _books[engine] = book


def fence_book(engine: Engine) -> FenceBook | None:
    return _books.get(engine)


def check_fence(conn: Connection, room_id: str) -> None:
    """Raises ``FencedOut`` unless this node's token for ``room_id`` is the newest; call it
    inside the write's transaction (it also locks the room's fence row until the commit)."""
    book = _books.get(conn.engine)
    if book is None:
        return  # the embedded single server: it owns every room
    token = writer_token(room_id, book)
    if token is not None:
        done = conn.execute(
            update(room_fences)
            .where(room_fences.c.room_id == room_id, room_fences.c.token == token)
            .values(token=room_fences.c.token)
        )
        if done.rowcount == 1:
            return
    newest = conn.execute(
        select(room_fences.c.token).where(room_fences.c.room_id == room_id)
    ).scalar_one_or_none()
    book.refused += 1
    log.warning("fenced out of room %s: token %s, newest %s", room_id, token, newest)
    if book.on_fenced is not None and token == book.token(room_id):
        book.on_fenced(room_id)  # the node's current run is the one fenced out
    raise FencedOut(room_id, token, None if newest is None else int(newest))


def claim_fence(engine: Engine, room_id: str, token: int, owner: str) -> None:
    """Record ``token`` as the newest owner's of ``room_id``; ``FencedOut`` (with the stored
    token as ``newest``) when the database already knows one at least as new. Waits for a
    write of the previous owner that is in flight (its row lock)."""
    for attempt in (1, 2):  # two first claims at once: one insert wins, the other compares
        try:
            stored = _claim(engine, room_id, token, owner)
        except IntegrityError:
            if attempt == 2:
                raise
            continue
        if stored is None:
            return
        raise FencedOut(room_id, token, stored)


def _claim(engine: Engine, room_id: str, token: int, owner: str) -> int | None:
    now = datetime.now(UTC)
    with engine.begin() as conn:
        raised = conn.execute(
            update(room_fences)
            .where(room_fences.c.room_id == room_id, room_fences.c.token < token)
            .values(token=token, owner=owner, claimed_at=now)
        )
        if raised.rowcount == 1:
            return None
        stored = conn.execute(
            select(room_fences.c.token).where(room_fences.c.room_id == room_id)
        ).scalar_one_or_none()
        if stored is not None:
            return int(stored)
        conn.execute(
            insert(room_fences).values(room_id=room_id, token=token, owner=owner, claimed_at=now)
        )
        return None


def newest_token(engine: Engine, room_id: str) -> int | None:
    with engine.connect() as conn:
        found = conn.execute(
            select(room_fences.c.token).where(room_fences.c.room_id == room_id)
        ).scalar_one_or_none()
    return None if found is None else int(found)
