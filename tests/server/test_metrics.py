"""``GET /metrics`` (issue 45): after a hand played over real sockets, a scrape read back with
``prometheus_client``'s own text parser holds every family an operator's dashboard reads,
with values that fit what was done; without the scrapers' token the path is refused, and with
no token set it does not exist."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample
from test_hands_api import Account, Player, Server, _fast_app

from ahiko.server.metrics import TOKEN_ENV
from ahiko.server.services import CSRF_HEADER
from live_server import free_port, serving

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "docs" / "deploy" / "nginx.conf"
TOKEN = "scraper-secret-45"
CSRF = {CSRF_HEADER: "1"}
HANDS = 3


@dataclass
class Scraped:
    samples: dict[str, list[Sample]]
    types: dict[str, str]

    def value(self, name: str, **labels: str) -> float:
        found = [s.value for s in self.samples[name] if labels.items() <= s.labels.items()]
        assert found, f"{name}{labels} not in the scrape"
        return sum(found)

    def since(self, before: Scraped, name: str, **labels: str) -> float:
        """A process-wide counter's growth since ``before`` (other apps of this test process
        bumped it too: the instruments are the node's, one per process)."""
        return self.value(name, **labels) - before.value(name, **labels)


def scrape(base: str, token: str = TOKEN) -> Scraped:
    answer = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    samples: dict[str, list[Sample]] = {}
    types: dict[str, str] = {}
    for family in text_string_to_metric_families(answer.text):
        types[family.name] = family.type
        for sample in family.samples:
            samples.setdefault(sample.name, []).append(sample)
    return Scraped(samples, types)


def styles(host: Account, guest: Account) -> tuple[tuple[Account, str], ...]:
    return ((host, "caller"), (guest, "folder"))


async def command(player: Player, t: str, **fields: object) -> None:
    await player.send(t, **fields)
    await player.until_ack()


async def take_seat(player: Player, seat: int) -> None:
    await player.open()
    await command(player, "sit", seat=seat)


async def play_one_room(server: Server, host: Account, guest: Account) -> str:
    with server.http(host.cookie) as http:
        created = http.post(
            "/api/rooms", json={"name": "Mesa metrics", "seats": 3, "limit_hands": HANDS}
        )
    assert created.status_code == 201, created.text
    room_id: str = created.json()["id"]
    caller, folder = (Player(server, a, room_id, style) for a, style in styles(host, guest))
    await asyncio.gather(*(take_seat(player, seat) for seat, player in enumerate((caller, folder))))
    await command(caller, "chat", text="vai perder tudo")
    await command(folder, "chat_report", no=1, reason="rude")  # the line is message 1
    await command(caller, "add_bot", level="easy", seat=2)
    await caller.send("start")
    try:
        await asyncio.wait_for(asyncio.gather(caller.play(), folder.play()), 90)
    finally:
        await asyncio.gather(caller.ws.close(), folder.ws.close())
    return room_id


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Scraped, Scraped]]:
    tmp = tmp_path_factory.mktemp("metrics")
    with pytest.MonkeyPatch.context() as env:
        env.setenv(TOKEN_ENV, TOKEN)
        app = _fast_app(tmp)
    with serving(app) as port:
        server = Server(f"http://127.0.0.1:{port}", app)
        before = scrape(server.base)
        ana, bia = server.sign_up("ana"), server.sign_up("bia")
        asyncio.run(play_one_room(server, ana, bia))
        for _ in range(6):  # five wrong passwords, then the account's throttle answers
            httpx.post(
                f"{server.base}/api/session",
                json={"username": "ana", "password": "wrong password"},
                headers=CSRF,
            )
        yield server.base, before, scrape(server.base)


