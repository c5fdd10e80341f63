"""Bots think off the event loop (``ahiko.rooms.thinking``): an answer is played only if the
turn it was asked about is still the turn to play, a failed bot is answered for by the
timeout rule, and on the real clock bots think on worker threads and still play whole hands."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from random import Random

import pytest
from rooms_helpers import Recorder, Table, holdem_config

from ahiko.poker.actions import Action
from ahiko.poker.events import ActionTaken
from ahiko.rooms import commands as c
from ahiko.rooms.clock import AsyncioClock, ManualClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.room import Room
from ahiko.rooms.thinking import (
    BOT_THINKING_LIMIT_S,
    Decide,
    Deliver,
    think_on_threads,
    thinker_for,
)


@dataclass
class HeldRequest:
    cancelled: bool = False

    def cancel(self) -> bool:
        self.cancelled = True
        return True


class HeldThinker:
    """Keeps every request until the test delivers it: thinking that takes a while."""

    def __init__(self) -> None:
        self.asked: list[tuple[Decide, Deliver]] = []
        self.requests: list[HeldRequest] = []

    def __call__(self, decide: Decide, deliver: Deliver) -> HeldRequest:
        self.asked.append((decide, deliver))
        self.requests.append(HeldRequest())
        return self.requests[-1]

    def answer(self, k: int = -1) -> None:
        decide, deliver = self.asked[k]
        deliver(decide())


def _table_with_a_thinking_bot(thinker: HeldThinker) -> Table:
    """A person ("ana", the host, seat 0: R-RM-03 D) against one bot; the bot is to act
    first pre-flop."""
    t = Table(holdem_config(seats=2))
    t.room = Room(
        "t-1",
        t.room.config,
        clock=t.clock,
        host_id="ana",
        rng=Random(7),
        think=thinker,
        deliver=t.subscribers.deliver,
    )
    t.join("ana", 0)
    t.ok(c.AddBot("ana", "random", seat=1))
    t.ok(c.Start("ana"))
    t.to_deal()
    while t.room.dealer.hand is not None and t.to_act_pid == "ana":
        t.passive()
    return t


def _moves_since(t: Table, mark: int) -> list[ActionTaken]:
    hand = t.room.dealer.hand or t.room.dealer.last_hand
    assert hand is not None
    return [e for e in hand.engine.events[mark:] if isinstance(e, ActionTaken)]


def _log_length(t: Table) -> int:
    assert t.room.dealer.hand is not None
    return len(t.room.dealer.hand.engine.events)


def _bot_seat(t: Table) -> int:
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None and hand.players[hand.to_act] != "ana"
    return hand.to_act


def test_R_AI_01_a_bot_answer_is_played_when_it_arrives_not_before() -> None:
    thinker = HeldThinker()
    t = _table_with_a_thinking_bot(thinker)
    seat = _bot_seat(t)
    assert len(thinker.asked) == 1
    mark = _log_length(t)
    t.advance(BOT_THINKING_LIMIT_S / 2)  # nothing happens while it thinks
    assert _moves_since(t, mark) == []
    thinker.answer()
    assert [m.seat for m in _moves_since(t, mark)][:1] == [seat]


def test_R_AI_01_an_answer_for_an_older_turn_is_dropped() -> None:
    thinker = HeldThinker()
    t = _table_with_a_thinking_bot(thinker)
    seat = _bot_seat(t)
    t.ok(c.Pause("ana"))
    t.ok(c.Resume("ana"))  # the turn is armed again: the bot is asked anew
    assert len(thinker.asked) == 2
    assert thinker.requests[0].cancelled  # dropped before any thread took it up
    mark = _log_length(t)
    thinker.answer(0)  # the first, stale answer changes nothing
    assert _moves_since(t, mark) == []
    thinker.answer(1)
    assert [m.seat for m in _moves_since(t, mark)][:1] == [seat]


def test_R_TM_01_a_bot_that_fails_is_answered_for_by_the_timeout_rule() -> None:
    thinker = HeldThinker()
    t = _table_with_a_thinking_bot(thinker)
    seat = _bot_seat(t)
    hand = t.room.dealer.hand
    assert hand is not None
    legal = hand.legal()
    mark = _log_length(t)
    _, deliver = thinker.asked[-1]
    deliver(None)
    move = _moves_since(t, mark)[0]
    assert (move.seat, move.action) == (seat, "check" if legal.can_check else "fold")


def test_R_TM_01_a_bot_thinking_too_long_is_answered_for_and_its_late_answer_dropped() -> None:
    thinker = HeldThinker()
    t = _table_with_a_thinking_bot(thinker)
    seat = _bot_seat(t)
    legal = t.room.dealer.hand.legal()  # type: ignore[union-attr]
    mark = _log_length(t)
    t.advance(BOT_THINKING_LIMIT_S)
    move = _moves_since(t, mark)[0]
    assert (move.seat, move.action) == (seat, "check" if legal.can_check else "fold")
    after = len(_moves_since(t, mark))
    thinker.answer(0)  # it finally answers: too late
    assert len(_moves_since(t, mark)) == after


def test_R_AI_01_a_late_answer_after_the_room_closed_changes_nothing() -> None:
    thinker = HeldThinker()
    t = _table_with_a_thinking_bot(thinker)
    t.ok(c.Close("ana"))
    thinker.answer(0)
    assert t.room.dealer.hand is None or t.room.dealer.hand.is_over
    assert t.room.chips_in == t.room.chips_out + sum(o.stack for _, o in t.room.seats.items())


def test_a_bot_that_raises_on_a_thread_is_logged_and_answered_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def ask() -> list[Action | None]:
        delivered: list[Action | None] = []
        got = asyncio.Event()

        def fail() -> Action:
            raise RuntimeError("bot bug")

        def deliver(action: Action | None) -> None:
            delivered.append(action)
            got.set()

        think_on_threads(fail, deliver)
        await asyncio.wait_for(got.wait(), 5)
        return delivered

    assert asyncio.run(ask()) == [None]
    assert any("bot bug" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)


def test_bots_answer_inline_on_the_manual_clock_and_on_threads_on_the_real_one() -> None:
    assert thinker_for(ManualClock()) is None
    assert thinker_for(AsyncioClock()) is think_on_threads


def test_R_AI_01_bots_on_threads_play_whole_hands_on_the_real_clock() -> None:
    async def play() -> tuple[int, set[str]]:
        registry = RoomRegistry(clock=AsyncioClock(speed=200))
        actor = registry.create(holdem_config(seats=4, action_deadline_s=5), host_id="ana")
        threads: set[str] = set()
        room = actor.room
        ana = Recorder("ana")
        actor.subscribe(ana.connection_id, ana.deliver)
        assert (await actor.ask(c.Connect(ana.connection_id, "ana"))).ok
        assert (await actor.ask(c.Sit("ana", "Ana", 0))).ok  # answered for by the clock
        for level in ("hard", "normal", "easy"):
            bot_reply = await actor.ask(c.AddBot("ana", level))
            assert bot_reply.ok, bot_reply
        for bot in room.bots.values():
            decide = bot.decide

            def spy(view: object, rng: Random, decide: object = decide) -> Action:
                threads.add(threading.current_thread().name)
                return decide(view, rng)  # type: ignore[operator]

            bot.decide = spy  # type: ignore[method-assign]
        assert (await actor.ask(c.Start("ana"))).ok
        for _ in range(600):
            await asyncio.sleep(0.01)
            if room.dealer.hands_dealt >= 3 and room.dealer.hand is None:
                break
            ana = room.seats.get(0)
            if ana is not None and ana.sitting_out:  # two timeouts in a row sat her out
                assert (await actor.ask(c.SitOut("ana", on=False))).ok
        await registry.stop_all()
        return room.dealer.hands_dealt, threads

    dealt, threads = asyncio.run(play())
    assert dealt >= 3
    assert threads and all(name.startswith("ahiko-bot") for name in threads)
