"""Issue 20 in Chromium against a real server: a balancing move of a person. Ana (a phone
browser) hosts an MTT of twelve: herself and eleven accounts played by the test on the
server's loop (``Director``, through the tables' actors like ``tests/competition``'s
players). Two tables of six. The other table's players go all-in until one busts (six
against five); then, while Ana's table is in a hand in which she is next hand's big blind
(R-TN: the player moved), her browser waits on her turn and the other table busts a second
player: six against four, so the model moves Ana. Her page, without a reload, follows the
``moved`` frame to the new table and shows her there with the chips she brought; Bia, a
spectator of the old table (a desktop browser), sees Ana's seat emptied."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.outbox import Frame

from .conftest import DESKTOP, SCREENSHOTS
from .helpers import LIVE_WAIT_MS, record_states
from .live import live_app
from .play import sign_up, where_it_stands
from .test_mtt_cancel_live import POST
from .test_mtt_live import _json

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
BOTS = 11  # with Ana, twelve: two tables of six


@dataclass(eq=False)
class Bot:
    """One of the test's players at one table, through the actor: folds to a bet and checks
    (``passive``), or goes all-in and calls (when its ``Director`` says so)."""

    player_id: str
    table: int
    frames: list[dict[str, Any]] = field(default_factory=list)
    answered: set[int] = field(default_factory=set)

    def deliver(self, frame: Frame) -> None:
        self.frames.append(json.loads(frame.text()))
        del self.frames[:-20]

    def turn(self) -> tuple[int, dict[str, Any]] | None:
        """(hand number, legal actions) when the last hand frame asks me, once per frame."""
        hands = [f for f in self.frames if f["t"] == "hand"]
        if not hands:
            return None
        last = hands[-1]
        legal = (last.get("view") or {}).get("legal")
        if legal is None or last["seq"] in self.answered:
            return None
        self.answered.add(last["seq"])
        return last["hand_no"], legal


def shove(legal: dict[str, Any]) -> Action:
    if legal["bet_kind"] == "bet":
        return Action.bet(legal["max_to"])
    if legal["bet_kind"] == "raise":
        return Action.raise_to(legal["max_to"])
    return Action.call() if legal["call_cost"] else Action.check()


def passive(legal: dict[str, Any]) -> Action:
    return Action.fold() if legal["call_cost"] else Action.check()


class Director:
    """Runs on the server's loop: plays the bots, and decides when the other table busts a
    player so that the move takes Ana (the player who would be big blind next at her table)."""

    def __init__(self, app: Any, mtt_id: str, ana: str) -> None:
        self.app = app
        self.mtt_id = mtt_id
        self.ana = ana
        self.bots: dict[tuple[str, int], Bot] = {}
        self.home: int | None = None  # Ana's table at the start
        self.other: int | None = None
        self.shovers: list[str] = []
        self.held = False  # Ana's browser waits on her turn while the other table busts
        self.shoved = False  # the shovers went all-in since Ana was held
        self.left: list[tuple[int, str, int, dict[str, Any] | None]] = []  # player_left calls
        self.moved: dict[str, Any] | None = None
        self.quiet = False  # after the move: the bots stop answering (stacks stand still)
        self.stop = False
        self.other_sizes: list[int] = []  # the other table's players after each of its hands

    @property
    def rooms(self) -> Any:
        return self.app.state.mtt.rooms.get(self.mtt_id)

    def _watch(self, rooms: Any) -> None:
        """Wraps the tournament's own calls (on this instance only) to learn what happened."""
        player_left, hand_ended = rooms.player_left, rooms.hand_ended

        def left(number: int, occupant: Any) -> Any:
            moved = player_left(number, occupant)
            self.left.append((number, occupant.player_id, occupant.stack, moved))
            if moved is not None and occupant.player_id == self.ana:
                self.moved = {**moved, "stack": occupant.stack, "from": number}
                self.quiet = True
            return moved

        def ended(number: int, outcome: Any) -> None:
            hand_ended(number, outcome)
            if number == self.other:
                self.other_sizes.append(len(rooms.model.tables[number].seats))
                if self.held and self.shoved:  # the other table's try is over: Ana plays on
                    self.held = self.shoved = False

        rooms.player_left, rooms.hand_ended = left, ended

    async def run(self) -> None:
        while not self.stop:
            await asyncio.sleep(0.02)
            rooms = self.rooms
            if rooms is None or not rooms.actors:
                continue
            if self.home is None:
                self.home = rooms.model.table_of(self.ana).number
                self.other = next(n for n in rooms.model.tables if n != self.home)
                self._watch(rooms)
            await self._join(rooms)
            if not self.quiet:
                await self._answer(rooms)

    async def _join(self, rooms: Any) -> None:
        registry = self.app.state.room_registry
        # copies: the tables change while a connect is awaited (a balancing move)
        for number, seats in list(rooms.seated.items()):
            actor = registry.get(rooms.actors[number].room_id)
            for player in list(seats.values()):
                if player == self.ana or (player, number) in self.bots or actor is None:
                    continue
                bot = Bot(player, number)
                self.bots[(player, number)] = bot
                connection = f"test-{player}-{number}"
                actor.subscribe(connection, bot.deliver)
                assert (await actor.ask(c.Connect(connection, player))).ok

    def _aggressive(self, rooms: Any) -> bool:
        """Whether the other table's shovers go all-in now: freely while it is not yet
        smaller than Ana's, and for the bust that moves her only while she is held."""
        home, other = rooms.model.tables[self.home], rooms.model.tables[self.other]
        gap = len(home.seats) - len(other.seats)
        at_other = set(other.seats.values())
        if len(set(self.shovers) & at_other) < 2:
            self.shovers = sorted(at_other)[:2]
        return gap <= 0 or (gap == 1 and self.held)

    async def _answer(self, rooms: Any) -> None:
        registry = self.app.state.room_registry
        aggressive = self._aggressive(rooms)
        for (player, number), bot in self.bots.items():
            actor = registry.get(rooms.actors[number].room_id)
            turn = None if actor is None else bot.turn()
            if turn is None or actor is None:
                continue
            hand_no, legal = turn
            bold = aggressive and number == self.other and player in self.shovers
            action = shove(legal) if bold else passive(legal)
            if bold and self.held:
                self.shoved = True
            reply = await actor.ask(c.Act(player, hand_no, action))
            assert reply.ok, (player, number, action, reply)

    async def may_ana_act(self) -> bool:
        """Asked on each of Ana's turns before she clicks (on the loop, so it sees one
        state): False while the other table tries the bust that moves her. Held on her
        turn, her table waits for her: its next big blind stays hers."""
        rooms = self.rooms
        if self.held or rooms is None or self.home is None or self.moved is not None:
            return not self.held
        home, other = rooms.model.tables[self.home], rooms.model.tables[self.other]
        if (
            len(home.seats) - len(other.seats) == 1
            and self.home in rooms.playing
            and self.ana not in rooms.moving
            and home.big_blind_next() == self.ana
        ):
            self.held, self.shoved = True, False
            return False
        return True

    async def seats_of(self, room_id: str) -> dict[str, Any]:
        actor = self.app.state.room_registry.get(room_id)
        return {} if actor is None else actor.summary()


