""" "My hands" (issues 6 and 8): the hand list, hand histories and proof files, through the
real app. Two accounts and a bot play at a recreational table over real WebSockets (uvicorn
on loopback, clocks 2,000 times faster); each account then lists its hands, downloads them
as PokerStars text and PHH (re-imported with ``ahiko.history``) and checks, against the true
deck kept in the archive, that no card it did not see is in its files (R-FD-03, R-HE-12,
R-DR-07); the proof files pass both command-line verifiers."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from ahiko.fairness.verify import verify_text
from ahiko.history.phh import loads, parse_phh_cards
from ahiko.history.phh_draw import draw_from_phh
from ahiko.history.phh_holdem import holdem_from_phh
from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.cards import format_card
from ahiko.poker.config import DrawConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import event_to_dict
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.finished.archive import HandArchive
from ahiko.rooms.finished.replay import replay_document
from ahiko.rooms.room import Room
from ahiko.server.services import CSRF_HEADER, Services
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.hand_archive import ArchivedHand, ArchivedPlayer, archived_hand_for
from ahiko.store.migrate import upgrade
from ahiko.store.schema import HAND_SCHEMA_VERSION, archived_hands
from live_server import create_account, fast_app, serving

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse"
CSRF = {CSRF_HEADER: "1"}
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
HANDS_PER_ROOM = 6


# --- a live server ---------------------------------------------------------------------------
@dataclass
class Server:
    base: str
    app: FastAPI

    @property
    def services(self) -> Services:
        found: Services = self.app.state.services
        return found

    def http(self, cookie: str | None = None) -> httpx.Client:
        cookies = {"ahiko_session": cookie} if cookie else None
        return httpx.Client(base_url=self.base, headers=CSRF, cookies=cookies, timeout=10)

    def sign_up(self, username: str) -> Account:
        response = create_account(self.base, username, PASSWORD)
        return Account(username, int(response.json()["id"]), response.cookies["ahiko_session"])

    def ws_url(self, room_id: str) -> str:
        return f"ws://{self.base.removeprefix('http://')}/ws/rooms/{room_id}"


@dataclass
class Account:
    username: str
    user_id: int
    cookie: str

    def get(self, server: Server, path: str, **params: Any) -> httpx.Response:
        with server.http(self.cookie) as http:
            return http.get(path, params=params)


def _fast_app(tmp: Path) -> FastAPI:
    url = f"sqlite:///{tmp / 'hands.sqlite3'}"
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    return fast_app(Settings(data_dir=tmp / "data", database_url=url))


# --- players over the table WebSocket --------------------------------------------------------
@dataclass
class Seen:
    """What one player's connection received, per hand number."""

    commitments: dict[int, str] = field(default_factory=dict)  # hand_no -> digest
    seats: dict[int, int] = field(default_factory=dict)  # hand_no -> own seat
    nets: dict[int, int] = field(default_factory=dict)  # hand_no -> own net result


class Player:
    """``style`` "caller": checks or calls, discards two cards at the draw; "folder": checks
    when free, otherwise folds, stands pat."""

    def __init__(self, server: Server, account: Account, room_id: str, style: str) -> None:
        self.server, self.account, self.room_id, self.style = server, account, room_id, style
        self.seen = Seen()
        self.ws: Any = None
        self._ids = 0

    async def open(self) -> None:
        headers = {"Cookie": f"ahiko_session={self.account.cookie}"}
        self.ws = await websockets.connect(
            self.server.ws_url(self.room_id), additional_headers=headers
        )

    async def send(self, t: str, **fields: Any) -> None:
        self._ids += 1
        await self.ws.send(
            json.dumps({"t": t, "id": f"{self.account.username}-{self._ids}", **fields})
        )

    async def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
        assert frame["t"] != "error", frame
        return frame

    async def until_ack(self) -> dict[str, Any]:
        while (frame := await self.recv())["t"] != "ack":
            pass
        return frame

    async def play(self) -> None:
        """Answer every turn until the room closes (its hand limit, R-RM-18)."""
        while (frame := await self.recv())["t"] != "closed":
            if frame["t"] == "commitment":
                self.seen.commitments[frame["hand_no"]] = frame["commitment"]["digest"]
            if frame["t"] != "hand":
                continue
            view = frame["view"]
            me = view["viewer"]
            if me is not None:
                self.seen.seats[frame["hand_no"]] = me
            if view.get("result") is not None and me is not None:
                self.seen.nets[frame["hand_no"]] = int(view["result"]["net"][str(me)])
            legal = view.get("legal")
            if legal is not None and view["to_act"] == me:
                await self.send("act", hand_no=frame["hand_no"], **self.choose(view, legal))

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        if legal["is_draw_phase"]:
            mine = next(s for s in view["seats"] if s["seat"] == view["viewer"])["cards"]
            return {"action": "discard", "cards": mine[:2] if self.style == "caller" else []}
        if legal["can_check"]:
            return {"action": "check"}
        return {"action": "call" if self.style == "caller" else "fold"}


