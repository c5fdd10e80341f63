"""The machine-speed signal (issue 45): the gateway times each accepted action from the frame
that showed the turn to the action's frame; scripted clients that answer at once are listed,
an account acting at a person's pace is not."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path

from sqlalchemy import select
from test_hands_api import Player, Server, _fast_app

from ahiko.cli import main
from ahiko.history.abuse_signals import MIN_TIMED_ACTIONS, signals
from ahiko.server.reactions import FLUSH_EVERY, ReactionBook
from ahiko.store.schema import reaction_times
from ahiko.store.writer import InlineWriter
from ahiko.wallet.ledger import utc_now
from live_server import serving

HANDS = 20


async def _two_scripts(server: Server) -> None:
    host, guest = server.sign_up("script_a"), server.sign_up("script_b")
    with server.http(host.cookie) as http:
        created = http.post("/api/rooms", json={"name": "Robôs", "seats": 2, "limit_hands": HANDS})
    room_id = created.json()["id"]
    players = [Player(server, account, room_id, "caller") for account in (host, guest)]
    for seat, player in enumerate(players):
        await player.open()
        await player.send("sit", seat=seat)
        await player.until_ack()
    await players[0].send("start")
    try:
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)
    finally:
        await asyncio.gather(*(p.ws.close() for p in players))


def test_scripted_clients_acting_at_once_are_listed_at_machine_speed(tmp_path: Path) -> None:
    app = _fast_app(tmp_path)
    with serving(app) as port:
        server = Server(f"http://127.0.0.1:{port}", app)
        asyncio.run(_two_scripts(server))
    engine = server.services.engine
    with engine.connect() as conn:
        rows = {r.user_id: r for r in conn.execute(select(reaction_times))}
    assert set(rows) == {1, 2}
    for row in rows.values():
        assert row.actions % FLUSH_EVERY == 0 and row.actions >= MIN_TIMED_ACTIONS
        assert row.fast / row.actions > 0.9  # a script answers within milliseconds
    fast = [s for s in signals(engine) if s.kind == "machine_speed"]
    assert sorted(s.accounts for s in fast) == [("script_a",), ("script_b",)]
    assert "within 250 ms" in fast[0].measured
    # The command line reads the same sealed archive with the server's key.
    where = ["--database-url", f"sqlite:///{tmp_path / 'hands.sqlite3'}", "--data-dir"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["admin", "abuse-report", *where, str(tmp_path / "data"), "--json"]) == 0
    listed = json.loads(printed.getvalue())
    assert {tuple(s["accounts"]) for s in listed if s["kind"] == "machine_speed"} == {
        ("script_a",),
        ("script_b",),
    }


def test_an_account_at_a_persons_pace_is_not_listed(tmp_path: Path) -> None:
    app = _fast_app(tmp_path)
    engine = app.state.services.engine
    from archive_factory import add_person

    person, bot_like = add_person(engine, "pessoa"), add_person(engine, "robo")
    book = ReactionBook(engine, utc_now, InlineWriter())
    for n in range(MIN_TIMED_ACTIONS * 2):
        book.record(str(person), 0.4 + (n % 7) / 10)  # 0.4 to 1 s, and a few quick calls
        book.record(str(person), 0.1) if n % 10 == 0 else None
        book.record(str(bot_like), 0.02)
    listed = [s.accounts for s in signals(engine) if s.kind == "machine_speed"]
    assert listed == [("robo",)]
