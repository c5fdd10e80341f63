"""The ASGI application factory, and its composition root.

``create_app``'s lifespan is the one place that builds the rooms: interrupted hands are
settled first, then the room registry (archiving every hand, signing with the server's key)
opens, then the Ahiko lobby opens its house rooms in it. Routers build nothing."""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi import APIRouter, FastAPI, Request
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from starlette.types import ASGIApp, Receive, Scope, Send

import ahiko
from ahiko.competition.live_mtt_lobby import MttService
from ahiko.competition.live_sitgo import SitGoRooms
from ahiko.competition.player_figures import keep_player_figures
from ahiko.fairness.keys import load_or_create_archive_key, load_or_create_signing_key
from ahiko.rooms.chat_words import CHAT_WORDS_FILE, LiveWordFilter
from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.clock import Clock as RoomClock
from ahiko.rooms.finished.mixed_record import count_withholds
from ahiko.rooms.house.lobby import AhikoLobby
from ahiko.rooms.moderation import StoredModeration
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.timing import LIVE_TIMING
from ahiko.server import (
    admin_console,
    admin_page,
    api_accounts,
    api_ahiko,
    api_competition,
    api_fairness,
    api_hands,
    api_mtt,
    api_room_ledger,
    api_rooms,
    api_sitgo,
    api_wallet,
    app_shell,
    gateway,
)
from ahiko.server.accounts import Accounts, HashGate, token_hash
from ahiko.server.collector import collect_young, young_interval
from ahiko.server.cookie_guard import SessionCookieOnly
from ahiko.server.errors import (
    AnswerBugsInJson,
    ApiError,
    document_errors,
    error_response,
    error_responses,
    install_error_handlers,
)
from ahiko.server.gateway import refusal_frame
from ahiko.server.house_timing import house_timing
from ahiko.server.instruments import CountingArchive
from ahiko.server.limits import WS_TOO_MANY, SiteLimits, site_limits
from ahiko.server.logging_setup import LogScopeMiddleware
from ahiko.server.login_throttle import too_many_attempts
from ahiko.server.metrics import install_metrics
from ahiko.server.online import OnlineCount, SharedOnlineCount, keep_sockets_seen, online_of
from ahiko.server.pauses import PauseMonitor
from ahiko.server.security import (
    answers_before_routes,
    api_docs_enabled,
    client_address,
    install_security,
)
from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE, Services, services
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine, reading
from ahiko.store.hand_archive import install_archive_hook, install_sealer, seal_existing
from ahiko.store.private_files import private_folder
from ahiko.store.rooms import recover_interrupted_hands
from ahiko.store.writer import drain_all, writer_for
from ahiko.wallet.ledger import Clock, utc_now
from ahiko.wallet.operations import Wallet

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_HEADER_BYTES = CSRF_HEADER.lower().encode("latin-1")  # ASGI header names are lower case
SESSION_COOKIE_PREFIX = SESSION_COOKIE.encode("latin-1") + b"="
ROOMS_PATH = "/api/rooms"  # POST: a new room (the flood bound by SiteLimits)
LOG_IN_PATH = "/api/session"  # POST: a log-in (a failing address refused before routing)
TABLE_SOCKETS = "/ws/rooms/"  # the table sockets (bound per account and per address)


