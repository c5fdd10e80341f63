"""``GET /metrics``: the node's figures in Prometheus's text format, for the operator.

Answered only with ``Authorization: Bearer $AHIKO_METRICS_TOKEN``; with no token set the
route does not exist (404), and ``docs/deploy/nginx.conf`` keeps the path off the public
site besides. Two kinds of figure:

- counters and histograms the serving code bumps as it works (``ahiko.server.instruments``,
  ``ahiko.store.write_timing``), registered once in ``REGISTRY``;
- figures read when scraped (``scrape``): people online, rooms by kind and status, tables in
  a hand, the pauses ``/api/health/pauses`` reports, the writes queued, the relay's and the
  leases' counts on a cluster node, the chat reports waiting and the ledger check (run at
  most once every ``LEDGER_CHECK_EVERY_S``, off the event loop).
"""

from __future__ import annotations

import hmac
import os
import time
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from sqlalchemy import func, select
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ahiko.rooms.config import RoomKind
from ahiko.server import instruments
from ahiko.server.errors import ApiError
from ahiko.server.online import online_of
from ahiko.server.pauses import BUCKET_BOUNDS_MS, Histogram, PauseMonitor
from ahiko.store.engine import reading
from ahiko.store.fair_counts import crash_cancellations
from ahiko.store.schema import chat_report_resolutions, chat_reports
from ahiko.store.write_timing import STORE_WRITE_SECONDS
from ahiko.store.writer import queued_writes
from ahiko.wallet.check import check_ledger

TOKEN_ENV = "AHIKO_METRICS_TOKEN"
METRICS_PATH = "/metrics"
LOG_IN_PATH = "/api/session"
LEDGER_CHECK_EVERY_S = 60.0  # the check reads every posting: not at each 15 s scrape

REGISTRY = CollectorRegistry(auto_describe=True)
for _instrument in (
    instruments.COMMAND_SECONDS,
    instruments.ACTION_BROADCAST_SECONDS,
    instruments.HANDS,
    instruments.LOG_IN_FAILURES,
    instruments.LOG_IN_THROTTLED,
    STORE_WRITE_SECONDS,
):
    REGISTRY.register(_instrument)
ProcessCollector(registry=REGISTRY)  # CPU seconds, resident memory, open files
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)


def metrics_token(env: Any = None) -> str | None:
    """The scrapers' bearer token, or None: ``/metrics`` is off."""
    token = (os.environ if env is None else env).get(TOKEN_ENV, "").strip()
    return token or None


@dataclass
class LedgerStatus:
    """The last ledger check's result, and when it ran (``time.monotonic``)."""

    problems: int = 0
    checked_at: float | None = None

    def stale(self, now: float) -> bool:
        return self.checked_at is None or now - self.checked_at >= LEDGER_CHECK_EVERY_S


@dataclass
class Reading:
    """What a scrape read from the app, before it is written out as families."""

    online: int
    rooms: Tally[tuple[str, str]] = field(default_factory=Tally)  # (kind, status) -> rooms
    in_hand: Tally[str] = field(default_factory=Tally)  # kind -> tables with a hand running
    pauses: PauseMonitor | None = None
    reports: int = 0
    crash_cancellations: int = 0  # hands cancelled after their cards (a crash), every node
    ledger: LedgerStatus = field(default_factory=LedgerStatus)
    cluster: Any = None


