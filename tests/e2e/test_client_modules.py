"""The client's own logic run in the browser: hand names, the replayer's fold of events (a
hand run twice: both boards), the connection's sequence-gap handling, and the games it asks
(``web/js/games.js``) instead of comparing variant names: its copy equals the server's
definitions (``Game.to_json``), Omaha's hand is named from exactly two hole cards and three
of the board, and the replayer deals four cards in Omaha."""

from __future__ import annotations

from typing import Any

import pytest

from ahiko.poker.actions import Action
from ahiko.poker.cards import format_card
from ahiko.poker.config import HoldemConfig
from ahiko.poker.events import public_event_dict
from ahiko.poker.games import GAMES
from ahiko.poker.holdem import HoldemHand

from .conftest import open_page
from .frames import holdem_showdown

pytestmark = pytest.mark.browser

WEB = "/src/ahiko/web/js"


@pytest.fixture
def page(browser, static_url):  # type: ignore[no-untyped-def]
    page = open_page(browser)
    page.goto(f"{static_url}/tests/e2e/fixtures/modules.html")
    yield page
    errors = list(page.console_errors)
    page.context.close()
    assert errors == []


def name_of(page: Any, cards: list[str], lang: str = "pt-BR") -> str:
    return page.evaluate(
        """async ([web, cards, lang]) => {
            const i18n = await import(`${web}/i18n.js`);
            i18n.setLang(lang);
            const { bestHand, handName } = await import(`${web}/handeval.js`);
            return handName(bestHand(cards));
        }""",
        [WEB, cards, lang],
    )


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        (["Qd", "Qs", "Qh", "5c", "5d", "9s", "2h"], "Full house, damas e cincos"),
        (["9c", "Td", "Jh", "Qs", "Kc", "2d", "2h"], "Sequência, de 9 a K"),
        (["Ah", "2c", "3d", "4s", "5h", "Kd", "Kc"], "Sequência, de A a 5"),  # R-RK-05
        (["Qh", "Kd", "Ac", "2s", "3h", "8d", "9c"], "Carta alta, ás"),  # no wrap-around
        (["Ah", "Kh", "Qh", "Jh", "Th", "2c", "2d"], "Royal flush"),
        (["Kc", "Kd", "7h", "7s", "2c", "2d", "Ah"], "Dois pares, reis e setes"),  # R-RK-02
        (["9h", "9c", "9d", "9s", "2c", "3d", "4h"], "Quadra de noves"),
        (["2h", "7h", "9h", "Jh", "Kh", "Ac", "Ad"], "Flush, rei alto"),
    ],
)
def test_R_RK_01_hand_names_in_portuguese(page, cards, name):
    assert name_of(page, cards) == name


def test_R_RK_01_hand_names_in_english(page):
    assert name_of(page, ["Qd", "Qs", "Qh", "5c", "5d"], "en") == "Full house, queens full of fives"


def test_replayer_folds_the_events_of_a_finished_hand(page):
    history = next(f for f in holdem_showdown() if f["t"] == "hand")["events"]
    start = {**history[0], "seats": [0, 1, 3, 4, 5], "stacks": [1000, 1000, 1000, 15, 1000]}
    steps = page.evaluate(
        """async ([web, events]) => {
            const { replayViews } = await import(`${web}/replay.js`);
            return replayViews(events, 3);
        }""",
        [WEB, [start, *history[1:]]],
    )
    assert len(steps) == len(history) - 1  # every step but hand_ended
    last = steps[-1]
    assert last["street"] == "over"
    assert last["board"] == ["Qh", "5c", "5d", "9s", "2h"]
    stacks = {s["seat"]: s["stack"] for s in last["seats"]}
    assert stacks == {0: 940, 1: 940, 3: 1195, 4: 0, 5: 940}  # R-PT-01: 75 + 180 to seat 3
    assert sum(stacks.values()) == 4015