def create_app(
    settings: Settings,
    *,
    clock: Clock = utc_now,
    routers: Sequence[APIRouter] = (),
    password_hasher: PasswordHasher | None = None,
    hash_gate: HashGate | None = None,
) -> FastAPI:
    """The Ahiko server for ``settings``. ``routers`` are added before the static client
    (which answers every other path); ``clock``, ``password_hasher`` and ``hash_gate`` are
    for tests."""
    private_folder(settings.data_dir)  # 0700, its files 0600
    engine = make_engine(settings.resolved_database_url)
    install_sealer(engine, load_or_create_archive_key(settings.data_dir))
    keep_player_figures(engine)  # each archived hand adds to its players' stored figures
    install_archive_hook(engine, count_withholds)  # and the pokerfair/2 secrets withheld

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with watching_pauses(app), collecting_young(), serving(app):
            yield

    @asynccontextmanager
    async def serving(app: FastAPI) -> AsyncIterator[None]:
        if settings.redis_url is not None:  # one node of a cluster
            async with cluster_node(app, settings.redis_url):
                yield
            engine.dispose()
            return
        # A hand in progress at a crash is cancelled, its chips back at the start stacks,
        # before any room reopens; the rooms announce ``app.state.recovered_hands``.
        app.state.recovered_hands = recover_interrupted_hands(engine)
        seal_existing(engine)  # hands archived before the archive key existed
        if getattr(app.state, "room_registry", None) is None:  # a test may set its own
            app.state.room_registry = archiving_registry(app)
        if getattr(app.state, "ahiko_lobby", None) is None:
            timing, deadline = house_timing()
            lobby = AhikoLobby(
                app.state.room_registry,
                found.wallet,
                engine,
                timing=timing,
                action_deadline_s=deadline,
            )
            lobby.start()  # settles the rooms a previous run left open, then opens two a tier
            app.state.ahiko_lobby = lobby
        if getattr(app.state, "sitgo", None) is None:  # Sit & go's and MTTs
            sitgo, mtt = competition_services(app)
            sitgo.start()  # a previous run's unfinished sit & go's (and MTTs): buy-ins back
            mtt.start()  # the schedule's next MTT
            app.state.sitgo, app.state.mtt = sitgo, mtt
        # Rooms nobody joined close after a few minutes.
        sweeper = asyncio.create_task(site_limits(app).run_sweeper(app.state.room_registry))
        seen = asyncio.create_task(keep_sockets_seen(online_of(app), site_limits(app).accounts))
        yield
        sweeper.cancel()
        seen.cancel()
        await drain_all()  # the ledger and archive writes still in flight land first
        engine.dispose()

    docs = api_docs_enabled()
    app = FastAPI(
        title="Ahiko",
        version=ahiko.__version__,
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
    )
    found = Services(
        settings=settings,
        engine=engine,
        clock=clock,
        accounts=Accounts(engine, clock, password_hasher, hash_gate),
        wallet=Wallet(engine, clock),
    )
    app.state.services = found
    app.state.limits = SiteLimits()
    app.state.online = OnlineCount()
    install_error_handlers(app)
    document_errors(app, _answers_before_routes)
    app.add_middleware(AnswerBugsInJson)  # added first: the innermost
    app.add_middleware(RefuseKnownFloods)
    app.add_middleware(RequireCsrfHeader)
    app.add_middleware(SessionCookieOnly)  # before any cookie parser, behind the header cap
    install_security(app, https=settings.secure_cookies)
    install_metrics(app)  # GET /metrics with AHIKO_METRICS_TOKEN; log-in refusals counted
    app.add_middleware(LogScopeMiddleware)  # the outermost: every log line names its request
    app.include_router(_core_router())
    app.include_router(api_accounts.router)
    app.include_router(api_wallet.router)
    app.include_router(api_hands.router)
    app.include_router(api_fairness.router)
    for competition in api_competition.routers:
        app.include_router(competition)
    app.include_router(api_rooms.router)
    app.include_router(api_room_ledger.router)
    app.include_router(api_ahiko.router)
    app.include_router(api_sitgo.router)
    app.include_router(api_mtt.router)
    app.include_router(gateway.router)
    app.include_router(admin_console.router)  # the operators' console
    app.include_router(admin_page.router)
    for router in routers:
        app.include_router(router)
    if (WEB_DIR / "index.html").is_file():
        app.state.shell_version = app_shell.shell_version(WEB_DIR)
        app.include_router(app_shell.router)  # the service worker and manifest, before the files
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app


@asynccontextmanager
async def watching_pauses(app: FastAPI) -> AsyncIterator[None]:
    """The node's pauses (collector passes, event-loop lateness) counted while it serves,
    for ``GET /api/health/pauses``."""
    pauses = PauseMonitor()
    app.state.pauses = pauses
    pauses.install()
    watcher = asyncio.create_task(pauses.watch_loop())
    try:
        yield
    finally:
        watcher.cancel()
        pauses.uninstall()


@asynccontextmanager
async def collecting_young() -> AsyncIterator[None]:
    """The collector's young generation passed over on a clock (``ahiko.server.collector``:
    its own count lets a server's turning heap pile up for a minute)."""
    interval = young_interval()
    if interval == 0:
        yield
        return
    collector = asyncio.create_task(collect_young(interval))
    try:
        yield
    finally:
        collector.cancel()