def test_each_family_is_scraped_with_plausible_values_after_a_played_hand(
    played: tuple[str, Scraped, Scraped],
) -> None:
    _base, before, scraped = played
    grew = functools.partial(scraped.since, before)
    assert scraped.value("ahiko_people_online") == 2  # ana and bia signed in
    assert scraped.value("ahiko_rooms", kind="ahiko") >= 1  # the house tiers' rooms
    assert scraped.value("ahiko_rooms", kind="recreational") == 1
    assert "ahiko_tables_in_hand" in scraped.samples
    assert grew("ahiko_hands_total", variant="holdem") >= HANDS
    assert grew("ahiko_hands_total", variant="draw") == 0
    for histogram in ("ahiko_command_seconds", "ahiko_action_broadcast_seconds"):
        count = grew(f"{histogram}_count")
        assert count >= HANDS, histogram  # each hand took at least one action
        assert 0 < grew(f"{histogram}_sum") < count * 5
        assert grew(f"{histogram}_bucket", le="+Inf") == count
    assert grew("ahiko_command_seconds_count") > grew(
        "ahiko_action_broadcast_seconds_count"
    )  # sit, chat and start are commands, not actions
    assert scraped.value("ahiko_event_loop_lag_seconds_count") > 0
    assert scraped.types["ahiko_gc_pause_seconds"] == "histogram"
    assert scraped.value("ahiko_gc_pause_seconds_count", generation="0") > 0
    frames = grew("ahiko_frames_sent_total")
    assert frames > HANDS * 4
    assert grew("ahiko_frame_bytes_sent_total") > frames * 20  # a frame is JSON
    assert scraped.value("ahiko_cluster_node") == 0  # alone: the cluster's families are zero
    assert scraped.value("ahiko_leases_held") == 0
    for relay in ("ahiko_relay_published_total", "ahiko_relay_frames_received_total"):
        assert scraped.value(relay) == 0
    writes = grew("ahiko_store_write_seconds_count")
    assert writes >= HANDS  # each hand archived off the loop
    assert grew("ahiko_store_write_seconds_sum") < writes * 10
    assert scraped.value("ahiko_store_queued_writes") >= 0
    assert scraped.value("ahiko_ledger_check_problems") == 0
    assert grew("ahiko_login_failures_total") == 5
    assert grew("ahiko_login_throttled_total") == 1
    assert scraped.value("ahiko_chat_reports_pending") == 1
    assert scraped.value("process_cpu_seconds_total") > 0


def test_metrics_are_refused_without_the_scrapers_token(
    played: tuple[str, Scraped, Scraped],
) -> None:
    base, _before, _scraped = played
    bare = httpx.get(f"{base}/metrics")
    assert bare.status_code == 401
    assert bare.json()["error"] == "unauthorized"
    assert "ahiko_" not in bare.text
    wrong = httpx.get(f"{base}/metrics", headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 401
    assert scrape(base).value("ahiko_people_online") == 2  # the right one still reads


def test_metrics_do_not_exist_when_no_token_is_set(tmp_path: Path) -> None:
    assert TOKEN_ENV not in os.environ
    app = _fast_app(tmp_path)
    with serving(app) as port:
        answer = httpx.get(
            f"http://127.0.0.1:{port}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
        )
    assert answer.status_code == 404


def test_the_documented_balancer_keeps_metrics_private(
    played: tuple[str, Scraped, Scraped], tmp_path: Path
) -> None:
    """``docs/deploy/nginx.conf`` run by Debian's nginx in front of the node: the public
    site and the node's own route answer 404 even with the token; the node itself answers."""
    base, _before, _scraped = played
    node = base.removeprefix("http://")
    port = free_port()
    text = CONF.read_text()
    for documented, ours in (
        ("127.0.0.1:8001", node),
        ("127.0.0.1:8002", node),
        ("listen 8080;", f"listen 127.0.0.1:{port};"),
    ):
        assert documented in text
        text = text.replace(documented, ours)
    (tmp_path / "logs").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        site = f"http://127.0.0.1:{port}"
        assert _answered(site + "/api/health", process).status_code == 200
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        for path in ("/metrics", "/n/a/metrics", "/n/b/metrics/", "/metrics?x=1"):
            assert httpx.get(site + path, headers=bearer).status_code == 404, path
        assert httpx.get(f"{base}/metrics", headers=bearer).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=10)


def _answered(url: str, process: subprocess.Popen[bytes]) -> httpx.Response:
    """The first answer nginx gives once it listens (it starts in a few milliseconds)."""
    while True:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        try:
            return httpx.get(url, timeout=1)
        except httpx.TransportError:
            time.sleep(0.05)


@pytest.mark.parametrize("document", ["grafana-dashboard.json", "prometheus-alerts.yml"])
def test_the_dashboard_and_alerts_read_only_families_a_node_exports(
    played: tuple[str, Scraped, Scraped], document: str
) -> None:
    """Every ``ahiko_`` series the shipped dashboard and alert rules query is in a scrape
    (a renamed family would leave a panel empty or an alert silent)."""
    _base, _before, scraped = played
    text = (CONF.parent / document).read_text()
    if document.endswith(".json"):
        panels = json.loads(text)["panels"]
        queries = [target["expr"] for panel in panels for target in panel["targets"]]
    else:
        rules = yaml.safe_load(text)["groups"][0]["rules"]
        queries = [rule["expr"] for rule in rules]
        assert {rule["alert"] for rule in rules} >= {"AhikoLedgerUnbalanced", "AhikoSlowBroadcast"}
    named = {name for query in queries for name in re.findall(r"\bahiko_\w+", query)}
    assert len(named) >= 15
    assert named <= set(scraped.samples), named - set(scraped.samples)
