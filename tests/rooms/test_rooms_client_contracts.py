"""What the table and lobby pages rely on (docs/protocol.md), on a manual clock: the turn
clock in a frame is the one of the seat now to act; every hand view names its dealt seats,
and a finished hand keeps the names after the players leave; bots are "Bot N" and pause like
people on a live server (deterministically); rooms report their average pot; refusals say
what is wrong without player ids, room ids or rule ids."""

from __future__ import annotations

import re
from random import Random
from typing import Any

from ahiko_helpers import Ahiko, act_passively, play_out, to_hand
from fastapi.testclient import TestClient
from rooms_helpers import Table, holdem_config, random_action

from ahiko.poker.actions import Action
from ahiko.poker.events import PotAwarded
from ahiko.rooms import commands as c
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.rooms.house.lobby import RECENT_POTS
from ahiko.rooms.room import AVG_POT_HANDS, Room
from ahiko.rooms.timing import BOT_DELAY_JITTER_S, BOT_DELAY_S, LIVE_TIMING, Timing
from ahiko.server.api_rooms import CreateRoom

RULE_ID = re.compile(r"R-[A-Z]{2}-\d")


def heads_up(pids: tuple[str, str] = ("ana", "bia"), **overrides: Any) -> Table:
    t = Table(holdem_config(**overrides), host=pids[0])
    t.join(pids[0], 0)
    t.join(pids[1], 1)
    t.ok(c.Start(pids[0]))
    t.to_deal()
    return t


# --- C-DEADLINE: the clock of the seat to act ---------------------------------------------------
# Issue 19: every clock also says what the seat's time bank holds, and none is running yet.
BANK = {"time_bank_running": None, "time_bank": 30.0}


def test_R_TM_01_each_turns_frame_carries_the_full_clock_of_the_seat_now_to_act() -> None:
    t = heads_up(action_deadline_s=20.0)
    hand = t.room.dealer.hand
    assert hand is not None
    first = hand.to_act
    assert first is not None
    for rec in t.conns.values():  # the deal's frame: the first actor's clock, untouched
        assert rec.of("hand")[-1]["deadline"] == {"seat": first, "seconds_left": 20.0, **BANK}
    t.advance(7.5)
    assert t.passive().ok  # A used 7.5 of their 20 seconds
    second = hand.to_act
    assert second is not None and second != first
    for rec in t.conns.values():
        frame = rec.of("hand")[-1]
        assert frame["view"]["to_act"] == second
        assert frame["deadline"] == {"seat": second, "seconds_left": 20.0, **BANK}  # B's
    t.advance(3)
    ana = t.conns["ana"]
    t.ok(c.SnapshotRequest(ana.connection_id))
    assert ana.frames[-1]["hand"]["deadline"] == {"seat": second, "seconds_left": 17.0, **BANK}


def test_R_TM_01_a_bots_turn_carries_no_leftover_clock_of_the_person_before_it() -> None:
    t = Table(holdem_config(action_deadline_s=20.0), host="ana")
    ana = t.join("ana", 0)
    t.ok(c.AddBot("ana", "easy", 1))
    t.ok(c.Start("ana"))
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None and hand.players[hand.to_act] == "ana"  # type: ignore[index]
    t.advance(5)
    # the bot answers at once (no delay in this timing) within the same job: the frame sent
    # for its turn must not carry ana's 15 seconds left as if they were the bot's
    t.passive()
    bot_turns = [f for f in ana.of("hand") if f["view"]["to_act"] == 1]
    assert bot_turns and all(f["deadline"] is None for f in bot_turns)


# --- bots pause like people on a live server -----------------------------------------------------
def record_delays(room: Room) -> list[float]:
    """Every pause the room draws for its bots, in order."""
    drawn: list[float] = []
    draw = room.turns.bot_delay

    def recorded() -> float:
        drawn.append(draw())
        return drawn[-1]

    room.turns.bot_delay = recorded  # type: ignore[method-assign]
    return drawn