@asynccontextmanager
async def cluster_node(app: FastAPI, redis_url: str) -> AsyncIterator[None]:
    """The lifespan of one node of a cluster (``ahiko serve --redis-url``): it joins the
    cluster (leases, relay, shared rate windows), then its house rooms come from the cluster
    (``ClusterHouse``: the lobby rule on the leader, dead owners' rooms taken over, each one's
    interrupted hand cancelled then), never from a start-up sweep over every room: the other
    nodes' hands are alive. The sit & go's and MTTs run on the leader (``ClusterCompetition``)."""
    from ahiko.server.cluster.competition import ClusterCompetition
    from ahiko.server.cluster.house import ClusterHouse
    from ahiko.server.cluster.node import ClusterNode, lease_ms, node_name
    from ahiko.server.cluster.sealing import RelaySeal, relay_key

    found: Services = app.state.services
    engine = found.engine
    app.state.recovered_hands = []
    seal_existing(engine)
    if getattr(app.state, "room_registry", None) is None:
        app.state.room_registry = archiving_registry(app)
    registry = app.state.room_registry
    node = ClusterNode(
        redis_url,
        node_name(found.settings.port),
        engine,
        registry,
        lease_ms(),
        route=found.settings.node_route,
        # Relayed frames sealed: Redis never carries a card in clear (the nodes share the
        # data folder's keys, this one's too).
        seal=RelaySeal(relay_key(load_or_create_archive_key(found.settings.data_dir))),
    )
    node.host.on_joined = site_limits(app).room_joined  # a join through another node
    await node.start()
    app.state.cluster = node
    app.state.shared_windows = node.shared_windows
    found.accounts.throttle = node.login_throttle  # failed log-ins counted cluster-wide
    app.state.online = SharedOnlineCount(node.redis)
    lobby = getattr(app.state, "ahiko_lobby", None)
    if lobby is None:
        timing, deadline = house_timing()
        lobby = AhikoLobby(
            registry, found.wallet, engine, timing=timing, action_deadline_s=deadline
        )
        app.state.ahiko_lobby = lobby
    house = ClusterHouse(node, lobby)
    app.state.house = house
    # Sit & go's and MTTs on the leader only; the other nodes forward their routes to it.
    competition = ClusterCompetition(
        app, node, house.leadership, lambda claim: competition_services(app, claim)
    )
    await house.step()  # lead (or not), take over what nobody holds, before serving
    await competition.step()  # the leader opens the competitions (a previous leader's refunded)
    house.start()
    competition.start()
    sweeper = asyncio.create_task(site_limits(app).run_sweeper(registry))
    seen = asyncio.create_task(keep_sockets_seen(app.state.online, site_limits(app).accounts))
    try:
        yield
    finally:
        sweeper.cancel()
        seen.cancel()
        await competition.stop()
        await house.stop()
        await node.stop()


def competition_services(
    app: FastAPI, claim_room: Callable[[str], Awaitable[object]] | None = None
) -> tuple[SitGoRooms, MttService]:
    """The sit & go lobby and the MTTs on the app's rooms, their ledger writes on
    the house rooms' writer; ``claim_room`` is a cluster leader's (each tournament
    room owned before it exists). Neither is started."""
    found: Services = app.state.services
    writer = getattr(app.state.ahiko_lobby, "writer", None)
    sitgo = SitGoRooms(
        app.state.room_registry,
        found.engine,
        clock=found.clock,
        timing=LIVE_TIMING,
        writer=writer,
        claim_room=claim_room,
    )
    mtt = MttService(
        app.state.room_registry,
        found.engine,
        clock=found.clock,
        every_minutes=found.settings.mtt_every_minutes,
        level_minutes=found.settings.mtt_level_minutes,
        timing=LIVE_TIMING,
        writer=writer,
        claim_room=claim_room,
    )
    return sitgo, mtt


def archiving_registry(app: FastAPI, clock: RoomClock | None = None) -> RoomRegistry:
    """A room registry whose rooms archive every finished hand in the server's database and
    sign their commitments with the server's key (``/api/fairness/public-key``)."""
    found: Services = app.state.services
    threaded = clock is None or isinstance(clock, AsyncioClock)  # off the loop
    # The hand archive and chat lines: one worker thread, each its own lane, in order.
    archive_writer = writer_for(threaded, threads=1, name="ahiko-archive")
    return RoomRegistry(
        clock=clock,
        signing_key=load_or_create_signing_key(found.settings.data_dir),
        room_options={
            "archive": CountingArchive(found.engine, writer=archive_writer),
            "moderation": StoredModeration(
                found.engine, chat_words(found.settings), writer=archive_writer
            ),
        },
    )


def chat_words(settings: Settings) -> LiveWordFilter:
    """The chat's word filter: the pt-BR and English defaults, plus the operator's file
    (``AHIKO_CHAT_WORDS``, else ``chat_words.txt`` in the data folder; one word a line), read
    again whenever it changes."""
    return LiveWordFilter(settings.chat_words_file or settings.data_dir / CHAT_WORDS_FILE)


