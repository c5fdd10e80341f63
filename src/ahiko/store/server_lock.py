"""One server per database unless they form a cluster.

Two ``ahiko serve`` on one database without a shared Redis would each believe they own every
room: both reopen the same rooms, cancel each other's hands and deal to the same seats. So a
server holds, for as long as it runs, a lock on its database:

- SQLite: an exclusive ``flock`` on a file next to the database (``ahiko.sqlite3.server-lock``);
- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection kept open.
  A node of a cluster (``--redis-url``) takes the same lock *shared*: any number of nodes hold
  it together, and a lone server (exclusive) is refused while one does, and the other way round.

Both go away with the process, however it ends (``kill -9`` included): the kernel drops the
``flock``, and PostgreSQL ends the session of a closed connection.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

#: The advisory lock's key: "ahiko" in ASCII, one bigint shared by every Ahiko server.
ADVISORY_KEY = 0x61_68_69_6B_6F
LOCK_SUFFIX = ".server-lock"
CLUSTER_FIX = (
    "stop the other server first, or run several nodes as one cluster: every node with the "
    "same PostgreSQL --database-url and the same --redis-url (AHIKO_REDIS_URL; see docs/deploy.md)"
)


class ServerLockRefused(RuntimeError):
    """Another server already serves this database; the message names the fix."""


class ServerLock:
    """Held from ``acquire`` until ``release`` or the end of the process."""

    def __init__(self, url: str, *, shared: bool = False) -> None:
        self.url = url
        self.shared = shared
        self._file: Any = None
        self._engine: Engine | None = None
        self._connection: Any = None

    def acquire(self) -> ServerLock:
        parsed = make_url(self.url)
        if parsed.get_backend_name() == "sqlite":
            if self.shared:
                raise ServerLockRefused(
                    "a cluster (--redis-url) needs a PostgreSQL --database-url that every node "
                    "shares; SQLite serves one process only"
                )
            self._lock_file(Path(parsed.database or ""))
        else:
            self._lock_advisory()
        return self

    def _lock_file(self, database: Path) -> None:
        path = database.with_name(database.name + LOCK_SUFFIX)
        handle = open(path, "a+")  # noqa: SIM115 - held open for the process's life
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise ServerLockRefused(
                f"another Ahiko server (pid {holder}) already serves the SQLite database "
                f"{database}: {CLUSTER_FIX}"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def _lock_advisory(self) -> None:
        from ahiko.store.engine import make_engine

        self._engine = make_engine(self.url)
        connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        function = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        got = connection.execute(text(f"SELECT {function}(:key)"), {"key": ADVISORY_KEY}).scalar()
        if not got:
            connection.close()
            self._engine.dispose()
            self._engine = None
            if self.shared:
                raise ServerLockRefused(
                    "a lone Ahiko server (without --redis-url) already serves this PostgreSQL "
                    f"database ({_safe(self.url)}): stop it, then start the cluster's nodes"
                )
            raise ServerLockRefused(
                f"another Ahiko server already serves this PostgreSQL database "
                f"({_safe(self.url)}): {CLUSTER_FIX}"
            )
        self._connection = connection

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    return make_url(url).render_as_string(hide_password=True)
