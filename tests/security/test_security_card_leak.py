"""No endpoint, log line or error message reveals a card of a hand in progress (R-HE-12,
issue 9). Random hands on a real server process (its log at INFO, ours at DEBUG): players
play their legal actions and also send wrong ones; a spectator and an HTTP poller watch.
Every player reports its own hole cards, so the test knows every hidden card."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import websockets
from live_table import ServerProcess, create_room, running_server, sign_up

pytestmark = pytest.mark.xdist_group("security_live")
ENV = {
    "AHIKO_BENCH_SPEED": "20",
    "AHIKO_BENCH_LOG_LEVEL": "info",
    "AHIKO_WS_FRAME_LIMIT": "10000/1",
}
# A card as a token of its own: not inside a word, an id or a token like "r-Ah_3".
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])([2-9TJQKA][cdhs])(?![A-Za-z0-9_\-])")
HANDS_PER_TABLE = 4


def card_tokens(text: str) -> set[str]:
    return set(CARD_TOKEN.findall(text))


@dataclass
class Seat:
    name: str
    cookie: str
    seat: int
    ws: Any = None
    rng: random.Random = field(default_factory=random.Random)
    sent: list[str] = field(default_factory=list)
    errors: list[tuple[int | None, str]] = field(default_factory=list)  # (hand_no, text)

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame)
        self.sent.append(text)
        await self.ws.send(text)


@dataclass
class Watch:
    holes: dict[int, dict[int, set[str]]] = field(default_factory=lambda: defaultdict(dict))
    shown: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    spectator_leaks: list[str] = field(default_factory=list)
    http_texts: list[tuple[int | None, str]] = field(default_factory=list)
    # (player seat, hand_no, text) of every finished hand's history each player downloaded
    histories: list[tuple[int, int, str]] = field(default_factory=list)
    hands_over: set[int] = field(default_factory=set)


def wrong_frame(rng: random.Random, hand_no: int, legal: dict[str, Any] | None) -> dict[str, Any]:
    choices = [
        {"t": "act", "id": "w1", "hand_no": hand_no, "action": "raise", "amount": 10**9},
        {"t": "act", "id": "w2", "hand_no": hand_no + 7, "action": "call"},
        {"t": "act", "id": "w3", "hand_no": hand_no, "action": "discard", "cards": ["Ah", "Kd"]},
        {"t": "show", "id": "w4", "hand_no": hand_no},
        {"t": "sit", "id": "w5", "seat": 0},
        {"t": "act", "id": "w6", "hand_no": hand_no, "action": "check", "seat": 8},
    ]
    if legal and legal.get("bet_kind"):
        choices.append(
            {"t": "act", "id": "w7", "hand_no": hand_no, "action": legal["bet_kind"], "amount": 1}
        )
    return rng.choice(choices)


async def play(player: Seat, watch: Watch, done: asyncio.Event) -> None:
    async for raw in player.ws:
        frame = json.loads(raw)
        if frame["t"] == "error":
            player.errors.append((frame.get("hand_no"), raw))
            continue
        if frame["t"] == "room":
            mine = next(s for s in frame["room"]["seats"] if s["seat"] == player.seat)
            if mine["stack"] == 0 and frame["room"]["hand_no"] is None:
                await player.send({"t": "new_entry", "id": "n"})
        if frame["t"] != "hand" or done.is_set():
            continue
        view, hand_no = frame["view"], frame["hand_no"]
        me = next(s for s in view["seats"] if s["seat"] == player.seat)
        if me["cards"]:
            watch.holes[hand_no][player.seat] = set(me["cards"])
        legal = view.get("legal")
        if player.rng.random() < 0.3:
            await player.send(wrong_frame(player.rng, hand_no, legal))
        if legal and view["to_act"] == player.seat:
            r = player.rng.random()
            if legal["bet_kind"] and r < 0.25:
                action = {"action": legal["bet_kind"], "amount": legal["min_to"]}
            elif legal["can_fold"] and not legal["can_check"] and r < 0.4:
                action = {"action": "fold"}
            else:
                action = {"action": "check" if legal["can_check"] else "call"}
            await player.send({"t": "act", "id": "a", "hand_no": hand_no, **action})


async def spectate(ws: Any, watch: Watch) -> None:
    async for raw in ws:
        frame = json.loads(raw)
        if frame["t"] != "hand":
            continue
        hand_no = frame["hand_no"]
        for event in frame["events"]:
            if event["kind"] == "cards_shown":
                watch.shown[hand_no].add(event["seat"])
            if event["kind"] == "hand_ended":
                watch.hands_over.add(hand_no)
        for seat in frame["view"]["seats"]:
            if seat["cards"] and seat["seat"] not in watch.shown[hand_no]:
                watch.spectator_leaks.append(f"hand {hand_no} seat {seat['seat']}: {raw}")


async def poll_http(server: ServerProcess, room_id: str, watch: Watch, done: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        while not done.is_set():
            for path in (f"/api/rooms/{room_id}", "/api/rooms"):
                response = await http.get(path)
                hand_no = response.json().get("hand_no") if path.endswith(room_id) else None
                watch.http_texts.append((hand_no, response.text))
            await asyncio.sleep(0.05)


async def scenario(server: ServerProcess) -> tuple[Watch, list[Seat]]:
    watch = Watch()
    cookies = [sign_up(server, f"leak{k}") for k in range(3)]
    room_id = create_room(server, cookies[0], action_deadline_s=20)
    players = [
        Seat(f"leak{k}", cookie, seat=2 * k, rng=random.Random(k))
        for k, cookie in enumerate(cookies)
    ]
    url = f"ws://127.0.0.1:{server.port}/ws/rooms/{room_id}"
    done = asyncio.Event()
    spectator = await websockets.connect(url, proxy=None)
    for player in players:
        player.ws = await websockets.connect(
            url, additional_headers={"Cookie": f"ahiko_session={player.cookie}"}, proxy=None
        )
        await player.send({"t": "sit", "id": "s", "seat": player.seat})
    tasks = [asyncio.create_task(play(p, watch, done)) for p in players]
    tasks += [
        asyncio.create_task(spectate(spectator, watch)),
        asyncio.create_task(poll_http(server, room_id, watch, done)),
    ]
    await players[0].send({"t": "start", "id": "start"})
    for _ in range(600):
        if len(watch.hands_over) >= HANDS_PER_TABLE:
            break
        await asyncio.sleep(0.1)
    done.set()
    for ws in [spectator, *(p.ws for p in players)]:
        await ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    await download_histories(server, players, watch)
    return watch, players


async def download_histories(server: ServerProcess, players: list[Seat], watch: Watch) -> None:
    """Every player's "my hands", in both formats, and the proof files."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        for player in players:
            headers = {"Cookie": f"ahiko_session={player.cookie}"}
            listing = (await http.get("/api/hands", headers=headers)).json()
            for hand in listing["hands"]:
                for path in ("?format=pokerstars", "?format=phh", "/proof"):
                    response = await http.get(f"/api/hands/{hand['id']}{path}", headers=headers)
                    assert response.status_code == 200, response.text
                    watch.histories.append((player.seat, hand["hand_no"], response.text))