def on_loop(app: Any, coro: Any, timeout: float = 10) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, app.state.test_loop).result(timeout)


def chips(n: int) -> str:
    return f"{n:,}".replace(",", ".")  # the client's pt-BR grouping


def ana_acts(page: Any) -> bool:
    """Ana checks when she may, else folds (her stack moves only by the blinds)."""
    if page.query_selector(".action-bar:not([hidden]):not(.pending)") is None:
        return False
    for action in ("check", "fold"):
        button = page.query_selector(f'[data-action="{action}"]')
        if button is not None:
            try:
                button.click(timeout=2_000)
            except Exception:  # the bar re-rendered under the click: the next tick tries again
                return False
            return True
    return False


def seat_of(page: Any, name: str) -> str | None:
    seat = page.query_selector(f'.seat:has(.name-text:text-is("{name}"))')
    return None if seat is None else seat.get_attribute("data-seat")


def test_a_balancing_move_takes_the_browser_to_its_new_table(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with live_app(tmp_path / "live", {"AHIKO_MTT_EVERY_MINUTES": "30"}) as (base, app):
        ana = sign_up(browser, base, "ana", PHONE_390)
        bia = sign_up(browser, base, "bia", DESKTOP)
        made = ana.evaluate(
            POST, ["/api/mtt", {"name": "Noite de 12", "buy_in": 0, "starts_in_minutes": 60}]
        )
        assert made["status"] == 201, made
        mid = made["json"]["mtt"]["id"]
        for n in range(BOTS):
            with httpx.Client(base_url=base, headers={"X-Ahiko-CSRF": "1"}) as bot:
                made_bot = bot.post(
                    "/api/accounts",
                    json={"username": f"robo{n:02d}", "password": "segredo-forte-1"},
                )
                assert made_bot.status_code == 201, made_bot.text
                joined = bot.post(f"/api/mtt/{mid}/register", json={"key": f"k{n}"})
                assert joined.status_code == 201, joined.text
        row = f'tr[data-mtt="{mid}"]'
        ana.goto(f"{base}/#/lobby/tournament")
        ana.click(f'{row} [data-mtt="register"]')
        ana.wait_for_selector(f'{row} [data-registered="12"]')
        me = str(_json(ana, "/api/me")["id"])

        director = Director(app, mid, me)
        running: Future[None] = asyncio.run_coroutine_threadsafe(
            director.run(), app.state.test_loop
        )
        started = ana.evaluate(POST, [f"/api/mtt/{mid}/start", {}])
        assert started["status"] == 200, started
        # two tables of six at the start (read before any hand can end: on a loaded machine
        # the page below takes long enough for the bots to bust someone meanwhile)
        rooms = app.state.mtt.rooms[mid]
        assert sorted(len(s) for s in rooms.seated.values()) == [6, 6]
        # the lobby takes Ana to her table by itself
        ana.wait_for_url("**/#/room/mtt-*", timeout=LIVE_WAIT_MS)
        ana.wait_for_selector(".seat.me", timeout=LIVE_WAIT_MS)
        ana.evaluate("() => { window.sameDocument = true; }")
        # every message shown over the table, recorded as it comes: on a loaded machine the
        # move's may be replaced (the clock acting for her) or gone before it is read
        record_states(
            ana, "__toasts", "document.querySelector('.toast:not([hidden])')?.textContent"
        )
        home_room = ana.url.rsplit("/", 1)[-1]
        bia.goto(f"{base}/#/room/{home_room}")
        bia.wait_for_selector(".felt")
        bia.wait_for_selector('.conn[data-conn="online"]')

        old_seat: str | None = None
        last_seen: str | None = None  # Ana's stack as the spectator last saw it
        end = time.monotonic() + 240
        while director.moved is None or ana.url.endswith(home_room):
            if time.monotonic() > end:
                raise AssertionError(
                    f"no move: the other table's sizes {director.other_sizes}, left {director.left}; "
                    f"{where_it_stands(ana)}; {where_it_stands(bia)}"
                )
            if running.done():
                running.result()  # a bot's refused action: the test says which
            her_turn = ana.query_selector(".action-bar:not([hidden]):not(.pending)")
            if her_turn and director.moved is None and on_loop(app, director.may_ana_act()):
                ana_acts(ana)
            seat = seat_of(bia, "ana")
            if seat is not None:
                old_seat = seat
                shown = bia.query_selector(f'[data-seat="{seat}"] .seat-stack span')
                last_seen = shown.inner_text() if shown else last_seen
            ana.wait_for_timeout(60)

        moved = director.moved
        assert moved["from"] == director.home and moved["table"] == director.other
        assert moved["room_id"] != home_room
        # the move was a balance after the second bust at the other table (six against four)
        assert [m.reason for m in rooms.model.moves if m.player == me] == ["balance"]
        assert len(rooms.model.remaining()) == 10  # two busted, both at the other table
        assert all(len(t.seats) == 5 for t in rooms.model.tables.values())

        # Ana's page followed by itself: the new table, her seat, her chips
        ana.wait_for_url(f"**/#/room/{moved['room_id']}", timeout=LIVE_WAIT_MS)
        ana.wait_for_selector(f'.seat.me[data-seat="{moved["seat"]}"]', timeout=LIVE_WAIT_MS)
        ana.wait_for_selector('.conn[data-conn="online"]')
        assert ana.evaluate("() => window.sameDocument === true")  # no reload
        # the new table's page says why she is there
        told = f"Você foi levado para a mesa {moved['table']}."
        ana.wait_for_function("t => window.__toasts.includes(t)", arg=told, timeout=LIVE_WAIT_MS)
        assert f"Mesa {moved['table']}" in ana.inner_text("body")
        me_seat = f'.seat.me[data-seat="{moved["seat"]}"]'
        shown = int(ana.inner_text(f"{me_seat} .seat-stack span").replace(".", ""))
        bet = ana.query_selector(f'[data-bet-seat="{moved["seat"]}"] .bet-amount')
        in_front = int(bet.inner_text().replace(".", "")) if bet else 0
        assert shown + in_front == moved["stack"]  # the chips she had at the old table
        assert last_seen == chips(moved["stack"])  # as the old table's spectator saw them
        summary = on_loop(app, director.seats_of(moved["room_id"]))
        seated = {s["seat"]: s["player_id"] for s in summary["seats"]}
        assert seated[moved["seat"]] == me and len(seated) == 5  # the server agrees

        # the spectator of the old table: the seat emptied, her page stayed there
        assert old_seat is not None
        bia.wait_for_selector(f'[data-seat="{old_seat}"].seat-empty', timeout=LIVE_WAIT_MS)
        assert seat_of(bia, "ana") is None
        assert bia.query_selector(".sit-btn") is None  # the tournament's seats are closed
        assert bia.url.endswith(home_room)

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        ana.screenshot(path=str(SCREENSHOTS / "mtt-moved-390.png"))
        bia.screenshot(path=str(SCREENSHOTS / "mtt-moved-spectator-1280.png"))
        director.stop = True
        running.result(10)
        assert ana.console_errors == [] and bia.console_errors == []