@dataclass
class PlayedRoom:
    room_id: str
    variant: str
    players: dict[str, Player]


async def _play_room(server: Server, host: Account, guest: Account, variant: str) -> PlayedRoom:
    options: dict[str, Any] = {"name": f"Mesa {variant}", "variant": variant, "seats": 4}
    with server.http(host.cookie) as http:
        created = http.post("/api/rooms", json={**options, "limit_hands": HANDS_PER_ROOM})
    assert created.status_code == 201, created.text
    room_id = created.json()["id"]
    caller = Player(server, host, room_id, "caller")
    folder = Player(server, guest, room_id, "folder")
    for seat, player in enumerate((caller, folder)):
        await player.open()
        await player.send("sit", seat=seat)
        await player.until_ack()
    await caller.send("add_bot", level="easy", seat=2)
    await caller.until_ack()
    await caller.send("start")
    await asyncio.wait_for(asyncio.gather(caller.play(), folder.play()), 60)
    for player in (caller, folder):
        await player.ws.close()
    return PlayedRoom(room_id, variant, {host.username: caller, guest.username: folder})


@dataclass
class Session:
    server: Server
    accounts: dict[str, Account]
    rooms: dict[str, PlayedRoom]
    tmp: Path


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    tmp = tmp_path_factory.mktemp("hands")
    app = _fast_app(tmp)
    with serving(app) as port:
        server = Server(f"http://127.0.0.1:{port}", app)
        accounts = {name: server.sign_up(name) for name in ("ana", "bia", "cai")}

        async def play_both() -> dict[str, PlayedRoom]:
            ana, bia = accounts["ana"], accounts["bia"]
            return {
                "holdem": await _play_room(server, ana, bia, "holdem"),
                "draw": await _play_room(server, bia, ana, "draw"),
            }

        yield Session(server, accounts, asyncio.run(play_both()), tmp)


# --- the truth, from the archive's private record --------------------------------------------
def _truth(session: Session, hand_id: int, account: Account) -> ArchivedHand:
    found = archived_hand_for(session.server.services.engine, hand_id, account.user_id)
    assert found is not None
    return found


@dataclass(frozen=True)
class Visibility:
    allowed: set[str]  # every card this player saw: own cards, board, shown hands
    forbidden: set[str]  # opponents' cards never shown to anyone
    positions: set[int]  # the deal positions whose openings the proof must hold


def _visibility(hand: ArchivedHand, seat: int) -> Visibility:
    deck = [format_card(c) for c in hand.deal["deck"]]
    folded = any(
        e["kind"] == "action" and e["seat"] == seat and e["action"] == "fold" for e in hand.events
    )
    blind = hand.variant == "draw" and folded  # R-DR-07 D: no shown hand for a folded player
    dealt: dict[int, set[str]] = {}
    allowed: set[str] = set()
    positions: set[int] = set()
    for event in hand.events:
        kind = event["kind"]
        if kind == "hole_dealt":
            cards = [deck[p] for p in event["positions"]]
            assert cards == [_text(c) for c in event["cards"]]  # the log agrees with the deck
            dealt.setdefault(event["seat"], set()).update(cards)
            if event["seat"] == seat:
                allowed.update(cards)
                positions.update(event["positions"])
        elif kind == "street" and event.get("cards"):
            allowed.update(_text(c) for c in event["cards"])
            positions.update(event["positions"])
        elif kind == "discarded":
            new = [_text(c) for c in event["new_cards"]]
            dealt.setdefault(event["seat"], set()).update(new)
            if event["seat"] == seat:
                allowed.update(new)
                positions.update(event["positions"])
        elif kind == "cards_shown" and (not blind or event["seat"] == seat):
            shown = [_text(c) for c in event["cards"]]
            allowed.update(shown)
            positions.update(deck.index(c) for c in shown)
    forbidden = set().union(*(cards for s, cards in dealt.items() if s != seat)) - allowed
    return Visibility(allowed, forbidden, positions)