def bot_delays(seed: int, turns: int = 6) -> list[float]:
    """Play a heads-up against a bot with the live timing: the pauses drawn for the bot's
    turns; each turn waits that long (to the timer's end) and no longer."""
    t = Table(holdem_config(timing=LIVE_TIMING, action_deadline_s=20.0), host="ana", seed=seed)
    delays = record_delays(t.room)
    ana = t.join("ana", 0)
    t.ok(c.AddBot("ana", "easy", 1))
    t.ok(c.Start("ana"))
    for _ in range(2000):
        if len(delays) >= turns:
            return delays[:turns]
        hand = t.room.dealer.hand
        if hand is None or hand.to_act is None:
            t.advance(0.5)
            continue
        if hand.to_act == 0:
            t.passive()
            continue
        left = t.room.timers.left("bot")
        assert left is not None, "the bot's turn waits on its timer"
        assert 0 < left <= delays[-1] + 1e-9
        assert ana.of("hand")[-1]["deadline"] is None  # no person's clock runs meanwhile
        seen = len(hand.hand.events)
        t.advance(left - 0.01)
        assert len(hand.hand.events) == seen  # still thinking
        t.advance(0.02)
        assert len(hand.hand.events) > seen  # answered
    raise AssertionError("the bot did not get enough turns")


def test_live_bots_pause_0_8_to_1_5_seconds_drawn_from_the_rooms_rng() -> None:
    assert (LIVE_TIMING.bot_delay_s, LIVE_TIMING.bot_delay_jitter_s) == (BOT_DELAY_S, 0.7)
    assert (BOT_DELAY_S, round(BOT_DELAY_S + BOT_DELAY_JITTER_S, 9)) == (0.8, 1.5)
    delays = bot_delays(seed=5)
    assert all(0.8 <= d <= 1.5 for d in delays)
    assert len(set(delays)) > 1  # a little randomness
    assert bot_delays(seed=5) == delays  # the same seed, the same pauses
    assert bot_delays(seed=6) != delays


def test_tests_timing_keeps_bots_instant_and_the_server_uses_the_live_one() -> None:
    assert (Timing().bot_delay_s, Timing().bot_delay_jitter_s) == (0.0, 0.0)
    assert CreateRoom(name="mesa").to_config().timing is LIVE_TIMING
    assert CreateRoom(name="t", kind="tournament").to_config().timing is LIVE_TIMING


def test_R_BA_01_the_bot_ahiko_pauses_like_the_other_bots(ahiko: Ahiko) -> None:
    paced = Ahiko(ahiko.engine, clock=ahiko.clock, timing=LIVE_TIMING)
    room = paced.room("iniciante")
    delays = record_delays(room)
    ana = paced.person("ana")
    assert paced.sit(room, ana, 0, 150).ok
    paced.advance(room.config.timing.bot_ahiko_wait_s)
    assert room.seats.seat_of(BOT_AHIKO_ID) is not None
    to_hand(paced, room)
    hand = room.dealer.hand
    waits = 0
    while room.dealer.hand is hand and hand is not None and hand.to_act is not None:
        if hand.players[hand.to_act] == ana:
            assert act_passively(room).ok
            continue
        left = room.timers.left("bot")
        assert left is not None and 0 < left <= delays[-1] + 1e-9
        waits += 1
        paced.advance(1.5)
    assert waits >= 1 and len(delays) >= waits
    assert all(0.8 <= d <= 1.5 for d in delays)
    paced.check()


# --- C-NAMES and C-BOTNAMES ----------------------------------------------------------------------
def test_bots_are_named_bot_n_and_their_level_travels_apart() -> None:
    t = Table(holdem_config(), host="ana")
    t.join("ana", 0)
    for level in ("hard", "normal", "easy"):
        t.ok(c.AddBot("ana", level))
    seats = t.room.summary()["seats"]
    bots = [(s["name"], s["bot_level"], s["is_bot"]) for s in seats if s["is_bot"]]
    assert bots == [("Bot 1", "hard", True), ("Bot 2", "normal", True), ("Bot 3", "easy", True)]