def test_R_DR_07_replayer_swaps_in_the_viewers_own_draw_and_shows_no_hidden_hand(page):
    # The shape of GET /api/hands/{id}?format=json: only the viewer's draw carries cards.
    events = [
        {
            "kind": "hand_started",
            "variant": "draw",
            "config": {"ante": 5, "small_bet": 10, "big_bet": 20, "raise_cap": 4},
            "seats": [0, 1],
            "stacks": [500, 500],
            "button": 1,
            "dealt_seats": [0, 1],
            "layout": "draw5",
        },
        {"kind": "hole_dealt", "seat": 0, "cards": ["2c", "7d", "Ks", "Kd", "9h"]},
        {"kind": "hole_dealt", "seat": 1, "positions": [5, 6, 7, 8, 9]},
        {"kind": "street", "name": "draw", "cards": [], "positions": []},
        {"kind": "discarded", "seat": 0, "count": 2, "cards": ["2c", "7d"],
         "new_cards": ["Ah", "Kh"], "positions": [10, 11]},
        {"kind": "discarded", "seat": 1, "count": 3, "positions": [12, 13, 14]},
        {"kind": "cards_shown", "seat": 1, "cards": None, "reason": "showdown"},
    ]  # fmt: skip
    last = page.evaluate(
        """async ([web, events]) => {
            const { replayViews } = await import(`${web}/replay.js`);
            return replayViews(events, 0).at(-1);
        }""",
        [WEB, events],
    )
    seats = {s["seat"]: s for s in last["seats"]}
    assert seats[0]["cards"] == ["Ks", "Kd", "9h", "Ah", "Kh"]
    assert seats[1]["cards"] is None and seats[1]["discards"] == 3
    assert not [e for e in last["history"] if e["kind"] == "cards_shown"]


def test_a_gap_in_sequence_numbers_asks_for_a_snapshot(page):
    result = page.evaluate(
        """async (web) => {
            const { RoomConnection } = await import(`${web}/connection.js`);
            const got = [];
            const conn = new RoomConnection("ws://unused", { onMessage: (m) => got.push(m.type) });
            const sent = [];
            conn.sendRaw = (text) => sent.push(JSON.parse(text).t);
            const frame = (f) => conn.receive(JSON.stringify(f));
            frame({t: "snapshot", seq: 4, you: {}, room: null, hand: null, last_hand: null});
            frame({t: "room", seq: 5, room: {}});
            frame({t: "room", seq: 5, room: {}});          // a duplicate: dropped
            frame({t: "ack", seq: 5, id: "a1", data: {}});  // acks repeat the number
            frame({t: "room", seq: 7, room: {}});          // 6 is missing
            return { got, sent };
        }""",
        WEB,
    )
    assert result == {"got": ["snapshot", "room", "ack"], "sent": ["snapshot"]}


def test_a_reconnect_names_the_last_frame_and_a_new_run_of_the_room_asks_for_a_snapshot(page):
    """Frames are named by the room's run and number (docs/protocol.md): a reconnect sends
    ``since`` and ``epoch`` of the last frame applied, so the room can replay the gap; a
    frame of another run (a restart, another owner) is a new start, not a gap."""
    result = page.evaluate(
        """async (web) => {
            const { RoomConnection } = await import(`${web}/connection.js`);
            const got = [];
            const conn = new RoomConnection("ws://h/ws/rooms/r-1", { onMessage: (m) => got.push(`${m.type}:${m.seq}`) });
            const sent = [];
            conn.sendRaw = (text) => sent.push(JSON.parse(text).t);
            const frame = (f) => conn.receive(JSON.stringify(f));
            const before = conn.socketUrl();
            frame({t: "snapshot", seq: 4, epoch: "run-A", you: {}, room: null, hand: null, last_hand: null});
            frame({t: "room", seq: 5, epoch: "run-A", room: {}});
            const reconnect = conn.socketUrl();
            frame({t: "room", seq: 6, epoch: "run-B", room: {}});  // the room was reopened
            const afterRestart = conn.socketUrl();
            frame({t: "snapshot", seq: 6, epoch: "run-B", you: {}, room: null, hand: null, last_hand: null});
            frame({t: "room", seq: 7, epoch: "run-B", room: {}});
            return { before, reconnect, afterRestart, last: conn.socketUrl(), got, sent };
        }""",
        WEB,
    )
    assert result == {
        "before": "ws://h/ws/rooms/r-1?direct=1",
        "reconnect": "ws://h/ws/rooms/r-1?direct=1&since=5&epoch=run-A",
        "afterRestart": "ws://h/ws/rooms/r-1?direct=1",  # nothing of the new run applied yet
        "last": "ws://h/ws/rooms/r-1?direct=1&since=7&epoch=run-B",
        "got": ["snapshot:4", "room:5", "snapshot:6", "room:7"],
        "sent": ["snapshot"],
    }