def _text(card: Any) -> str:
    return card if isinstance(card, str) else format_card(int(card))


def _phh_cards(text: str) -> set[str]:
    found: set[str] = set()
    for line in loads(text).actions:
        words = line.split()
        if len(words) >= 3 and words[-2] in ("dh", "db", "sm", "sd"):
            found.update(format_card(c) for c in parse_phh_cards(words[-1]) if c is not None)
    return found


def _my_hands(session: Session, account: Account) -> list[dict[str, Any]]:
    response = account.get(session.server, "/api/hands", per_page=100)
    assert response.status_code == 200, response.text
    hands: list[dict[str, Any]] = response.json()["hands"]
    return hands


# --- tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("username", ["ana", "bia"])
def test_R_RM_18_each_player_lists_every_hand_they_played_with_their_net(session, username):
    account = session.accounts[username]
    hands = _my_hands(session, account)
    for variant, room in session.rooms.items():
        seen = room.players[username].seen
        mine = [h for h in hands if h["room_id"] == room.room_id]
        assert sorted(h["hand_no"] for h in mine) == sorted(seen.seats)
        assert len(mine) == HANDS_PER_ROOM
        for listed in mine:
            assert listed["variant"] == variant and listed["room_kind"] == "recreational"
            assert listed["seat"] == seen.seats[listed["hand_no"]]
            assert listed["net"] == seen.nets[listed["hand_no"]]
            assert listed["room_name"] == f"Mesa {variant}"
    assert [h["id"] for h in hands] == sorted((h["id"] for h in hands), reverse=True)