@pytest.fixture(scope="module")
def played() -> Iterator[tuple[Watch, list[Seat], str]]:
    async def run() -> tuple[Watch, list[Seat]]:
        return await scenario(server)

    with running_server(env=ENV) as server:
        watch, players = asyncio.run(run())
        server.stop()
        log = server.log_path.read_text(errors="replace")
    yield watch, players, log


def test_R_HE_12_random_hands_were_played_with_wrong_frames(
    played: tuple[Watch, list[Seat], str],
) -> None:
    watch, players, log = played
    assert len(watch.hands_over) >= HANDS_PER_TABLE
    assert sum(len(p.errors) for p in players) >= 5
    assert "GET /api/rooms" in log  # the access log is there to be searched
    assert "Traceback" not in log


def test_R_HE_12_error_messages_reveal_no_other_players_cards(
    played: tuple[Watch, list[Seat], str],
) -> None:
    watch, players, _log = played
    for player in players:
        typed = set().union(*(card_tokens(text) for text in player.sent))
        others = {
            card
            for hand in watch.holes.values()
            for seat, cards in hand.items()
            if seat != player.seat
            for card in cards
        }
        for _hand_no, text in player.errors:
            assert not (card_tokens(text) & others) - typed, text


def test_R_HE_12_spectators_see_only_shown_cards(played: tuple[Watch, list[Seat], str]) -> None:
    watch, _players, _log = played
    assert watch.spectator_leaks == []


def test_R_HE_12_no_log_line_and_no_http_answer_reveals_a_hole_card(
    played: tuple[Watch, list[Seat], str],
) -> None:
    watch, _players, log = played
    hidden = {card for hand in watch.holes.values() for cards in hand.values() for card in cards}
    assert hidden
    leaking_lines = [line for line in log.splitlines() if card_tokens(line) & hidden]
    assert leaking_lines == []
    assert len(watch.http_texts) > 10
    for _hand_no, text in watch.http_texts:
        assert not card_tokens(text) & hidden, text


def test_R_HE_12_hand_histories_and_proofs_never_open_an_unshown_opponent_hand(
    played: tuple[Watch, list[Seat], str],
) -> None:
    watch, _players, _log = played
    assert len(watch.histories) >= 3 * HANDS_PER_TABLE
    for seat, hand_no, text in watch.histories:
        hidden = {
            card
            for other, cards in watch.holes[hand_no].items()
            if other != seat and other not in watch.shown[hand_no]
            for card in cards
        }
        assert not card_tokens(text) & hidden, (seat, hand_no, text[:500])
