"""`ahiko serve` and `ahiko admin …` (migrate, check-ledger, backup/restore, reserve
add/statement, grant, chat mute/unmute/reports/purge, rebuild-stats, operator add,
abuse-report)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ahiko.server.operator_cli import register_operator_commands

if TYPE_CHECKING:  # SQLAlchemy and Alembic load only for the commands that use them
    from ahiko.server.settings import Settings


def make_engine(url: str) -> Any:
    """``ahiko.store.engine.make_engine``, imported when a command needs the database."""
    from ahiko.store.engine import make_engine as make

    return make(url)


def register(subparsers: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", help="data folder (env AHIKO_DATA_DIR, default ./data)")
    common.add_argument(
        "--database-url", help="SQLAlchemy URL (env AHIKO_DATABASE_URL; default SQLite in data dir)"
    )

    serve = subparsers.add_parser("serve", parents=[common], help="run the Ahiko server")
    serve.add_argument("--host", help="address to listen on (env AHIKO_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (env AHIKO_PORT, default 8000)")
    serve.add_argument(
        "--redis-url",
        help="Redis shared by the nodes of a cluster, e.g. redis://127.0.0.1:6379/0 "
        "(env AHIKO_REDIS_URL; default none: one process on its own)",
    )
    serve.add_argument(
        "--node-route",
        help="with --redis-url: the path at which the balancer reaches this node alone, e.g. "
        "/n/a; players of this node's tables are sent there (env AHIKO_NODE_ROUTE; "
        "default none: they play through the node they reached)",
    )
    serve.set_defaults(func=_serve)

    admin = subparsers.add_parser("admin", help="administration: database and ledger")
    commands = admin.add_subparsers(dest="admin_command", metavar="ACTION", required=True)
    migrate = commands.add_parser("migrate", parents=[common], help="upgrade the database")
    migrate.set_defaults(func=_migrate)
    check = commands.add_parser(
        "check-ledger", parents=[common], help="verify every ledger invariant (exit 1 if broken)"
    )
    check.set_defaults(func=_check_ledger)
    rebuild = commands.add_parser(
        "rebuild-stats",
        parents=[common],
        help="recompute every player's stored figures from the hand archive",
    )
    rebuild.set_defaults(func=_rebuild_stats)
    backup = commands.add_parser(
        "backup", parents=[common], help="copy the database and both keys into a new folder"
    )
    backup.add_argument("folder", help="a new (or empty) folder for the backup")
    backup.set_defaults(func=_backup)
    restore = commands.add_parser(
        "restore", parents=[common], help="put a backup back into an empty data folder"
    )
    restore.add_argument("folder", help="a folder written by 'ahiko admin backup'")
    restore.set_defaults(func=_restore)
    reserve = commands.add_parser("reserve", help="the Bot Ahiko reserve")
    reserve_commands = reserve.add_subparsers(
        dest="reserve_command", metavar="ACTION", required=True
    )
    add = reserve_commands.add_parser(
        "add", parents=[common], help="add coins to the reserve from the mint (R-BA-02)"
    )
    add.add_argument("amount", type=int)
    add.add_argument("--reason", required=True)
    add.set_defaults(func=_reserve_add)
    statement = reserve_commands.add_parser(
        "statement", parents=[common], help="every movement of the reserve (R-BA-02)"
    )
    statement.set_defaults(func=_reserve_statement)
    grant = commands.add_parser("grant", parents=[common], help="give coins to a user's wallet")
    grant.add_argument("username")
    grant.add_argument("amount", type=int)
    grant.add_argument("--reason", required=True)
    grant.set_defaults(func=_grant)
    chat = commands.add_parser("chat", help="table chat moderation")
    chat_commands = chat.add_subparsers(dest="chat_command", metavar="ACTION", required=True)
    mute = chat_commands.add_parser(
        "mute", parents=[common], help="mute a user's chat in every room (site-wide)"
    )
    mute.add_argument("username")
    mute.add_argument("--minutes", type=float, help="for this long (default: until unmuted)")
    mute.add_argument("--reason", default="operator")
    mute.set_defaults(func=_chat_mute)
    unmute = chat_commands.add_parser("unmute", parents=[common], help="lift a site-wide mute")
    unmute.add_argument("username")
    unmute.set_defaults(func=_chat_unmute)
    reports = chat_commands.add_parser("reports", parents=[common], help="the latest reports")
    reports.add_argument("--limit", type=int, default=50)
    reports.set_defaults(func=_chat_reports)
    purge = chat_commands.add_parser(
        "purge", parents=[common], help="delete chat messages past their retention"
    )
    purge.set_defaults(func=_chat_purge)
    register_operator_commands(commands, common)


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings of an ``ahiko admin`` command's options and environment."""
    return _settings(args)