def test_hand_list_pages(session):
    ana = session.accounts["ana"]
    total = len(_my_hands(session, ana))
    first = ana.get(session.server, "/api/hands", page=1, per_page=5).json()
    last = ana.get(session.server, "/api/hands", page=first["pages"], per_page=5).json()
    assert first["total"] == total and first["pages"] == -(-total // 5)
    assert len(first["hands"]) == 5 and len(last["hands"]) == total - 5 * (first["pages"] - 1)
    beyond = ana.get(session.server, "/api/hands", page=first["pages"] + 1, per_page=5).json()
    assert beyond["hands"] == []


@pytest.mark.parametrize("username", ["ana", "bia"])
def test_R_FD_03_histories_hold_only_cards_the_player_saw(session, username):
    account = session.accounts[username]
    hidden_somewhere = 0
    for listed in _my_hands(session, account):
        truth = _truth(session, listed["id"], account)
        seen = _visibility(truth, listed["seat"])
        hidden_somewhere += len(seen.forbidden)

        stars = account.get(session.server, f"/api/hands/{listed['id']}", format="pokerstars")
        assert stars.status_code == 200, stars.text
        assert stars.headers["content-disposition"] == (
            f'attachment; filename="ahiko-{listed["room_id"]}-hand{listed["hand_no"]}.txt"'
        )
        assert stars.text.startswith(f"PokerStars Hand #{listed['id']}:")
        stars_cards = set(CARD.findall(stars.text))
        assert stars_cards <= seen.allowed and not stars_cards & seen.forbidden
        assert f"Dealt to {username} [" in stars.text

        phh = account.get(session.server, f"/api/hands/{listed['id']}", format="phh")
        assert phh.status_code == 200, phh.text
        assert phh.headers["content-disposition"].endswith(f'hand{listed["hand_no"]}.phh"')
        phh_cards = _phh_cards(phh.text)
        assert phh_cards <= seen.allowed and not phh_cards & seen.forbidden
        assert not set(CARD.findall(phh.text)) & seen.forbidden
        document = loads(phh.text)
        replayed = draw_from_phh(document) if truth.variant == "draw" else holdem_from_phh(document)
        # Hidden cards replay as stand-ins, so a showdown this player did not see may end
        # otherwise; the file's own finishing_stacks carry the true result.
        final = next(e for e in truth.events if e["kind"] == "hand_ended")["stacks"]
        order = truth.commitment["dealt_seats"]
        assert replayed.is_over and document.finishing_stacks == [final[str(s)] for s in order]
    assert hidden_somewhere > 0  # the folder's and the bot's mucked cards were really kept out


def _replay_cards(events: list[dict[str, Any]]) -> set[str]:
    return {card for e in events for name in ("cards", "new_cards") for card in e.get(name) or ()}


def test_R_FD_03_R_DR_07_replay_json_holds_only_cards_the_player_saw(session):
    hidden_somewhere = 0
    for username in ("ana", "bia"):
        account = session.accounts[username]
        for listed in _my_hands(session, account):
            truth = _truth(session, listed["id"], account)
            seat = listed["seat"]
            seen = _visibility(truth, seat)
            hidden_somewhere += len(seen.forbidden)
            response = account.get(session.server, f"/api/hands/{listed['id']}", format="json")
            assert response.status_code == 200, response.text
            assert response.headers["content-type"].startswith("application/json")
            replay = response.json()
            assert (replay["id"], replay["hand_no"], replay["viewer"]) == (
                listed["id"],
                listed["hand_no"],
                seat,
            )
            assert replay["room_name"] == listed["room_name"] and replay["seat_count"] == 4
            names = {p["seat"]: (p["name"], p["bot"]) for p in replay["players"]}
            assert names[seat] == (username, False) and names[2][1] is True
            events = replay["events"]
            assert [e["kind"] for e in events] == [e["kind"] for e in truth.events]
            cards = _replay_cards(events)
            assert cards <= seen.allowed and not cards & seen.forbidden
            mine = next(e for e in events if e["kind"] == "hole_dealt" and e["seat"] == seat)
            true_mine = next(
                e for e in truth.events if e["kind"] == "hole_dealt" and e["seat"] == seat
            )
            assert mine["cards"] == [_text(c) for c in true_mine["cards"]]
            others = [e for e in events if e["kind"] in ("hole_dealt", "discarded")]
            assert all("cards" not in e for e in others if e["seat"] != seat)
            folded = any(
                e["kind"] == "action" and e["seat"] == seat and e["action"] == "fold"
                for e in truth.events
            )
            if truth.variant == "draw" and folded:
                shown = [e for e in events if e["kind"] == "cards_shown" and e["seat"] != seat]
                assert all(e["cards"] is None for e in shown)  # also pinned down below
    assert hidden_somewhere > 0


def _draw_hand_where_seat_0_folds() -> ArchivedHand:
    """Seat 1 bets, seat 0 folds, seats 1 and 2 each draw one card and both show."""
    deck = list(range(52))
    random.Random(1).shuffle(deck)  # a deal where both seats show
    hand, _ = DrawHand.start(DrawConfig(ante=1, small_bet=10), [0, 1, 2], [100] * 3, 2, deck)
    while not hand.is_over:
        seat, legal = hand.to_act, hand.legal_actions()
        assert seat is not None
        if legal.is_draw_phase:
            action = Action.discard(tuple(hand.holes[hand.index[seat]][:1]))
        elif seat == 0 and legal.can_call:
            action = Action.fold()
        elif seat == 1 and legal.bet_kind == ActionKind.BET:
            action = Action.bet(legal.min_to)
        else:
            action = Action.call() if legal.can_call else Action.check()
        hand.act(seat, action)
    at = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)
    return ArchivedHand(
        room_id="r1",
        room_kind="recreational",
        room_name="Mesa",
        variant="draw",
        max_seats=3,
        hand_no=1,
        commitment={},
        events=[event_to_dict(e) for e in hand.events],
        deal={"deck": deck},
        players=tuple(
            ArchivedPlayer(s, f"p{s}", s + 1, f"p{s}", "person", 100, 0) for s in range(3)
        ),
        started_at=at,
        ended_at=at,
        id=9,
    )