class RequireCsrfHeader:
    """State-changing API calls must carry a custom header, which a cross-site form cannot
    send and a cross-site script cannot add without a CORS preflight we never grant.

    A plain ASGI middleware: Starlette's ``BaseHTTPMiddleware`` costs every request a task
    group and a pair of memory streams (about a millisecond of CPU here, the attack
    bench), for a rule that only reads the request line and one header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in UNSAFE_METHODS
            and scope["path"].startswith("/api/")
            and (CSRF_HEADER_BYTES, b"1") not in scope["headers"]
        ):
            answer = error_response(
                403, "csrf", f"state-changing requests need the {CSRF_HEADER}: 1 header"
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


class RefuseKnownFloods:
    """A session already refused a new room (429 ``too_many_rooms``) is refused again here,
    before routing, body parsing and the session's database lookup, for as long as the
    refusal holds (``SiteLimits.known_room_refusal`` checks it again each time, in memory).
    A table socket over its address's bound, or its account's when that session already
    has sockets open, is refused here too, with the gateway's error frame and close code.
    A flood of room creations then costs about what a bare FastAPI refusal does instead of a
    full request (the attack bench: 2.2 ms of server CPU each before). A log-in from
    an address over its failure limit is refused here too (``known_address_refusal``):
    a burst of 40 guesses no longer holds the event loop for a route's worth each."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"].startswith(TABLE_SOCKETS):
            limits: SiteLimits | None = getattr(scope["app"].state, "limits", None)
            token = session_token(scope["headers"])
            address = client_address(scope)
            refusal = (
                None
                if limits is None
                else limits.known_socket_refusal(token and token_hash(token), address)
            )
            if refusal is not None:  # answered as the gateway would, with no lookup
                await receive()  # websocket.connect
                frame = json.dumps(
                    refusal_frame("too_many_sockets", refusal), separators=(",", ":")
                )
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": frame})
                await send({"type": "websocket.close", "code": WS_TOO_MANY})
                return
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"] == ROOMS_PATH
            and (token := session_token(scope["headers"])) is not None
        ):
            state = scope["app"].state
            registry = getattr(state, "room_registry", None)
            limits = getattr(state, "limits", None)
            error = (
                None
                if registry is None or limits is None
                else limits.known_room_refusal(registry, token_hash(token))
            )
            if error is not None:
                answer = error_response(error.status, error.code, error.message, error.headers)
                await answer(scope, receive, send)
                return
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == LOG_IN_PATH:
            found: Services | None = getattr(scope["app"].state, "services", None)
            address = client_address(scope)  # as the route's _client_ip
            refused = (
                None if found is None else found.accounts.throttle.known_address_refusal(address)
            )
            if refused is not None:
                error = too_many_attempts(refused)
                answer = error_response(error.status, error.code, error.message, error.headers)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def session_token(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The session cookie's value, read from the raw ``Cookie`` header without the
    interpreter's cookie parser (the header's size is already bounded)."""
    for name, value in headers:
        if name != b"cookie":
            continue
        for part in value.split(b";"):
            part = part.strip()
            if part.startswith(SESSION_COOKIE_PREFIX):
                found = part[len(SESSION_COOKIE_PREFIX) :].strip(b'"')
                return found.decode("latin-1") or None
    return None


def _answers_before_routes(method: str, path: str) -> Iterable[int]:
    """What a request to an operation may be answered before its route runs: the security
    middleware's refusals, and the CSRF header rule's 403."""
    found = set(answers_before_routes(method, path))
    if method in UNSAFE_METHODS and path.startswith("/api/"):
        found.add(403)
    return sorted(found)


def _core_router() -> APIRouter:
    router = APIRouter(prefix="/api")

    @router.get("/health")
    def health(request: Request) -> dict[str, Any]:
        with reading(services(request).engine) as conn:
            conn.execute(text("SELECT 1"))
        return {"status": "ok", "version": ahiko.__version__}

    @router.get("/health/pauses")
    def pauses(request: Request) -> dict[str, Any]:
        """This node's pauses since it started: the cyclic collector's passes by generation
        and how late its event loop wakes, as counters and histograms (read twice and
        subtract for a window)."""
        monitor: PauseMonitor | None = getattr(request.app.state, "pauses", None)
        if monitor is None:
            raise ApiError(503, "unavailable", "this server is not serving yet")
        return monitor.snapshot()

    @router.get(
        "/fairness/public-key",
        responses=error_responses(
            503, notes={503: "The fairness module is not installed (`unavailable`)."}
        ),
    )
    def fairness_public_key(request: Request) -> dict[str, Any]:
        try:
            keys = importlib.import_module("ahiko.fairness.keys")
        except ImportError:
            raise ApiError(503, "unavailable", "the fairness module is not installed") from None
        return {"public_key": keys.public_key_hex(services(request).settings.data_dir)}

    @router.get("/online")
    async def online(request: Request) -> dict[str, int]:
        """Signed-in people on the site now (the cluster's, on a cluster node)."""
        return {"online": await online_of(request.app).count()}

    return router