def _settings(args: argparse.Namespace) -> Settings:
    from ahiko.server.settings import Settings

    return Settings.from_env(
        data_dir=args.data_dir,
        database_url=args.database_url,
        host=getattr(args, "host", None),
        port=getattr(args, "port", None),
        redis_url=getattr(args, "redis_url", None),
        node_route=getattr(args, "node_route", None),
    )


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ahiko.server.app import create_app
    from ahiko.server.cluster.node import route_refusal
    from ahiko.server.drain import DrainingServer, drain_seconds
    from ahiko.server.heartbeat import protocol_ping_seconds
    from ahiko.server.logging_setup import (
        configure_logging,
        log_format,
        log_level,
        node_label,
        startup_line,
    )
    from ahiko.server.ws_protocol import AhikoWebSocketProtocol

    settings = _settings(args)
    try:
        chosen, level = log_format(), log_level()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    node = node_label(settings.port)

    def say(level: str, message: str) -> None:  # before the log is set up, in its format
        print(startup_line(chosen, node, level, message), file=sys.stderr)

    refusal = (
        check_interpreter(warn=lambda problem: say("warning", problem))
        or route_refusal(settings.node_route, settings.redis_url)
        or _gc_refusal()
        or _schema_refusal(settings)
    )
    if refusal is not None:
        say("error", refusal)
        return 2
    lock, refusal = _server_lock(settings)
    if lock is None:
        say("error", refusal or "")
        return 2
    try:
        configure_logging(chosen, node, level)
        app = create_app(settings)
        tune_gc()
        config = uvicorn.Config(
            app,
            host=settings.host,
            port=settings.port,
            proxy_headers=False,  # the app believes only AHIKO_TRUSTED_PROXIES (security.py)
            ws=AhikoWebSocketProtocol,  # websockets-sansio, plus the gateway's direct write
            ws_max_size=WS_MAX_BYTES,
            # Frames are a few KiB: compressing each for each connection cost a quarter of the
            # server's CPU at 1,000 players and ≈ 50 MiB of per-connection zlib state.
            ws_per_message_deflate=False,
            # A client that stopped answering protocol pings is let go (server/heartbeat.py).
            ws_ping_interval=protocol_ping_seconds(),
            ws_ping_timeout=protocol_ping_seconds(),
            log_config=None,  # the root logger's format (ahiko.server.logging_setup)
            access_log=False,  # written by LogScopeMiddleware, with the request's id
        )
        # SIGTERM drains (the hands in progress end, a node's rooms are handed over) first.
        DrainingServer(config, app, drain_seconds()).run()
    finally:
        lock.release()
    return 0


def _server_lock(settings: Settings) -> tuple[Any, str | None]:
    """The database's server lock: exclusive for a lone server, shared by the nodes
    of a cluster. ``(None, why)`` when another server holds it."""
    from ahiko.store.server_lock import ServerLock, ServerLockRefused

    lock = ServerLock(settings.resolved_database_url, shared=settings.redis_url is not None)
    try:
        return lock.acquire(), None
    except ServerLockRefused as refused:
        return None, str(refused)


def _schema_refusal(settings: Settings) -> str | None:
    """A database that is not at the newest revision: one line naming `ahiko admin
    migrate`, never a traceback from the first request."""
    from ahiko.store.migrate import schema_problem
    from ahiko.store.private_files import private_folder

    if settings.database_url is None:
        private_folder(settings.data_dir)  # the SQLite file's folder, as create_app makes it
    from ahiko.server.backup import refusal_without_key

    engine = make_engine(settings.resolved_database_url)
    try:
        return schema_problem(engine) or refusal_without_key(engine, Path(settings.data_dir))
    finally:
        engine.dispose()


# On an interpreter with the quadratic cookie parser, headers above this would stall the
# event loop for a noticeable time (≈ 0.1 s at 16 KiB, seconds at 48 KiB).
UNSAFE_INTERPRETER_HEADER_CAP = 16_384


def check_interpreter(
    env: dict[str, str] | None = None, warn: Callable[[str], None] | None = None
) -> str | None:
    """Start-up check of the interpreter: a warning on stderr when it is older than the
    minimum safe release, and a refusal (returned) when the header limit was also raised
    above what keeps such an interpreter safe."""
    from ahiko.server.interpreter import interpreter_problem
    from ahiko.server.security import SecurityPolicy

    problem = interpreter_problem()
    if problem is None:
        return None
    limit = SecurityPolicy.from_env(env).max_header_bytes
    if limit > UNSAFE_INTERPRETER_HEADER_CAP:
        return (
            f"{problem} AHIKO_MAX_HEADER_BYTES is {limit}: at most {UNSAFE_INTERPRETER_HEADER_CAP}."
        )
    if warn is None:
        print(f"warning: {problem}", file=sys.stderr)
    else:
        warn(problem)
    return None