@pytest.mark.parametrize("viewer", [0, 1])
def test_R_DR_07_a_folded_draw_player_replays_no_showdown_cards(viewer):
    archived = _draw_hand_where_seat_0_folds()
    dealt: dict[int, set[str]] = {}
    shown: set[str] = set()
    for e in archived.events:
        if e["kind"] in ("hole_dealt", "discarded"):
            new = e["cards"] if e["kind"] == "hole_dealt" else e["new_cards"]
            dealt.setdefault(e["seat"], set()).update(format_card(c) for c in new)
        elif e["kind"] == "cards_shown" and e["seat"] != viewer:
            shown.update(format_card(c) for c in e["cards"])
    assert shown  # the others went to showdown
    replay = replay_document(archived, viewer)
    cards = _replay_cards(replay["events"])
    mine = next(
        e["cards"] for e in archived.events if e["kind"] == "hole_dealt" and e["seat"] == viewer
    )
    assert {format_card(c) for c in mine} <= cards
    others = set().union(*(c for s, c in dealt.items() if s != viewer))
    if viewer == 0:  # folded: sees neither the shown hands nor what exactly they made
        assert not cards & others
        awards = [e for e in replay["events"] if e["kind"] == "pot_awarded"]
        assert awards and all(  # R-DR-07 D: each shown hand's category, not its ranks
            h["ranks"] == [] for a in awards for s, h in a["hands"].items() if s != "0"
        )
    else:
        assert cards & others == shown & others
        own_draw = next(e for e in replay["events"] if e["kind"] == "discarded" and e["seat"] == 1)
        assert len(own_draw["new_cards"]) == 1


@pytest.mark.parametrize("username", ["ana", "bia"])
def test_R_FD_03_proof_files_open_exactly_what_the_release_policy_allows(session, username):
    account = session.accounts[username]
    public_key = account.get(session.server, "/api/fairness/public-key").json()["public_key"]
    roles: set[str] = set()
    for listed in _my_hands(session, account):
        truth = _truth(session, listed["id"], account)
        seen = _visibility(truth, listed["seat"])
        response = account.get(session.server, f"/api/hands/{listed['id']}/proof")
        assert response.status_code == 200, response.text
        assert response.headers["content-disposition"].endswith(
            f'hand{listed["hand_no"]}-proof.json"'
        )
        proof = response.json()
        player = session.rooms[listed["variant"]].players[username]
        digest = player.seen.commitments[listed["hand_no"]]
        assert proof["commitment"]["digest"] == digest  # the very commitment broadcast live
        assert {card["position"] for card in proof["cards"]} == seen.positions
        assert {card["card"] for card in proof["cards"]} <= seen.allowed
        roles.update(card["role"] for card in proof["cards"])
        result = verify_text(
            response.content,
            expect_digest=bytes.fromhex(digest),
            public_key=bytes.fromhex(public_key),
        )
        assert result.ok and result.exit_code == 0, result.summary
    # bia draws in the draw room, so she holds her own draw openings; ana, the folder there,
    # stands pat and no longer receives the shown draws of a showdown she folded out of
    # (R-DR-07 D), so for her only hole and board are certain.
    assert ({"hole", "board", "draw"} if username == "bia" else {"hole", "board"}) <= roles


def test_R_FD_03_downloaded_proofs_pass_both_command_line_verifiers(session):
    for username, account in session.accounts.items():
        if username == "cai":
            continue
        public_key = account.get(session.server, "/api/fairness/public-key").json()["public_key"]
        for variant in ("holdem", "draw"):
            listed = next(h for h in _my_hands(session, account) if h["variant"] == variant)
            path = session.tmp / f"{username}-{variant}-proof.json"
            path.write_bytes(
                account.get(session.server, f"/api/hands/{listed['id']}/proof").content
            )
            for command in (
                [str(ROOT / ".venv/bin/ahiko"), "verify", str(path), "--pubkey", public_key],
                [
                    sys.executable,
                    str(ROOT / "tools/verify_proof.py"),
                    str(path),
                    "--pubkey",
                    public_key,
                ],
            ):
                run = subprocess.run(command, capture_output=True, text=True, timeout=60)
                assert run.returncode == 0, run.stdout + run.stderr
                assert "consistent with the commitment" in run.stdout


