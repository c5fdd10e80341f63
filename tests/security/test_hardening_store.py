"""Issue 17, at rest and in the ledger: data-folder modes, NUL and reused idempotency keys,
concurrent same-key requests on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from security_app import FAST_HASHER, PASSWORD
from sqlalchemy import func, select

from ahiko.fairness.keys import load_or_create_signing_key
from ahiko.server.app import create_app
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.store.accounts import insert_user
from ahiko.store.engine import make_engine
from ahiko.store.migrate import upgrade
from ahiko.store.rooms import save_room
from ahiko.store.schema import ledger_transactions
from ahiko.wallet import Wallet
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import open_wallet
from wall_clock import ManualClock


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_data_folder_is_0700_and_its_files_0600(tmp_path: Path) -> None:
    os.umask(0o022)  # the usual umask: files would be 0644 without care
    data = tmp_path / "data"
    engine = make_engine(f"sqlite:///{data / 'ahiko.sqlite3'}")
    upgrade(engine)
    engine.dispose()
    app = create_app(Settings(data_dir=data), password_hasher=FAST_HASHER)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
        assert client.get("/api/fairness/public-key").status_code == 200
        files = sorted(p.name for p in data.iterdir())
        assert "ahiko.sqlite3" in files and "fairness_ed25519.key" in files
        assert any(name.endswith("-wal") for name in files)  # WAL is in use
        assert _mode(data) == 0o700
        for path in data.iterdir():
            assert _mode(path) == 0o600, path.name
    app.state.services.engine.dispose()


def test_an_existing_world_readable_data_folder_is_narrowed_at_start(tmp_path: Path) -> None:
    data = tmp_path / "old"
    data.mkdir(mode=0o755)
    engine = make_engine(f"sqlite:///{data / 'ahiko.sqlite3'}")
    upgrade(engine)
    engine.dispose()
    load_or_create_signing_key(data)
    for path in data.iterdir():
        os.chmod(path, 0o644)
    os.chmod(data, 0o755)
    app = create_app(Settings(data_dir=data), password_hasher=FAST_HASHER)
    assert _mode(data) == 0o700
    assert {_mode(path) for path in data.iterdir()} == {0o600}
    app.state.services.engine.dispose()


def _app(database_url: str, tmp_path: Path) -> FastAPI:
    settings = Settings(data_dir=tmp_path / "data", database_url=database_url)
    return create_app(settings, password_hasher=FAST_HASHER)


def _signed_in_buy_in_url(client: TestClient) -> str:
    """Signs up ana; the buy-in route of a Clássica room."""
    client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
    room = next(r for r in client.get("/api/ahiko/rooms").json() if r["tier"] == "classica")
    return f"/api/ahiko/rooms/{room['id']}/buy_in"


def test_a_nul_in_an_idempotency_key_is_a_400(database_url: str, tmp_path: Path) -> None:
    app = _app(database_url, tmp_path)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        url = _signed_in_buy_in_url(client)
        for key in ("nul\x00key", "tab\tkey"):
            response = client.post(url, json={"seat": 2, "amount": 600, "key": key})
            assert response.status_code == 400, response.text
            assert "control characters" in response.json()["message"]
        assert client.get("/api/wallet").json()["balance"] == 5_000
        assert client.post(url, json={"seat": 2, "amount": 600, "key": "ok"}).status_code == 200
    assert check_ledger(app.state.services.engine) == []
    app.state.services.engine.dispose()


def test_49_concurrent_claims_with_one_key_all_get_the_one_answer(database_url: str) -> None:
    engine = make_engine(database_url)
    clock = ManualClock()
    wallet = Wallet(engine, clock)
    with engine.begin() as conn:
        ana = insert_user(conn, "ana", "not-a-hash", clock())
        open_wallet(conn, ana, clock())
        bia = insert_user(conn, "bia", "not-a-hash", clock())
        open_wallet(conn, bia, clock())
    save_room(engine, "r1", "ahiko", {"tier": "iniciante"})
    mine = wallet.buy_in(ana, "r1", 0, 5_000, "a").participation_id
    theirs = wallet.buy_in(bia, "r1", 1, 100, "b").participation_id
    assert mine is not None and theirs is not None
    wallet.settle_hand("r1", [(mine, -5_000), (theirs, 5_000)], "h1")
    wallet.cash_out(mine, "out-a", user_id=ana)
    barrier = threading.Barrier(49)

    def claim(_: int) -> tuple[int, bool]:
        barrier.wait()
        receipt = wallet.claim(ana, f"claim:{ana}:tap-1")
        return receipt.transaction_id, receipt.applied

    with ThreadPoolExecutor(49) as pool:
        answers = list(pool.map(claim, range(49)))
    assert len({transaction for transaction, _ in answers}) == 1
    assert sorted(applied for _, applied in answers) == [False] * 48 + [True]
    with engine.connect() as conn:
        claims = select(func.count()).where(ledger_transactions.c.kind == "claim")
        assert conn.execute(claims).scalar_one() == 1
    assert wallet.holdings(ana).wallet == 1_000
    assert check_ledger(engine) == []
    engine.dispose()


@pytest.mark.parametrize("amount", [600, 700])
def test_a_reused_buy_in_key_with_other_content_is_a_409(
    database_url: str, tmp_path: Path, amount: int
) -> None:
    app = _app(database_url, tmp_path)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        url = _signed_in_buy_in_url(client)
        first = client.post(url, json={"seat": 2, "amount": 600, "key": "k1"})
        assert first.status_code == 200 and first.json()["applied"] is True
        again = client.post(url, json={"seat": 2, "amount": amount, "key": "k1"})
        if amount == 600:  # the same request: the first answer, not applied again
            assert again.status_code == 200 and again.json()["applied"] is False
        else:
            assert again.status_code == 409, again.text
            assert again.json()["error"] == "idempotency_conflict"
        assert client.get("/api/wallet").json()["balance"] == 5_000 - 600
    assert check_ledger(app.state.services.engine) == []
    app.state.services.engine.dispose()


def test_hands_archived_before_the_key_are_sealed_at_start_and_still_read(
    sqlite_url: str, tmp_path: Path
) -> None:
    from datetime import UTC, datetime

    from ahiko.fairness.keys import load_or_create_archive_key
    from ahiko.store.hand_archive import (
        ArchivedHand,
        ArchivedPlayer,
        archived_hand_for,
        insert_archived_hand,
        is_sealed,
    )
    from ahiko.store.schema import archived_hands

    engine = make_engine(sqlite_url)  # an old server: no archive key yet
    with engine.begin() as conn:
        ana = insert_user(conn, "ana", "not-a-hash", datetime.now(UTC))
    now = datetime.now(UTC)
    deal = {"deck": list(range(52)), "salts": ["ab" * 32], "draws": [], "dealt": [], "shown": []}
    events = [{"kind": "hole_cards", "seat": 0, "cards": ["Ah", "Kd"]}]
    hand = ArchivedHand(
        room_id="r-old", room_kind="recreational", room_name="Mesa", variant="holdem",
        max_seats=2, hand_no=1, commitment={"v": "pokerfair/1"}, events=events, deal=deal,
        players=(ArchivedPlayer(0, str(ana), ana, "ana", "person", 100, 0),),
        started_at=now, ended_at=now,
    )  # fmt: skip
    hand_id = insert_archived_hand(engine, hand)
    engine.dispose()
    app = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url), password_hasher=FAST_HASHER
    )
    with TestClient(app):  # the start-up seals the old rows
        services = app.state.services
        with services.engine.connect() as conn:
            row = conn.execute(select(archived_hands).where(archived_hands.c.id == hand_id)).one()
        assert is_sealed(row.deal) and is_sealed(row.events)
        assert "ab" * 32 not in str(row.deal) and "Ah" not in str(row.events)
        again = archived_hand_for(services.engine, hand_id, ana)
        assert again is not None and again.deal == deal and list(again.events) == events
    key = load_or_create_archive_key(tmp_path / "data")
    assert len(key) == 32 and _mode(tmp_path / "data" / "archive_aes256gcm.key") == 0o600
    app.state.services.engine.dispose()
