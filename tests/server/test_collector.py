"""The collector's young generation on a clock (issue 21: 300-550 ms passes at 8,000 players)."""

from __future__ import annotations

import asyncio
import collections
import doctest
import gc
import time
from collections.abc import Iterator
from typing import Any

import pytest

import ahiko.server.collector
from ahiko.cli import main
from ahiko.server.cli import GC_THRESHOLDS
from ahiko.server.collector import collect_young


def test_the_documented_examples_hold() -> None:
    assert doctest.testmod(ahiko.server.collector, raise_on_error=False).failed == 0


@pytest.fixture
def served_thresholds() -> Iterator[None]:
    """The thresholds ``ahiko serve`` runs with (``tune_gc``), put back afterwards."""
    before = gc.get_threshold()
    gc.collect()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _churn(slots: collections.deque[dict[str, Any]], rounds: int, start: int) -> None:
    """Each old "hand" replaced by a new one: the heap keeps its size and turns over."""
    for k in range(start, start + rounds):
        slots.popleft()
        slots.append({"stack": [k, k], "seat": {"cards": [k]}})


def test_a_turning_heap_piles_up_in_the_young_generation_without_the_clock(
    served_thresholds: None,
) -> None:
    """Why the clock: the old objects' deaths pay for the new ones' births in CPython's
    count, so the count never reaches the threshold while the young list grows to the whole
    turned-over heap (the objects a pass will then walk)."""
    slots = collections.deque({"stack": [k, k], "seat": {"cards": [k]}} for k in range(30_000))
    gc.collect()  # all of it old now
    _churn(slots, 30_000, 0)
    assert gc.get_count()[0] < 50_000  # no pass was due...
    assert len(gc.get_objects(0)) >= 4 * 30_000  # ...yet every new object is young


def test_the_clock_keeps_the_young_generation_to_what_was_made_since_the_last_pass(
    served_thresholds: None,
) -> None:
    slots = collections.deque({"stack": [k, k], "seat": {"cards": [k]}} for k in range(30_000))
    gc.collect()
    passes: list[int] = []

    def count_young_passes(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 0:
            passes.append(1)

    async def churn_with_the_clock() -> int:
        collector = asyncio.create_task(collect_young(0.01))
        largest = 0
        try:
            for start in range(0, 30_000, 1_000):
                _churn(slots, 1_000, start)
                await asyncio.sleep(0.02)  # the clock's pass runs meanwhile
                largest = max(largest, len(gc.get_objects(0)))
        finally:
            collector.cancel()
        return largest

    gc.callbacks.append(count_young_passes)
    try:
        largest = asyncio.run(churn_with_the_clock())
    finally:
        gc.callbacks.remove(count_young_passes)
    assert len(passes) >= 10
    assert largest < 30_000  # a few thousand objects a pass, not the 120,000 turned over


def test_the_clock_collects_the_middle_generation_every_threshold1_passes() -> None:
    before = gc.get_threshold()
    generations: list[int] = []

    def count_passes(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    async def run_the_clock() -> None:
        # Until the clock has made nine passes, however long a loaded machine takes: a pass
        # count, not a wall clock (pytest-timeout bounds a clock that never runs).
        collector = asyncio.create_task(collect_young(0.005))
        while len(generations) < 9:
            await asyncio.sleep(0.01)
        collector.cancel()

    gc.set_threshold(10**9, 3, 100)  # no pass of the collector's own meanwhile
    gc.callbacks.append(count_passes)
    try:
        asyncio.run(run_the_clock())
    finally:
        gc.callbacks.remove(count_passes)
        gc.set_threshold(*before)
    assert generations.count(1) >= 3 and generations.count(0) >= 2 * generations.count(1)
    assert 2 not in generations


def test_serve_refuses_a_malformed_young_interval_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    monkeypatch.setenv("AHIKO_GC_YOUNG_S", "-1")
    started = time.monotonic()
    assert main(["serve", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "AHIKO_GC_YOUNG_S is '-1'" in err and time.monotonic() - started < 30