def test_a_dump_of_the_database_decrypts_no_mucked_card(session):
    """Issue 17: a copy of the database file alone (here read with plain sqlite3, no server
    code) holds no deck order, no salt and no card of the private log; the players' own
    downloads and ``ahiko verify`` (the test above) still work from the same rows."""
    engine = session.server.services.engine
    database = engine.url.database
    assert database is not None
    with sqlite3.connect(database) as dump:
        rows = dump.execute("SELECT id, deal, events FROM archived_hands").fetchall()
    assert len(rows) >= 2 * HANDS_PER_ROOM
    ana = session.accounts["ana"]
    for hand_id, deal_text, events_text in rows:
        for text in (deal_text, events_text):
            stored = json.loads(text)
            assert stored["sealed"] == "aes256gcm/v1" and set(stored) == {"sealed", "nonce", "data"}
            assert not CARD.search(text)
        truth = archived_hand_for(engine, hand_id, ana.user_id)
        assert truth is not None  # the server, holding the key, opens it again
        for salt in truth.deal["salts"]:
            assert salt not in deal_text and salt not in events_text
        dealt = [e for e in truth.events if e["kind"] == "hole_dealt"]
        assert dealt and all(e["cards"] for e in dealt)  # the log really holds every hand
        assert "hole_dealt" not in events_text and "deck" not in deal_text


def test_a_hand_someone_else_played_is_not_found(session):
    ana, cai = session.accounts["ana"], session.accounts["cai"]
    hand_id = _my_hands(session, ana)[0]["id"]
    assert cai.get(session.server, "/api/hands").json()["total"] == 0
    for path in (f"/api/hands/{hand_id}", f"/api/hands/{hand_id}/proof", "/api/hands/999999"):
        response = cai.get(session.server, path)
        assert response.status_code == 404 and response.json()["error"] == "no_hand"
    unknown = ana.get(session.server, "/api/hands/999999/proof")
    assert (
        unknown.status_code == 404
        and unknown.json() == cai.get(session.server, "/api/hands/999999/proof").json()
    )


def test_signed_out_requests_get_401_and_bad_formats_422(session):
    ana = session.accounts["ana"]
    hand_id = _my_hands(session, ana)[0]["id"]
    with session.server.http() as anonymous:
        for path in ("/api/hands", f"/api/hands/{hand_id}", f"/api/hands/{hand_id}/proof"):
            assert anonymous.get(path).status_code == 401
    assert ana.get(session.server, f"/api/hands/{hand_id}", format="xml").status_code == 422
    assert ana.get(session.server, "/api/hands", per_page=0).status_code == 422


# --- a show after the hand, and every room kind ----------------------------------------------
def _room(engine: Any, kind: RoomKind, host: str) -> tuple[Room, ManualClock]:
    config = RoomConfig(
        name=f"Mesa {kind.value}",
        kind=kind,
        variant=Variant.HOLDEM,
        seats=4,
        schedule=BlindSchedule(Stakes(small_blind=5, big_blind=10)),
    )
    clock = ManualClock()
    room = Room(f"t-{kind.value}", config, clock=clock, host_id=host, archive=HandArchive(engine))
    return room, clock


def _seat_and_start(room: Room, clock: ManualClock, people: dict[str, int]) -> None:
    for seat, (name, user_id) in enumerate(people.items()):
        assert room.submit(c.Connect(f"quiet-{user_id}", str(user_id))).ok  # frames unread
        assert room.submit(c.Sit(str(user_id), name, seat)).ok
    if room.config.has_host:
        assert room.submit(c.Start(str(room.host_id))).ok
    clock.advance(room.config.timing.commitment_display_s)


def _raise_or_fold(room: Room, raiser: str) -> int:
    """``raiser`` bets or raises at every turn, the other folds: an uncontested win."""
    hand = room.dealer.hand
    assert hand is not None and hand.engine is not None
    while room.dealer.hand is hand:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal()
        if hand.players[seat] == raiser and legal.bet_kind is not None:
            action = (Action.raise_to if legal.bet_kind == "raise" else Action.bet)(legal.min_to)
        elif legal.can_fold:
            action = Action.fold()
        else:
            action = Action.check() if legal.can_check else Action.call()
        assert room.submit(c.Act(hand.players[seat], hand.hand_no, action)).ok
    return hand.hand_no


def _dealt_to(hand: ArchivedHand, seat: int) -> set[str]:
    return {
        _text(card)
        for event in hand.events
        if event["kind"] == "hole_dealt" and event["seat"] == seat
        for card in event["cards"]
    }