def test_hand_views_name_the_dealt_seats_and_a_finished_hand_keeps_them() -> None:
    t = Table(holdem_config(), host="ana")
    ana = t.join("ana", 0)
    t.join("bia", 3)
    t.ok(c.AddBot("ana", "hard", 5))
    watcher = t.connect(None)
    t.ok(c.Start("ana"))
    t.to_deal()
    names = {"0": "Ana", "3": "Bia", "5": "Bot 1"}
    hand = t.room.dealer.hand
    assert hand is not None
    for rec in (ana, watcher, t.conns["bia"]):
        frames = rec.of("hand")
        assert frames and all(f["names"] == names for f in frames)
        t.ok(c.SnapshotRequest(rec.connection_id))
        assert rec.frames[-1]["hand"]["names"] == names
    # bia and the bot leave during the hand: they go when it ends, the hand keeps their names
    t.ok(c.Leave("bia"))
    t.ok(c.RemoveBot("ana", 5))
    while t.room.dealer.hand is hand and hand.to_act is not None:
        if hand.players[hand.to_act] == "ana":
            t.passive()
        else:
            t.advance(1)
    assert t.room.dealer.hand is None and t.room.dealer.last_hand is hand
    assert [s["name"] for s in t.room.summary()["seats"]] == ["Ana"]
    t.ok(c.SnapshotRequest(watcher.connection_id))
    snapshot = watcher.frames[-1]
    assert snapshot["hand"] is None and snapshot["last_hand"]["names"] == names
    assert watcher.of("hand")[-1]["names"] == names  # the frame with the result too


# --- C-AVGPOT -------------------------------------------------------------------------------------
def pot_of(room: Room) -> int:
    hand = room.dealer.last_hand
    assert hand is not None
    return sum(e.amount for e in hand.hand.events if isinstance(e, PotAwarded))


def play_one(t: Table, rng: Random | None) -> None:
    """The hand in play, or else the next one, to its end (an all-in blind may end it at the
    deal)."""
    current = t.room.dealer.hand
    if current is None or current.phase.value != "dealt":
        dealt = t.room.dealer.hands_dealt
        for _ in range(200):
            if t.room.dealer.hands_dealt > dealt:
                break
            t.advance(1)
        assert t.room.dealer.hands_dealt == dealt + 1
    hand = t.room.dealer.hand or t.room.dealer.last_hand
    assert hand is not None
    while t.room.dealer.hand is hand and hand.to_act is not None:
        if rng is None:
            t.passive()
        else:
            assert t.act(random_action(rng, hand.legal())).ok


def test_rooms_report_the_mean_total_pot_of_their_last_20_hands() -> None:
    t = heads_up(("ana", "bia"))
    assert t.room.summary()["avg_pot"] is None  # before any hand
    rec = t.conns["ana"]
    play_one(t, None)  # call, check down: the blinds 5 and 10 make a pot of 20
    assert pot_of(t.room) == 20
    assert t.room.summary()["avg_pot"] == 20
    assert rec.of("room")[-1]["room"]["avg_pot"] == 20
    pots = [20]
    rng = Random(3)
    while len(pots) < AVG_POT_HANDS + 5:
        if any(o.stack == 0 for _, o in t.room.seats.items()):
            for pid in ("ana", "bia"):
                seat = t.room.seats.seat_of(pid)
                if t.room.seats.get(seat).stack == 0:  # type: ignore[arg-type,union-attr]
                    t.ok(c.NewEntry(pid))
        play_one(t, rng)
        pots.append(pot_of(t.room))
        last = pots[-AVG_POT_HANDS:]
        assert t.room.summary()["avg_pot"] == round(sum(last) / len(last))
    assert len(set(pots)) > 1


def test_a_reopened_ahiko_room_keeps_its_average_pot(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, 150).ok and ahiko.sit(room, bia, 3, 150).ok
    pots: list[int] = []
    for _ in range(3):
        to_hand(ahiko, room)
        play_out(room, Random(len(pots)))
        pots.append(pot_of(room))
    assert room.avg_pot == round(sum(pots) / 3)
    after = Ahiko(ahiko.engine)  # the process restarts on the same database
    actor = after.registry.get(room.room_id)
    assert actor is not None and actor.room.avg_pot == room.avg_pot
    assert all(r.avg_pot is None for r in after.rooms() if r is not actor.room)


def test_a_reopened_room_is_given_back_as_many_pots_as_its_average_counts() -> None:
    """The lobby reads back the pots the room averages, no fewer (and no more to read)."""
    assert RECENT_POTS == AVG_POT_HANDS