def test_a_socket_follows_the_owners_route_and_gives_it_up_when_it_does_not_answer(page):
    """On a cluster (docs/deploy.md): an ``owner`` frame names the route to the table's
    owner, and the close that follows (4308) reconnects there at once, with the last frame
    applied; a route whose socket closes before any frame is given up (through any node,
    not asking again for a while); a room that moved (4409) asks for its new owner's route."""
    result = page.evaluate(
        """async (web) => {
            const { RoomConnection } = await import(`${web}/connection.js`);
            const got = [];
            const conn = new RoomConnection("ws://h/ws/rooms/r-1", { onMessage: (m) => got.push(m.type) });
            const opened = [];
            conn.open = () => { conn.heard = false; conn.ws = {}; opened.push(conn.socketUrl()); };
            const frame = (f) => conn.receive(JSON.stringify(f));
            const wait = () => new Promise((done) => setTimeout(done, 20));
            conn.open();
            frame({t: "snapshot", seq: 4, epoch: "run-A", you: {}, room: null, hand: null, last_hand: null});
            frame({t: "owner", room_id: "r-1", route: "/n/b"});
            conn.dropped(conn.ws, 4308);
            await wait();  // at once, not after the backoff
            frame({t: "room", seq: 5, epoch: "run-A", room: {}});
            conn.dropped(conn.ws, 4409);  // the owner changed: ask again through any node
            await new Promise((done) => setTimeout(done, 400));
            frame({t: "owner", room_id: "r-1", route: "/n/c"});
            conn.dropped(conn.ws, 4308);
            await wait();
            conn.dropped(conn.ws, 1006);  // /n/c never answered
            await new Promise((done) => setTimeout(done, 700));
            return { opened, got };
        }""",
        WEB,
    )
    assert result == {
        "opened": [
            "ws://h/ws/rooms/r-1?direct=1",
            "ws://h/n/b/ws/rooms/r-1?since=4&epoch=run-A",
            "ws://h/ws/rooms/r-1?direct=1&since=5&epoch=run-A",
            "ws://h/n/c/ws/rooms/r-1?since=5&epoch=run-A",
            "ws://h/ws/rooms/r-1?since=5&epoch=run-A",  # no direct=1: the route failed
        ],
        "got": ["snapshot", "room"],  # the owner frames are the connection's own
    }


def test_history_cards_sent_as_numbers_are_read_as_text(page):
    decoded = page.evaluate(
        """async (web) => {
            const { decodeFrame } = await import(`${web}/wire.js`);
            const frame = {t: "hand", seq: 3, hand_no: 1, openings: [], deadline: null,
                           events: [{kind: "street", name: "flop", cards: [50, 0, 51]}],
                           view: {board: ["Ah", "2c", "As"], seats: []}};
            return decodeFrame(JSON.stringify(frame)).events[0].cards;
        }""",
        WEB,
    )
    assert decoded == ["Ah", "2c", "As"]