def _session_token(client: TestClient) -> str:
    token = client.cookies.get("ahiko_session")
    assert token is not None
    client.cookies.clear()
    return str(token)


def _get(client: TestClient, token: str, path: str, **params: Any) -> Any:
    # The jar may hold the session of the last sign-up (httpx2 keeps a cookie a response set
    # for the test host): with two session cookies the server reads the last, another account.
    client.cookies.clear()
    client.cookies.set("ahiko_session", token)
    try:
        return client.get(path, params=params)
    finally:
        client.cookies.clear()


def test_R_HE_12_a_show_after_the_hand_reaches_the_opponents_files(client, services, sign_up):
    ana, ana_token = sign_up("ana")["id"], _session_token(client)
    bia, bia_token = sign_up("bia")["id"], _session_token(client)
    room, clock = _room(services.engine, RoomKind.RECREATIONAL, host=str(ana))
    _seat_and_start(room, clock, {"ana": ana, "bia": bia})
    hand_no = _raise_or_fold(room, str(ana))
    listed = _get(client, bia_token, "/api/hands").json()["hands"][0]
    assert listed["hand_no"] == hand_no and listed["room_kind"] == "recreational"
    truth = archived_hand_for(services.engine, listed["id"], bia)
    assert truth is not None
    ana_seat = truth.seat_of_user(ana)
    assert ana_seat is not None
    ana_cards = _dealt_to(truth, ana_seat)

    def bia_sees() -> tuple[set[str], set[int]]:
        text = _get(client, bia_token, f"/api/hands/{listed['id']}").text
        proof = _get(client, bia_token, f"/api/hands/{listed['id']}/proof")
        assert verify_text(proof.content).ok
        shown = {o["position"] for o in proof.json()["cards"] if o["role"] == "showdown"}
        return set(CARD.findall(text)), shown

    before, openings_before = bia_sees()
    assert not before & ana_cards and openings_before == set()
    assert room.submit(c.Show(str(ana), hand_no)).ok
    after, openings_after = bia_sees()
    assert ana_cards <= after and len(openings_after) == 2
    bia_cards = _dealt_to(truth, 1 - ana_seat)
    ana_text = _get(client, ana_token, f"/api/hands/{listed['id']}", format="phh").text
    assert not _phh_cards(ana_text) & bia_cards  # bia folded: her cards stay hers


def test_R_TN_04_tournament_hands_are_archived_too(client, services, sign_up):
    ana, ana_token = sign_up("ana")["id"], _session_token(client)
    bia = sign_up("bia")["id"]
    room, clock = _room(services.engine, RoomKind.TOURNAMENT, host=str(ana))
    _seat_and_start(room, clock, {"ana": ana, "bia": bia})
    hand_no = _raise_or_fold(room, str(bia))
    listed = _get(client, ana_token, "/api/hands").json()["hands"]
    assert [(h["room_kind"], h["hand_no"]) for h in listed] == [("tournament", hand_no)]
    assert listed[0]["net"] < 0  # ana folded her blind
    proof = _get(client, ana_token, f"/api/hands/{listed[0]['id']}/proof")
    assert verify_text(proof.content).ok


def test_R_RM_11_ahiko_room_hands_are_archived_too(session):
    server = session.server
    ana, bia = session.accounts["ana"], session.accounts["bia"]
    with server.http(ana.cookie) as http:
        rooms = http.get("/api/ahiko/rooms").json()
    room = next(r for r in rooms if r["tier"] == "iniciante")
    for seat, account in enumerate((ana, bia)):
        with server.http(account.cookie) as http:
            body = {"seat": seat, "amount": 100, "key": f"k-{account.username}"}
            bought = http.post(f"/api/ahiko/rooms/{room['id']}/buy_in", json=body)
        assert bought.status_code == 200, bought.text

    async def watch_one_hand() -> None:
        players = [Player(server, account, room["id"], "caller") for account in (ana, bia)]
        for player in players:
            await player.open()

        async def until_result(player: Player) -> None:
            while not player.seen.nets:
                frame = await player.recv()
                if frame["t"] == "hand":
                    view = frame["view"]
                    if view.get("result") is not None:
                        player.seen.nets[frame["hand_no"]] = 0

        await asyncio.wait_for(asyncio.gather(*(until_result(p) for p in players)), 30)
        for player in players:
            await player.ws.close()

    asyncio.run(watch_one_hand())
    # Who is dealt first is the room's affair (the Bot Ahiko may join a person waiting alone,
    # R-BA-01); the result frame goes out just before the room archives the hand.
    deadline = time.monotonic() + 60  # a bound for a loaded machine, not a figure
    while not (
        mine := [
            (account, h)
            for account in (ana, bia)
            for h in _my_hands(session, account)
            if h["room_id"] == room["id"]
        ]
    ):
        assert time.monotonic() < deadline, "the Ahiko hand was never archived"
        time.sleep(0.05)
    for account, listed in mine:
        assert listed["room_kind"] == "ahiko"
        proof = account.get(server, f"/api/hands/{listed['id']}/proof")
        assert verify_text(proof.content).ok


