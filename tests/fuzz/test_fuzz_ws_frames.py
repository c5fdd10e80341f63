"""Random WebSocket frames against a live table (issue 9): the server never crashes, a frame
it refuses changes nothing (the table before and after is the same), and the table keeps
playing afterwards. The fuzzer is the seat to act in a room without a deadline, beside two
bots, so that the table stands still while it is fuzzed."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "security"))
from live_table import (
    ServerProcess,
    create_room,
    open_socket,
    running_server,
    sign_up,
    until,
)

pytestmark = pytest.mark.xdist_group("fuzz_live")
FAST = {"AHIKO_BENCH_SPEED": "20", "AHIKO_WS_FRAME_LIMIT": "100000/1"}
ME = 0

JSON_LEAF = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# Frames shaped like ours, with wrong or hostile values. Commands that legitimately reshape
# the room (leave, close, pause, add/remove bots) are the rooms' own tests' business.
FRAME = st.fixed_dictionaries(
    {
        "t": st.sampled_from(
            ["act", "sit", "show", "new_entry", "start", "resume", "x", "", "ACT"]
        ),
        "id": st.one_of(st.text(max_size=70), st.integers(), st.none()),
    },
    optional={
        "hand_no": st.one_of(st.integers(-5, 2**40), st.text(max_size=4), st.none()),
        "action": st.sampled_from(
            ["fold", "check", "call", "bet", "raise", "discard", "allin", ""]
        ),
        "amount": st.one_of(
            st.integers(-(10**12), 10**12), st.floats(allow_nan=False), st.text(max_size=5)
        ),
        "cards": st.lists(st.sampled_from(["Ah", "2c", "Td", "1x", "", "AhAh", "ah"]), max_size=6),
        "seat": st.one_of(st.integers(-3, 12), st.text(max_size=3)),
        "extra": JSON,
    },
)
RAW = st.one_of(
    st.text(max_size=200),
    JSON.map(json.dumps),
    FRAME.map(json.dumps),
)


class Fuzzer:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.n = 0

    def ask(self, frame: dict[str, Any]) -> dict[str, Any]:
        self.ws.send(json.dumps(frame))
        return until(self.ws, lambda f: f["t"] in ("ack", "error") and f.get("id") == frame["id"])

    def table(self) -> dict[str, Any]:
        """The room and the hand as this seat sees them (the clock left out)."""
        self.n += 1
        self.ws.send(json.dumps({"t": "snapshot", "id": f"s{self.n}"}))
        snapshot = until(self.ws, lambda f: f["t"] == "snapshot")
        until(self.ws, lambda f: f["t"] == "ack" and f["id"] == f"s{self.n}")
        for part in (snapshot.get("hand"), snapshot.get("last_hand")):
            if part:
                part.pop("deadline", None)
        snapshot.pop("seq")
        return snapshot

    def my_turn(self, timeout: float = 20) -> dict[str, Any]:
        """Waits until this seat is to act (after a new entry if it went broke, R-RM-06);
        returns the hand frame's view."""
        while True:
            snapshot = self.table()
            hand = snapshot.get("hand") or {}
            view = hand.get("view") or {}
            if view.get("to_act") == ME and view.get("legal"):
                return {"hand_no": hand["hand_no"], **view}
            mine = next(s for s in snapshot["room"]["seats"] if s["seat"] == ME)
            if mine["stack"] == 0 and not hand:
                self.ask({"t": "new_entry", "id": f"n{self.n}"})
            try:
                until(self.ws, lambda f: f["t"] in ("hand", "room", "commitment"), timeout)
            except TimeoutError:
                raise AssertionError(f"the table stopped: {snapshot}") from None

    def answer(self, view: dict[str, Any]) -> None:
        legal = view["legal"]
        # Keep our chips: the point is to see hands go by.
        cheap = "call" if legal["call_cost"] <= 50 else "fold"
        action = "check" if legal["can_check"] else cheap
        reply = self.ask(
            {"t": "act", "id": f"p{self.n}", "hand_no": view["hand_no"], "action": action}
        )
        assert reply["t"] == "ack", reply


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with running_server(env=FAST) as running:
        yield running


@pytest.fixture(scope="module")
def fuzzer(server: ServerProcess) -> Iterator[Fuzzer]:
    cookie = sign_up(server, "fuzzer")
    room_id = create_room(server, cookie, starting_chips=100_000)
    with open_socket(server, room_id, cookie) as ws:
        fuzzer = Fuzzer(ws)
        assert fuzzer.ask({"t": "sit", "id": "sit", "seat": ME})["t"] == "ack"
        for seat in (3, 5):
            reply = fuzzer.ask(
                {"t": "add_bot", "id": f"bot{seat}", "level": "random", "seat": seat}
            )
            assert reply["t"] == "ack", reply
        assert fuzzer.ask({"t": "start", "id": "start"})["t"] == "ack"
        yield fuzzer


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(raw=RAW)
def test_random_frames_never_change_the_table_when_refused(fuzzer: Fuzzer, raw: str) -> None:
    fuzzer.my_turn()
    before = fuzzer.table()
    fuzzer.ws.send(raw)
    try:
        frame_id = json.loads(raw).get("id")
    except (ValueError, AttributeError):
        frame_id = None
    reply = until(fuzzer.ws, lambda f: f["t"] in ("ack", "error"))
    if reply["t"] == "error":
        assert (
            reply["id"] == (frame_id if isinstance(frame_id, str) else None) or reply["id"] is None
        )
        assert reply["code"] and reply["message"]
        assert fuzzer.table() == before, f"{raw!r} was refused but changed the table"


def test_the_table_keeps_playing_after_the_fuzzing(server: ServerProcess, fuzzer: Fuzzer) -> None:
    start = fuzzer.my_turn()["hand_no"]
    while True:
        view = fuzzer.my_turn()
        if view["hand_no"] >= start + 2:
            break
        fuzzer.answer(view)
    assert server.proc is not None and server.proc.poll() is None
    assert "Traceback" not in server.log_path.read_text(errors="replace")