def test_R_DR_07_a_folded_draw_player_sees_no_showdown_hand_and_the_table_does_not_break(
    page: Any,
) -> None:
    hands = page.evaluate(
        """async (web) => {
            const { showdownHands } = await import(`${web}/table/describe.js`);
            const view = {
                board: [],
                seats: [{ seat: 0, cards: ["Ah", "Ad", "Kc", "Kd", "2s"] }],
                history: [{ kind: "cards_shown", seat: 1, cards: null, reason: "showdown" }],
            };
            return showdownHands(view);
        }""",
        WEB,
    )
    assert list(hands) == ["0"]


def test_places_read_as_ordinals_in_both_languages(page):  # type: ignore[no-untyped-def]
    said = page.evaluate(
        """async (web) => {
            const i18n = await import(`${web}/i18n.js`);
            const places = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111];
            i18n.setLang("en");
            const en = places.map(i18n.ordinal);
            i18n.setLang("pt-BR");
            return {en, pt: places.map(i18n.ordinal)};
        }""",
        WEB,
    )
    assert said["en"] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th",
    ]  # fmt: skip
    assert said["pt"] == [f"{n}º" for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)]


def test_the_clients_games_are_the_servers_definitions(page: Any) -> None:
    games = page.evaluate("""async (web) => (await import(`${web}/games.js`)).allGames()""", WEB)
    assert games == [played.to_json() for played in GAMES.values()]


def omaha_name(page: Any, hole: list[str], board: list[str], lang: str = "pt-BR") -> str:
    return page.evaluate(
        """async ([web, hole, board, lang]) => {
            const i18n = await import(`${web}/i18n.js`);
            i18n.setLang(lang);
            const { gameOf } = await import(`${web}/games.js`);
            const { bestHandIn, handName } = await import(`${web}/handeval.js`);
            return handName(bestHandIn(gameOf("plo"), hole, board));
        }""",
        [WEB, hole, board, lang],
    )


@pytest.mark.parametrize(
    ("hole", "board", "name"),
    [
        # four hearts in the hand, one on the board: no flush (two plus three)
        (["Ah", "Kh", "Qh", "Jh"], ["2h", "7c", "8d", "9s", "3c"], "Carta alta, ás"),
        # four of a kind on the board plays only three of them
        (["Kd", "Kc", "2s", "3d"], ["9c", "9d", "9h", "9s", "5c"], "Full house, noves e reis"),
        # a straight needs two of the hand: the board's four to it are not enough with one
        (["Th", "2c", "2d", "3s"], ["6c", "7d", "8h", "9s", "Kc"], "Par de dois"),
        (["Ac", "Kc", "7h", "2d"], ["Qc", "Jc", "Tc", "3h", "4s"], "Royal flush"),
    ],
)
def test_R_RK_01_an_omaha_hand_is_named_from_two_hole_cards_and_three_of_the_board(
    page: Any, hole: list[str], board: list[str], name: str
) -> None:
    assert omaha_name(page, hole, board) == name


def test_R_RK_01_omaha_hand_names_in_english(page: Any) -> None:
    assert omaha_name(page, ["Ah", "Kh", "Qh", "Jh"], ["2h", "3h", "8h", "9s", "3c"], "en") == (
        "Flush, ace high"
    )