# Client frames are at most 4 KiB (gateway.MAX_FRAME_BYTES); refuse anything far bigger
# before it is even buffered.
WS_MAX_BYTES = 65536


GC_THRESHOLDS = (50_000, 5, 2000)


def tune_gc(env: Mapping[str, str] = os.environ) -> None:
    """Move everything alive after start-up out of the collector's sight (at 1,000
    players p99 99 ms before, 41 ms after) and set the thresholds the clock of
    ``ahiko.server.collector`` works with: its passes over the young generation (every
    0.25 s) do the young work, every 5th of them is a pass over the middle generation (what
    lived 0.25-1.25 s: tens of ms at 8,000 players, where 50 made it 330 ms), and a full pass
    may come only after 2,000 of those (about 40 minutes: at 8,000 players it walks the
    whole heap). ``AHIKO_GC_THRESHOLDS=a,b,c`` sets other thresholds (``gc.set_threshold``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*gc_thresholds(env))


def gc_thresholds(env: Mapping[str, str] = os.environ) -> tuple[int, ...]:
    """``AHIKO_GC_THRESHOLDS`` (one to three whole numbers, comma separated), else the
    default; ValueError naming the setting when it is not that."""
    given = env.get("AHIKO_GC_THRESHOLDS", "").strip()
    if not given:
        return GC_THRESHOLDS
    parts = [part.strip() for part in given.split(",")]
    if not 1 <= len(parts) <= 3 or not all(part.isdigit() for part in parts):
        raise ValueError(
            f"AHIKO_GC_THRESHOLDS is {given!r}: give one to three whole numbers, e.g. "
            f"{','.join(map(str, GC_THRESHOLDS))}"
        )
    return tuple(int(part) for part in parts)


def _gc_refusal() -> str | None:
    from ahiko.server.collector import young_interval

    try:
        gc_thresholds()
        young_interval()
    except ValueError as error:
        return str(error)
    return None


def _migrate(args: argparse.Namespace) -> int:
    from ahiko.store.engine import make_engine
    from ahiko.store.migrate import upgrade

    settings = _settings(args)
    engine = make_engine(settings.resolved_database_url)
    revision = upgrade(engine, settings.bot_reserve)
    engine.dispose()
    print(f"database at revision {revision}")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from ahiko.server.backup import BackupError, backup

    settings = _settings(args)
    try:
        written = backup(settings.resolved_database_url, Path(settings.data_dir), Path(args.folder))
    except BackupError as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    print(f"backup in {args.folder}: {', '.join(written)}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from ahiko.server.backup import BackupError, restore

    settings = _settings(args)
    try:
        restored = restore(
            settings.resolved_database_url, Path(settings.data_dir), Path(args.folder)
        )
    except BackupError as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    print(f"restored from {args.folder}: {', '.join(restored)}; now run: ahiko admin check-ledger")
    return 0


def _check_ledger(args: argparse.Namespace) -> int:
    from ahiko.store.engine import make_engine
    from ahiko.wallet.check import check_ledger

    engine = make_engine(_settings(args).resolved_database_url)
    violations = check_ledger(engine)
    engine.dispose()
    if not violations:
        print("ledger OK: every invariant holds")
        return 0
    print(f"ledger BROKEN: {len(violations)} violation(s)", file=sys.stderr)
    for violation in violations:
        print(f"- {violation}", file=sys.stderr)
    return 1


def _rebuild_stats(args: argparse.Namespace) -> int:
    from ahiko.competition.player_figures import rebuild_player_figures
    from ahiko.fairness.keys import load_or_create_archive_key
    from ahiko.store.engine import make_engine
    from ahiko.store.hand_archive import install_sealer

    settings = _settings(args)
    engine = make_engine(settings.resolved_database_url)
    install_sealer(engine, load_or_create_archive_key(settings.data_dir))  # to open the hands
    players = rebuild_player_figures(engine)
    engine.dispose()
    print(f"player figures rebuilt from the archive: {players} player(s)")
    return 0


def _reserve_add(args: argparse.Namespace) -> int:
    from ahiko.store.engine import make_engine
    from ahiko.wallet import Wallet, WalletError

    engine = make_engine(_settings(args).resolved_database_url)
    wallet = Wallet(engine)
    try:
        wallet.reserve_add(args.amount, args.reason, f"reserve_add:{uuid.uuid4().hex}")
        print(f"reserve now holds {wallet.reserve_balance()} coins")
        return 0
    except WalletError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()


def _reserve_statement(args: argparse.Namespace) -> int:
    from ahiko.store.engine import make_engine
    from ahiko.wallet.stays import reserve_statement

    engine = make_engine(_settings(args).resolved_database_url)
    try:
        balance, lines = reserve_statement(engine)
    finally:
        engine.dispose()
    print(f"{'tx':>6}  {'when (UTC)':19}  {'kind':12}  {'amount':>9}  participation / reason")
    for line in lines:
        detail = line.reason or (f"#{line.participation_id}" if line.participation_id else "")
        when = f"{line.created_at:%Y-%m-%d %H:%M:%S}"
        print(f"{line.transaction_id:>6}  {when:19}  {line.kind:12}  {line.amount:>+9}  {detail}")
    print(f"reserve balance: {balance} coins")
    return 0


def _grant(args: argparse.Namespace) -> int:
    from ahiko.store.accounts import find_user_by_name
    from ahiko.store.engine import make_engine
    from ahiko.wallet import Wallet, WalletError

    engine = make_engine(_settings(args).resolved_database_url)
    try:
        user = find_user_by_name(engine, args.username)
        if user is None:
            print(f"error: no user {args.username!r}", file=sys.stderr)
            return 1
        wallet = Wallet(engine)
        wallet.grant(user.id, args.amount, args.reason, f"grant:{uuid.uuid4().hex}")
        print(f"{user.username} now holds {wallet.holdings(user.id).wallet} coins")
        return 0
    except WalletError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()


def _chat_user(engine: Any, username: str) -> Any:
    from ahiko.store.accounts import find_user_by_name

    user = find_user_by_name(engine, username)
    if user is None:
        print(f"error: no user {username!r}", file=sys.stderr)
    return user


def _storage_busy(what: str, error: Exception) -> int:
    """A chat command's write refused by the database (another process holding its write
    lock past the busy timeout, say): nothing changed."""
    print(
        f"error: the {what} could not be written, nothing changed "
        f"(the database is busy: {getattr(error, 'orig', error)}); try again in a moment",
        file=sys.stderr,
    )
    return 1


def _chat_mute(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy.exc import OperationalError

    from ahiko.store.chat import set_site_mute

    engine = make_engine(_settings(args).resolved_database_url)
    try:
        user = _chat_user(engine, args.username)
        if user is None:
            return 1
        if args.minutes is not None and args.minutes <= 0:
            print("error: --minutes must be positive", file=sys.stderr)
            return 1
        now = datetime.now(UTC)
        until = None if args.minutes is None else now + timedelta(minutes=args.minutes)
        try:
            set_site_mute(engine, str(user.id), until, args.reason, now)
        except OperationalError as error:
            return _storage_busy("mute", error)
        when = "until unmuted" if until is None else f"until {until:%Y-%m-%d %H:%M} UTC"
        print(f"{user.username} muted in every room {when}")
        return 0
    finally:
        engine.dispose()


def _chat_unmute(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import OperationalError

    from ahiko.store.chat import clear_site_mute

    engine = make_engine(_settings(args).resolved_database_url)
    try:
        user = _chat_user(engine, args.username)
        if user is None:
            return 1
        try:
            lifted = clear_site_mute(engine, str(user.id))
        except OperationalError as error:
            return _storage_busy("unmute", error)
        print(f"{user.username} may chat again" if lifted else f"{user.username} was not muted")
        return 0
    finally:
        engine.dispose()


def _chat_reports(args: argparse.Namespace) -> int:
    from ahiko.store.chat import reports

    engine = make_engine(_settings(args).resolved_database_url)
    try:
        for r in reports(engine, args.limit):
            print(
                f"{r.at:%Y-%m-%d %H:%M:%S}  room {r.room_id} #{r.msg_no}  "
                f"{r.author_name} (user {r.author_id}) reported by user {r.reporter_id}: "
                f"{r.text!r}" + (f"  reason: {r.reason}" if r.reason else "")
            )
        return 0
    finally:
        engine.dispose()


def _chat_purge(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from ahiko.store.chat import CHAT_RETENTION_DAYS, purge_messages

    engine = make_engine(_settings(args).resolved_database_url)
    try:
        gone = purge_messages(engine, datetime.now(UTC))
        print(f"{gone} chat message(s) older than {CHAT_RETENTION_DAYS} days deleted")
        return 0
    finally:
        engine.dispose()
