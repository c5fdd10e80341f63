"""`ahiko admin …` and `ahiko serve`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime

from sqlalchemy import update

from ahiko.cli import main
from ahiko.store.accounts import insert_user
from ahiko.store.engine import make_engine
from ahiko.store.migrate import head_revision
from ahiko.store.schema import ledger_accounts
from ahiko.wallet import Wallet
from ahiko.wallet.operations import open_wallet


def test_admin_migrate_then_check_ledger_on_a_new_data_dir(tmp_path, capsys):
    assert main(["admin", "migrate", "--data-dir", str(tmp_path)]) == 0
    assert (tmp_path / "ahiko.sqlite3").is_file()
    assert main(["admin", "check-ledger", "--data-dir", str(tmp_path)]) == 0
    assert "ledger OK" in capsys.readouterr().out


def test_check_ledger_exits_1_with_a_readable_list(database_url, capsys):
    engine = make_engine(database_url)
    with engine.begin() as conn:
        conn.execute(
            update(ledger_accounts).where(ledger_accounts.c.name == "bot_reserve").values(balance=1)
        )
    engine.dispose()
    assert main(["admin", "check-ledger", "--database-url", database_url]) == 1
    err = capsys.readouterr().err
    assert "ledger BROKEN: 2 violation(s)" in err
    assert "- account 2 (reserve) balance 1 != sum of its entries 100000" in err


def test_R_BA_02_admin_reserve_add_is_recorded(database_url, capsys):
    args = [
        "admin",
        "reserve",
        "add",
        "2500",
        "--reason",
        "weekend",
        "--database-url",
        database_url,
    ]
    assert main(args) == 0
    assert "reserve now holds 102500 coins" in capsys.readouterr().out
    bad = ["admin", "reserve", "add", "0", "--reason", "x", "--database-url", database_url]
    assert main(bad) == 1
    assert "must be positive" in capsys.readouterr().err
    assert main(["admin", "check-ledger", "--database-url", database_url]) == 0


def test_R_BA_02_admin_reserve_statement_lists_every_movement(database_url, capsys):
    main(["admin", "reserve", "add", "700", "--reason", "top-up", "--database-url", database_url])
    capsys.readouterr()
    assert main(["admin", "reserve", "statement", "--database-url", database_url]) == 0
    out = capsys.readouterr().out
    assert "+100000" in out and "initial Bot Ahiko reserve" in out
    assert "+700" in out and "top-up" in out
    assert "reserve balance: 100700 coins" in out


def test_admin_grant(database_url, capsys):
    engine = make_engine(database_url)
    with engine.begin() as conn:
        user_id = insert_user(conn, "ana", "h", datetime.now(UTC))
        open_wallet(conn, user_id, datetime.now(UTC))
    args = [
        "admin",
        "grant",
        "ANA",
        "300",
        "--reason",
        "bug report",
        "--database-url",
        database_url,
    ]
    assert main(args) == 0
    assert Wallet(engine).holdings(user_id).wallet == 5_300
    assert (
        main(["admin", "grant", "nobody", "1", "--reason", "x", "--database-url", database_url])
        == 1
    )
    engine.dispose()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_answers_health_after_migrate(tmp_path):
    """What `make run` does: migrate, then serve."""
    ahiko = [sys.executable, "-m", "ahiko.cli"]
    env = {**os.environ, "AHIKO_DATA_DIR": str(tmp_path)}
    env.pop("AHIKO_DATABASE_URL", None)
    assert main(["admin", "migrate", "--data-dir", str(tmp_path)]) == 0
    port = _free_port()
    server = subprocess.Popen(
        [*ahiko, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health") as response:
                    assert response.status == 200
                    break
            except OSError:
                assert server.poll() is None, "the server exited"
                assert time.monotonic() < deadline, "no answer within 60 s"
                time.sleep(0.1)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)


def test_serve_on_a_never_migrated_database_refuses_in_one_line_naming_admin_migrate(tmp_path):
    """Starting the server on a database that was never migrated: one line that names
    `ahiko admin migrate`, exit status 2, no traceback; after the migration it serves."""
    env = {**os.environ, "AHIKO_DATA_DIR": str(tmp_path / "fresh")}
    env.pop("AHIKO_DATABASE_URL", None)
    ran = subprocess.run(
        [sys.executable, "-m", "ahiko.cli", "serve", "--port", str(_free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 2, ran
    lines = [line for line in ran.stderr.splitlines() if not line.startswith("warning:")]
    assert lines == [
        "error: the database was never migrated, this version needs "
        f"{head_revision()}: run `ahiko admin migrate` first"
    ]
    assert "Traceback" not in ran.stderr and ran.stdout == ""


def test_serve_refuses_a_database_it_cannot_open_in_one_line(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}"  # a folder, not a database file
    assert main(["serve", "--database-url", url]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert len(err) == 1 and "cannot open the database" in err[0]
