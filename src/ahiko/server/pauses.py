"""Where a node stops serving: the cyclic collector's passes and the event loop's lateness.

A player's latency at scale is made by the moments the node serves nobody, not by its
average CPU (a node at 60% of a core already missed p99 < 50 ms). This module
counts both kinds of moment, as cumulative counters and fixed-bucket histograms an operator
or a bench can read twice and subtract (``GET /api/health/pauses``).

>>> pauses = PauseMonitor()
>>> pauses.record_gc(2, 0.030)
>>> pauses.record_lag(0.004)
>>> snapshot = pauses.snapshot()
>>> snapshot["gc"]["2"]["count"], snapshot["gc"]["2"]["longest_ms"]
(1, 30.0)
>>> snapshot["loop_lag"]["buckets_ms"]["5"]
1
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# Upper bounds of the histograms' buckets, in milliseconds; the last bucket is open.
BUCKET_BOUNDS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
# How often the loop watcher wakes: its own cost is a few microseconds a wake.
LAG_INTERVAL_S = 0.02
# AHIKO_STALL_STACKS=1: a thread samples the loop's stack while the loop is this late
# (a diagnostic: the sampling thread takes the GIL every few milliseconds).
STALL_AFTER_S = 0.02
STALL_SAMPLE_S = 0.005
STALL_FRAMES = 14


@dataclass
class Histogram:
    count: int = 0
    total_s: float = 0.0
    longest_s: float = 0.0
    buckets: list[int] = field(default_factory=lambda: [0] * (len(BUCKET_BOUNDS_MS) + 1))

    def add(self, seconds: float) -> None:
        self.count += 1
        self.total_s += seconds
        self.longest_s = max(self.longest_s, seconds)
        milliseconds = seconds * 1000
        for index, bound in enumerate(BUCKET_BOUNDS_MS):
            if milliseconds <= bound:
                self.buckets[index] += 1
                return
        self.buckets[-1] += 1

    def as_dict(self) -> dict[str, Any]:
        labels = [str(bound) for bound in BUCKET_BOUNDS_MS] + ["more"]
        return {
            "count": self.count,
            "total_ms": round(self.total_s * 1000, 3),
            "longest_ms": round(self.longest_s * 1000, 3),
            "buckets_ms": dict(zip(labels, self.buckets, strict=True)),
        }


class PauseMonitor:
    """The collector's passes by generation (``install``) and how late the event loop wakes
    a task that asked to sleep ``LAG_INTERVAL_S`` (``watch_loop``)."""

    def __init__(self) -> None:
        self.gc = {generation: Histogram() for generation in range(3)}
        self.loop_lag = Histogram()
        self.collected = [0, 0, 0]  # unreachable objects each generation's passes freed
        self._gc_began: float | None = None
        self._woke = time.perf_counter()
        self.stalls: Counter[str] | None = None  # stack -> samples, when sampling

    def install(self) -> None:
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)

    def uninstall(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        elif self._gc_began is not None:
            seconds = time.perf_counter() - self._gc_began
            self.record_gc(info["generation"], seconds, info.get("collected", 0))
            self._gc_began = None

    def record_gc(self, generation: int, seconds: float, collected: int = 0) -> None:
        self.gc[generation].add(seconds)
        self.collected[generation] += collected

    def record_lag(self, seconds: float) -> None:
        self.loop_lag.add(max(0.0, seconds))

    async def watch_loop(self, interval: float = LAG_INTERVAL_S) -> None:
        if os.environ.get("AHIKO_STALL_STACKS") == "1":
            self.sample_stalls(threading.get_ident(), interval)
        while True:
            asked = self._woke = time.perf_counter()
            await asyncio.sleep(interval)
            self.record_lag(time.perf_counter() - asked - interval)
            self._woke = time.perf_counter()

    def sample_stalls(self, loop_thread: int, interval: float) -> None:
        """Start a daemon thread that, while the loop is more than ``STALL_AFTER_S`` late,
        counts the loop thread's stack every ``STALL_SAMPLE_S`` (one sample is about that
        long a stall in that stack)."""
        stalls: Counter[str] = Counter()
        self.stalls = stalls

        def sample() -> None:
            while True:
                time.sleep(STALL_SAMPLE_S)
                if time.perf_counter() - self._woke < interval + STALL_AFTER_S:
                    continue
                frame = sys._current_frames().get(loop_thread)
                names: list[str] = []
                while frame is not None and len(names) < STALL_FRAMES:
                    code = frame.f_code
                    names.append(f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_name}")
                    frame = frame.f_back
                stalls[" < ".join(names)] += 1

        threading.Thread(target=sample, name="stall-sampler", daemon=True).start()

    def snapshot(self) -> dict[str, Any]:
        return {
            "gc": {str(generation): self.gc[generation].as_dict() for generation in range(3)},
            "gc_collected": {str(g): self.collected[g] for g in range(3)},
            "gc_frozen_objects": gc.get_freeze_count(),
            "loop_lag": self.loop_lag.as_dict(),
            "loop_lag_interval_ms": LAG_INTERVAL_S * 1000,
            "stall_stacks": None if self.stalls is None else dict(self.stalls.most_common(25)),
        }