def metrics_router(token: str) -> APIRouter:
    router = APIRouter()
    expected = f"Bearer {token}".encode()

    @router.get(METRICS_PATH, include_in_schema=False)
    async def metrics(request: Request) -> Response:
        given = request.headers.get("authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            raise ApiError(401, "unauthorized", "the metrics need the scrapers' bearer token")
        body = generate_latest(REGISTRY) + generate_latest(await scrape(request.app))
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    return router


async def scrape(app: FastAPI) -> CollectorRegistry:
    """The figures read now, as a registry of their own (made for this scrape)."""
    found = Reading(online=await online_of(app).count())
    registry = getattr(app.state, "room_registry", None)
    for actor in [] if registry is None else registry.actors():
        summary = actor.summary(with_seats=False)
        kind = str(summary["kind"])
        found.rooms[(kind, str(summary["status"]))] += 1
        if summary["hand_no"] is not None and summary["status"] == "running":
            found.in_hand[kind] += 1
    found.pauses = getattr(app.state, "pauses", None)
    found.cluster = getattr(app.state, "cluster", None)
    engine = app.state.services.engine
    found.reports = await run_in_threadpool(_pending_reports, engine)
    found.crash_cancellations = await run_in_threadpool(crash_cancellations, engine)
    found.ledger = await _ledger_status(app)
    scraped = CollectorRegistry(auto_describe=False)
    scraped.register(_Families(found))
    return scraped


def _pending_reports(engine: Any) -> int:
    """Reports no operator resolved yet."""
    resolved = select(chat_report_resolutions.c.report_id)
    query = select(func.count()).select_from(chat_reports).where(chat_reports.c.id.not_in(resolved))
    with reading(engine) as conn:
        return int(conn.execute(query).scalar_one())


async def _ledger_status(app: FastAPI) -> LedgerStatus:
    status: LedgerStatus | None = getattr(app.state, "ledger_status", None)
    if status is None:
        status = app.state.ledger_status = LedgerStatus()
    now = time.monotonic()
    if status.stale(now):
        problems = await run_in_threadpool(check_ledger, app.state.services.engine)
        status.problems, status.checked_at = len(problems), now
    return status


class _Families:
    """A one-scrape collector: ``Reading``'s figures as metric families."""

    def __init__(self, found: Reading) -> None:
        self.found = found

    def collect(self) -> Iterator[Metric]:
        found = self.found
        yield _gauge("ahiko_people_online", "Signed-in people seen lately", found.online)
        rooms = GaugeMetricFamily(
            "ahiko_rooms", "Rooms on this node by kind and status", labels=["kind", "status"]
        )
        tables = GaugeMetricFamily(
            "ahiko_tables_in_hand", "Tables with a hand being played, by kind", labels=["kind"]
        )
        for room_kind in RoomKind:
            tables.add_metric([room_kind.value], found.in_hand[room_kind.value])
        for (kind, status), count in sorted(found.rooms.items()):
            rooms.add_metric([kind, status], count)
        yield rooms
        yield tables
        sent = instruments.SENT
        yield _counter("ahiko_frames_sent", "Frames written to table sockets", sent.frames)
        yield _counter("ahiko_frame_bytes_sent", "Bytes written to table sockets", sent.bytes)
        yield _gauge(
            "ahiko_store_queued_writes", "Durable writes waiting or running", queued_writes()
        )
        yield _gauge(
            "ahiko_chat_reports_pending", "Chat reports no operator resolved yet", found.reports
        )
        yield _counter(
            "ahiko_hands_cancelled_after_deal",
            "Hands cancelled after their cards were dealt (a node crashed mid-hand), every node",
            found.crash_cancellations,
        )
        yield _gauge(
            "ahiko_ledger_check_problems",
            "Violations the last ledger check found (0: the ledger balances)",
            found.ledger.problems,
        )
        age = 0.0 if found.ledger.checked_at is None else time.monotonic() - found.ledger.checked_at
        yield _gauge("ahiko_ledger_check_age_seconds", "Since the last ledger check", age)
        yield from _pause_families(found.pauses)
        yield from _cluster_families(found.cluster)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, documentation, value=value)


def _pause_families(pauses: PauseMonitor | None) -> Iterable[Metric]:
    """``/api/health/pauses``'s histograms in seconds; its last bucket is the ``+Inf`` one."""
    lag = HistogramMetricFamily(
        "ahiko_event_loop_lag_seconds", "How late the event loop woke a sleeping task"
    )
    gc_pauses = HistogramMetricFamily(
        "ahiko_gc_pause_seconds",
        "The cyclic collector's passes, by generation",
        labels=["generation"],
    )
    if pauses is not None:
        lag.add_metric([], *_buckets(pauses.loop_lag))
        for generation, histogram in sorted(pauses.gc.items()):
            gc_pauses.add_metric([str(generation)], *_buckets(histogram))
    yield lag
    yield gc_pauses


def _buckets(histogram: Histogram) -> tuple[list[tuple[str, float]], float]:
    cumulative, buckets = 0, []
    for bound, count in zip(BUCKET_BOUNDS_MS, histogram.buckets, strict=False):
        cumulative += count
        buckets.append((repr(bound / 1000), float(cumulative)))
    buckets.append(("+Inf", float(histogram.count)))
    return buckets, histogram.total_s


def _cluster_families(node: Any) -> Iterable[Metric]:
    """A cluster node's relay traffic and leases; zeros on a single server (one family set
    whatever the deployment, so one dashboard reads both)."""
    edge, publisher = (None, None) if node is None else (node.edge, node.publisher)
    yield _gauge("ahiko_cluster_node", "1 on a node of a cluster, 0 alone", node is not None)
    yield _gauge(
        "ahiko_leases_held",
        "Rooms this node owns (a lease in Redis each)",
        0 if node is None else len(node.ownership.rooms),
    )
    yield _counter(
        "ahiko_relay_published",
        "Relay messages Redis accepted from this node",
        0 if publisher is None else publisher.published,
    )
    yield _counter(
        "ahiko_relay_dropped",
        "Relay messages put while the connection to Redis was down",
        0 if publisher is None else publisher.dropped,
    )
    yield _counter(
        "ahiko_relay_frames_received",
        "Frames of rooms owned elsewhere handed to this node's sockets",
        0 if edge is None else edge.received,
    )


class CountLogIns:
    """Counts the log-in route's refusals by their answer, whoever answered (the route, or
    the flood guard before it): 401 a wrong name or password, 429 throttled. Only that one
    path is looked at; every other request passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (
            scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == LOG_IN_PATH
        ):
            await self.app(scope, receive, send)
            return

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                if message["status"] == 401:
                    instruments.LOG_IN_FAILURES.inc()
                elif message["status"] == 429:
                    instruments.LOG_IN_THROTTLED.inc()
            await send(message)

        await self.app(scope, receive, counted)


def install_metrics(app: FastAPI, env: Any = None) -> None:
    """``/metrics`` when a token is set (the log-ins are counted either way)."""
    app.add_middleware(CountLogIns)
    token = metrics_token(env)
    if token is not None:
        app.include_router(metrics_router(token))
