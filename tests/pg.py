"""A pytest plugin with a throwaway PostgreSQL cluster and a database fixture over both
backends.

Each pytest process (each xdist worker) runs its own cluster: ``initdb`` into a temporary
folder owned by ``postgres`` (we run as root), a free port, ``fsync=off``; started at the first
use, stopped at the end of the session. The schema is migrated once into a template database
(and a template SQLite file), and every test gets a fresh copy of it.

Never skipped: if PostgreSQL cannot start, the tests that need it fail with the reason.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from ahiko.store.engine import make_engine
from ahiko.store.migrate import upgrade

PG_USER = "postgres"
TEMPLATE_DB = "ahiko_template"
_database_numbers = itertools.count(1)


def _pg_bin(name: str) -> str:
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    found = candidates[-1] if candidates else shutil.which(name)
    if not found:
        raise RuntimeError(f"PostgreSQL binary {name!r} not found under /usr/lib/postgresql")
    return found


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", PG_USER, "--", *args]
    return args


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresCluster:
    START_ATTEMPTS = 3  # another process may take the free port before the server binds it

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="ahiko-pg-"))
        self.data = self.root / "data"
        if os.geteuid() == 0:
            entry = pwd.getpwnam(PG_USER)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run(
            [_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", PG_USER, "-E", "UTF8"]
        )
        for attempt in range(1, self.START_ATTEMPTS + 1):
            self.port = _free_port()
            try:
                self._start()
                break
            except RuntimeError:
                if attempt == self.START_ATTEMPTS:
                    shutil.rmtree(self.root, ignore_errors=True)
                    raise
        atexit.register(self.stop)  # also when the session ends abnormally

    def _start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            [_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l",
             str(self.root / "log"), "-w", "-t", "60", "start"]
        )  # fmt: skip

    def _run(self, args: list[str]) -> None:
        done = subprocess.run(_as_postgres(args), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{PG_USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        admin = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            suffix = f" TEMPLATE {template}" if template else ""
            conn.execute(text(f'CREATE DATABASE "{name}"{suffix}'))
        admin.dispose()
        return self.url(name)

    def drop_database(self, name: str) -> None:
        admin = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    def stop(self) -> None:
        if not self.data.exists():
            return
        self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres_cluster: PostgresCluster) -> str:
    """A migrated database to copy: CREATE DATABASE … TEMPLATE is much faster than migrating."""
    url = postgres_cluster.create_database(TEMPLATE_DB)
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    return TEMPLATE_DB


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlite-template") / "template.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()  # the last connection to close checkpoints and removes the WAL file
    return path


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster, postgres_template: str) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database for one test, dropped after it (a few MB each)."""
    name = f"test_{os.getpid()}_{next(_database_numbers)}"
    yield postgres_cluster.create_database(name, template=postgres_template)
    postgres_cluster.drop_database(name)


@pytest.fixture
def sqlite_url(sqlite_template: Path, tmp_path: Path) -> str:
    """A fresh, migrated SQLite file for one test."""
    path = tmp_path / "ahiko.sqlite3"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture(
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def database_url(request: pytest.FixtureRequest) -> str:
    """A fresh, migrated database, once on SQLite and once on PostgreSQL."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(fixture))