# --- C-ERRORS: messages for people ----------------------------------------------------------------
def assert_for_people(reply: c.Reply, code: str, *ids: str) -> None:
    assert not reply.ok and reply.code == code, reply
    assert reply.message and not RULE_ID.search(reply.message), reply.message
    for internal in ids:
        assert internal not in reply.message, (internal, reply.message)


def test_refusals_name_no_player_room_or_rule() -> None:
    t = heads_up(("pid-ana", "pid-bia"), action_deadline_s=20.0)
    room = t.room
    ids = ("pid-ana", "pid-bia", room.room_id)
    hand = room.dealer.hand
    assert hand is not None and hand.to_act is not None
    actor, other = hand.players[hand.to_act], hand.players[1 - hand.to_act]
    no = room.dealer.hand.hand_no  # type: ignore[union-attr]
    assert_for_people(t.submit(c.Act(other, no, Action.check())), "out_of_turn", *ids)
    assert_for_people(t.submit(c.Act(actor, no, Action.check(), 7)), "not_your_seat", *ids)
    assert_for_people(t.submit(c.Act("pid-caio", no, Action.fold())), "not_in_hand", *ids)
    assert_for_people(t.submit(c.Leave("pid-caio")), "not_seated", *ids, "pid-caio")
    assert_for_people(t.submit(c.NewEntry("pid-caio")), "not_seated", *ids, "pid-caio")
    assert_for_people(t.submit(c.Sit("pid-ana", "Ana", 4)), "seat", *ids)
    assert_for_people(t.submit(c.Sit("pid-caio", "Caio", 1)), "seat", *ids, "pid-caio")
    assert_for_people(t.submit(c.RemoveBot("pid-ana", 5)), "not_a_bot", *ids)
    assert_for_people(t.submit(c.Show("pid-caio", no)), "stale_hand", *ids)
    t.ok(c.Close("pid-ana"))
    assert_for_people(t.submit(c.Sit("pid-caio", "Caio", 3)), "closed", *ids)


def test_ahiko_refusals_name_no_player_room_or_rule(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    ids = (room.room_id, f"{ana} ", f" {ana}", f"{bia} ")
    assert ahiko.sit(room, ana, 0, 150).ok
    assert_for_people(ahiko.sit(room, bia, 0, 150), "seat", *ids)
    assert_for_people(ahiko.sit(room, bia, 9, 150), "seat", *ids)
    assert_for_people(ahiko.sit(room, ana, 1, 150), "seat", *ids)
    assert_for_people(room.submit(c.Reload(bia, 10, "r")), "not_seated", *ids)
    assert_for_people(room.submit(c.LeaveAfterHand(bia)), "not_seated", *ids)
    assert_for_people(room.submit(c.Leave(bia)), "not_seated", *ids)
    assert ahiko.sit(room, bia, 2, 150).ok
    assert room.submit(c.LeaveAfterHand(bia)).ok  # outside a hand: gone at once
    assert_for_people(room.submit(c.Reload(bia, 10, "r2")), "not_seated", *ids)
    ahiko.check()


# --- over HTTP ------------------------------------------------------------------------------------
def test_lobby_listings_carry_the_average_pot_and_unknown_rooms_are_not_echoed(
    client: TestClient,
) -> None:
    signed = client.post("/api/accounts", json={"username": "ana", "password": "correct horse"})
    assert signed.status_code == 201
    created = client.post("/api/rooms", json={"name": "mesa da ana"})
    assert created.status_code == 201 and created.json()["avg_pot"] is None
    listed = client.get("/api/rooms").json()  # the recreational room and the Ahiko ones
    assert len(listed) == 7 and all(r["avg_pot"] is None for r in listed)
    ahiko_rooms = client.get("/api/ahiko/rooms").json()
    assert len(ahiko_rooms) == 6 and all(r["avg_pot"] is None for r in ahiko_rooms)
    app: Any = client.app
    assert app.state.ahiko_lobby.timing is LIVE_TIMING
    assert all(r.config.timing is LIVE_TIMING for r in app.state.ahiko_lobby.rooms())
    for url in ("/api/rooms/sala-secreta-42", "/api/ahiko/rooms/sala-secreta-42/leave"):
        answer = client.get(url) if url.startswith("/api/rooms") else client.post(url, json={})
        assert answer.status_code == 404 and answer.json()["error"] == "no_room"
        assert "sala-secreta-42" not in answer.json()["message"]