def test_the_replayer_deals_four_cards_in_an_omaha_hand(page: Any) -> None:
    events = [
        {"kind": "hand_started", "variant": "plo", "seats": [0, 1], "stacks": [500, 500],
         "config": {"small_blind": 5, "big_blind": 10, "ante": 0}, "button": 1,
         "dealt_seats": [0, 1]},
        {"kind": "blind_posted", "seat": 0, "amount": 5},
        {"kind": "blind_posted", "seat": 1, "amount": 10},
        {"kind": "hole_dealt", "seat": 0, "cards": ["Ah", "Kh", "7c", "2d"]},
        {"kind": "action", "seat": 0, "action": "fold", "added": 0},
    ]  # fmt: skip
    first, last = page.evaluate(
        """async ([web, events]) => {
            const { replayViews } = await import(`${web}/replay.js`);
            const views = replayViews(events, 0);
            return [views[0], views.at(-1)];
        }""",
        [WEB, events],
    )
    assert first["street"] == "preflop"
    assert [s["card_count"] for s in first["seats"]] == [4, 4]
    seats = {s["seat"]: s for s in last["seats"]}
    assert seats[0]["cards"] == ["Ah", "Kh", "7c", "2d"] and seats[1]["cards"] is None


def as_api(event: object) -> dict[str, object]:
    """An event as the hands API sends it: cards by name."""
    data = public_event_dict(event)  # type: ignore[arg-type]
    for name in ("cards", "new_cards"):
        if isinstance(data.get(name), list):
            data[name] = [format_card(c) for c in data[name]]
    return data


def test_R_HE_11_the_replayer_shows_both_run_outs(page):  # type: ignore[no-untyped-def]
    hand = HoldemHand.start_hand(
        HoldemConfig(5, 10, run_twice=1), [1, 2], [300, 700], 1, list(range(52))
    )
    hand.act(1, Action.raise_to(300))  # all in before the flop: nothing shared but the deal
    hand.act(2, Action.call())
    for seat in (2, 1):
        hand.choose_runs(seat, 2)
    events = [as_api(e) for e in hand.events]
    last = page.evaluate(
        """async ([web, events]) => {
            const { replayViews } = await import(`${web}/replay.js`);
            return replayViews(events, null).at(-1);
        }""",
        [WEB, events],
    )
    assert last["board"] == [format_card(c) for c in hand.board]
    assert last["second_board"] == [format_card(c) for c in hand.second_board]
    assert not set(last["board"]) & set(last["second_board"])  # all in pre-flop: two boards
    assert {s["seat"]: s["stack"] for s in last["seats"]} == hand.stacks


def test_a_silent_socket_is_given_up_and_opened_again_and_a_ping_sets_the_bound(page):
    """The heartbeat (docs/protocol.md): a ``ping`` reaches no handler but sets how long a
    silence the socket tolerates (2.5 intervals); past it, the socket is given up without
    waiting for a close that a frozen node would never send, and opened again."""
    result = page.evaluate(
        """async (web) => {
            const { RoomConnection } = await import(`${web}/connection.js`);
            const got = [];
            const states = [];
            const conn = new RoomConnection("ws://h/ws/rooms/r-1", {
                onMessage: (m) => got.push(m.type), onState: (s) => states.push(s) });
            const opened = [];
            const closes = [];  // which socket the client closed (1: the first opened)
            conn.open = () => {
                const n = opened.length + 1;
                conn.ws = { close: () => closes.push(n) };
                conn.heardAt = Date.now();
                opened.push(conn.socketUrl());
            };
            conn.open();
            conn.receive(JSON.stringify({t: "ping", seq: 0, every: 0.1}));
            const bound = conn.silenceMs;
            const first = conn.ws;
            conn.checkSilence(first);  // heard just now: kept
            const kept = conn.ws === first;
            await new Promise((done) => setTimeout(done, 300));  // silent for 3 intervals
            conn.checkSilence(first);
            const givenUp = conn.ws === null;
            await new Promise((done) => setTimeout(done, 500));  // the first backoff
            conn.close();
            return { got, bound, kept, givenUp, closes, opened: opened.length, states };
        }""",
        WEB,
    )
    assert result == {
        "got": [],  # the ping is no message for the page
        "bound": 250,
        "kept": True,
        "givenUp": True,
        "closes": [1, 2],  # the silent one, then the second at the end
        "opened": 2,
        "states": ["offline"],
    }
