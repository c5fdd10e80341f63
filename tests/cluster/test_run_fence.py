"""Issue 41: a run of a room writes under one fencing token for its whole life, and a run its
node dropped does nothing more. Node A owned a room (token 1), lost it to B (token 2) while
frozen, and owns it again later (token 3): a write A's first run had set off is refused,
even though A's current token is the newest, and the refusal does not drop A's new run; the
dropped run's timers never fire."""

from __future__ import annotations

import asyncio
import contextvars

import pytest

from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.run_clock import RunClock
from ahiko.store.engine import make_engine
from ahiko.store.fences import FenceBook, FencedOut, claim_fence, install_fences, run_context
from ahiko.store.rooms import SeatRecord, load_rooms, save_room
from ahiko.store.writer import Outcome, ThreadWriter
from store_helpers import save_seats

pytestmark = pytest.mark.cluster


def _retake(database_url: str):  # type: ignore[no-untyped-def]
    """A owned r1 (token 1) and began a run; B took it (2); A took it back (3)."""
    node_a, node_b = make_engine(database_url), make_engine(database_url)
    fenced: list[str] = []
    book_a, book_b = FenceBook("a", on_fenced=fenced.append), FenceBook("b")
    install_fences(node_a, book_a)
    install_fences(node_b, book_b)
    claim_fence(node_a, "r1", 1, "a")
    book_a.hold("r1", 1)
    save_room(node_a, "r1", "ahiko", {"tier": "micro"})
    first_run = run_context("r1", book_a)
    book_a.drop("r1")  # frozen past its lease: B takes the room
    claim_fence(node_b, "r1", 2, "b")
    book_b.hold("r1", 2)
    save_seats(node_b, "r1", [SeatRecord(1, "bot", "b-seat", 100)])
    claim_fence(node_a, "r1", 3, "a")  # ... and later A owns it again, a new run
    book_a.hold("r1", 3)
    return node_a, node_b, book_a, fenced, first_run


def test_a_write_of_a_dropped_run_is_refused_after_its_node_owns_the_room_again(
    database_url: str,
) -> None:
    node_a, node_b, book_a, fenced, first_run = _retake(database_url)
    try:
        with pytest.raises(FencedOut) as refused:
            first_run.run(save_seats, node_a, "r1", [SeatRecord(1, "bot", "a-old-run", 7)])
        assert refused.value.token == 1 and refused.value.newest == 3
        assert fenced == []  # the node's current run is not the one fenced out
        second_run = run_context("r1", book_a)
        second_run.run(save_seats, node_a, "r1", [SeatRecord(1, "bot", "a-new-run", 100)])
        [room] = load_rooms(node_b)
        assert [(s.name, s.stack) for s in room.seats] == [("a-new-run", 100)]
    finally:
        node_a.dispose()
        node_b.dispose()


def test_a_write_queued_by_a_run_carries_its_token_to_the_writer_thread(
    database_url: str,
) -> None:
    """The write is submitted while the run owns the room and runs on a worker thread after
    the node lost it and owned it again: it is checked under the run's token (1), refused."""
    node_a, node_b, _, fenced, first_run = _retake(database_url)
    writer = ThreadWriter(threads=1)

    async def scenario() -> list[Outcome[None]]:
        outcomes: list[Outcome[None]] = []
        landed = asyncio.Event()

        def done(outcome: Outcome[None]) -> None:
            outcomes.append(outcome)
            landed.set()

        def job() -> None:
            save_seats(node_a, "r1", [SeatRecord(1, "bot", "a-queued", 5)])

        first_run.run(writer.submit, "r1", job, done)
        await asyncio.wait_for(landed.wait(), 60)
        return outcomes

    try:
        [outcome] = asyncio.run(scenario())
        assert isinstance(outcome.error, FencedOut), outcome
        assert outcome.error.token == 1
        assert fenced == []
        [room] = load_rooms(node_b)
        assert [s.name for s in room.seats] == ["b-seat"]
    finally:
        writer.close()
        node_a.dispose()
        node_b.dispose()


def test_a_stopped_run_cancels_its_timers_and_sets_no_more() -> None:
    clock = ManualClock()
    run = RunClock(clock)
    fired: list[str] = []
    run.call_later(1, lambda: fired.append("deadline"))
    run.call_later(120, lambda: fired.append("absence"))
    clock.advance(1)
    assert fired == ["deadline"] and run.live == 1
    run.stop()
    run.call_later(0, lambda: fired.append("after the stop"))
    assert clock.advance(300) == 0
    assert fired == ["deadline"] and run.live == 0


def test_a_run_clock_runs_its_callbacks_in_the_runs_context() -> None:
    marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="none")
    context = contextvars.Context()
    context.run(marker.set, "run-1")
    clock = ManualClock()
    seen: list[str] = []
    RunClock(clock, context).call_later(1, lambda: seen.append(marker.get()))
    clock.advance(1)
    assert seen == ["run-1"] and marker.get() == "none"


def test_a_room_its_node_dropped_fires_no_timer_and_takes_no_command() -> None:
    """``RoomRegistry.forget`` (the node lost the room): every timer of that run is cancelled,
    a command to the forgotten actor is refused as a closed room's, a late bot answer is
    ignored."""
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    actor = registry.create(RoomConfig(name="dropped"), room_id="r-dropped")
    actor.room.tell(lambda: None)  # something scheduled on the run's clock
    assert actor.run_clock is not None and actor.run_clock.live >= 1
    registry.forget("r-dropped")
    assert actor.run_clock.live == 0 and actor.room.stopped
    late: list[int] = []
    actor.room.fire(lambda: late.append(1))
    assert late == []
    reply = asyncio.run(actor.ask(c.SnapshotRequest("p1")))
    assert not reply.ok and reply.code == "closed"