def test_stored_hands_carry_their_format_version_and_an_unknown_one_is_refused(
    client, services, sign_up
):
    """Hand records and event logs are written with ``HAND_SCHEMA_VERSION``; a record in a
    format this server does not read answers 500 ``archive_corrupt`` naming both versions,
    instead of being misread."""
    ana, ana_token = sign_up("ana")["id"], _session_token(client)
    bia = sign_up("bia")["id"]
    room, clock = _room(services.engine, RoomKind.RECREATIONAL, host=str(ana))
    _seat_and_start(room, clock, {"ana": ana, "bia": bia})
    _raise_or_fold(room, str(ana))
    listed = _get(client, ana_token, "/api/hands").json()["hands"][0]
    with services.engine.begin() as conn:
        stored = conn.execute(
            select(archived_hands.c.schema_version).where(archived_hands.c.id == listed["id"])
        ).scalar_one()
        assert stored == HAND_SCHEMA_VERSION == 1
        conn.execute(
            update(archived_hands)
            .where(archived_hands.c.id == listed["id"])
            .values(schema_version=HAND_SCHEMA_VERSION + 1)
        )
    for path in (f"/api/hands/{listed['id']}", f"/api/hands/{listed['id']}/proof"):
        for fmt in ("pokerstars", "json"):
            answer = _get(client, ana_token, path, format=fmt)
            assert answer.status_code == 500 and answer.json()["error"] == "archive_corrupt"
            assert "format version 2" in answer.json()["message"]
            assert "reads version 1" in answer.json()["message"]


def test_a_players_own_chat_lines_are_in_their_hand_history(client, services, sign_up):
    """Issue 19: the JSON hand history holds the player's own messages of that hand only."""
    from datetime import UTC, datetime

    from ahiko.rooms.moderation import StoredModeration

    ana, ana_token = sign_up("ana")["id"], _session_token(client)
    bia, bia_token = sign_up("bia")["id"], _session_token(client)
    clock = ManualClock()
    config = RoomConfig(name="Mesa do papo", seats=4)
    room = Room(
        "t-chat",
        config,
        clock=clock,
        host_id=str(ana),
        archive=HandArchive(
            services.engine, now=lambda: datetime.fromtimestamp(clock.wall_ms() / 1000, UTC)
        ),
        moderation=StoredModeration(services.engine),
    )
    assert room.submit(c.Connect(f"early-{ana}", str(ana))).ok  # before the hand: not in it
    _seat_and_start(room, clock, {"ana": ana, "bia": bia})
    clock.advance(1)
    assert room.submit(c.Chat(str(ana), "ana", "boa sorte, porra")).ok
    assert room.submit(c.Chat(str(bia), "bia", "oi")).ok
    assert room.submit(c.Chat(str(ana), "ana", preset="gg")).ok
    _raise_or_fold(room, str(ana))
    clock.advance(1)
    assert room.submit(c.Chat(str(ana), "ana", "depois da mão")).ok
    hand_id = _get(client, ana_token, "/api/hands").json()["hands"][0]["id"]
    mine = _get(client, ana_token, f"/api/hands/{hand_id}", format="json").json()["my_chat"]
    assert [(m["kind"], m["text"]) for m in mine] == [
        ("text", "boa sorte, *****"),
        ("preset", "gg"),
    ]
    theirs = _get(client, bia_token, f"/api/hands/{hand_id}", format="json").json()["my_chat"]
    assert [m["text"] for m in theirs] == ["oi"]
