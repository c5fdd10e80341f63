"""The operator's side of table chat: ``ahiko admin chat mute/unmute/reports/purge`` on the
database, read by every room through ``StoredModeration`` (issue 19)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rooms_helpers import holdem_config

from ahiko.cli import main
from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.moderation import SITE_MUTES_TTL_S, StoredModeration
from ahiko.rooms.registry import RoomRegistry
from ahiko.store.accounts import insert_user
from ahiko.store.chat import StoredMessage, insert_message, messages_of, purge_messages
from ahiko.store.engine import make_engine


def test_chat_operator_mute_from_the_command_line_reaches_every_room(sqlite_url, capsys):
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        bia = str(insert_user(conn, "bia", "x", datetime.now(UTC)))
        ana = str(insert_user(conn, "ana", "x", datetime.now(UTC)))
    clock = ManualClock()
    registry = RoomRegistry(
        clock=clock, room_options={"think": None, "moderation": StoredModeration(engine)}
    )
    rooms = [registry.create(holdem_config(), host_id=ana).room for _ in range(2)]
    for room in rooms:
        for seat, pid in enumerate((ana, bia)):
            room.submit(c.Connect(f"conn-{pid}", pid))
            assert room.submit(c.Sit(pid, "x", seat)).ok
    assert rooms[0].submit(c.Chat(bia, "Bia", "oi")).ok
    assert main(["admin", "chat", "mute", "bia", "--database-url", sqlite_url]) == 0
    assert "bia muted in every room until unmuted" in capsys.readouterr().out
    clock.advance(SITE_MUTES_TTL_S)  # the rooms read the mutes again
    for room in rooms:
        assert room.submit(c.Chat(bia, "Bia", "oi de novo")).code == "chat_muted"
        assert room.submit(c.Chat(ana, "Ana", "oi")).ok
    no = rooms[1].submit(c.Chat(ana, "Ana", "sua porra")).data["no"]
    assert rooms[1].submit(c.ChatReport(bia, no, "xingou")).data["filed"] is True
    assert main(["admin", "chat", "reports", "--database-url", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "reported by user" in out and "'sua *****'" in out and "xingou" in out
    assert main(["admin", "chat", "unmute", "bia", "--database-url", sqlite_url]) == 0
    clock.advance(SITE_MUTES_TTL_S)
    assert rooms[0].submit(c.Chat(bia, "Bia", "voltei")).ok
    assert (
        main(["admin", "chat", "mute", "bia", "--minutes", "0", "--database-url", sqlite_url]) == 1
    )
    assert main(["admin", "chat", "mute", "nobody", "--database-url", sqlite_url]) == 1
    engine.dispose()


def test_chat_messages_are_kept_a_bounded_time(sqlite_url, capsys):
    engine = make_engine(sqlite_url)
    now = datetime.now(UTC)
    for days, no in ((40, 1), (1, 2)):
        insert_message(
            engine,
            StoredMessage("r-1", no, "7", "Ana", "text", f"m{no}", now - timedelta(days=days)),
        )
    assert purge_messages(engine, now) == 1
    kept = messages_of(engine, "r-1", "7", now - timedelta(days=50), now)
    assert [m.text for m in kept] == ["m2"]
    assert main(["admin", "chat", "purge", "--database-url", sqlite_url]) == 0
    assert "0 chat message(s) older than 30 days deleted" in capsys.readouterr().out
    engine.dispose()
