"""The young generation of the cyclic collector, collected on a clock.

CPython 3.11 counts its young generation as allocations minus deallocations of *any*
tracked object, old ones included. A server whose heap turns over (each hand's objects
replacing the last one's) keeps that count near zero while every object made since the
last pass piles up in the young list; the pass then comes rarely and walks the whole
churned heap (at 8,000 players: one pass a minute, 300-550 ms each, the node serving
nobody meanwhile). A pass every ``AHIKO_GC_YOUNG_S`` seconds walks only what was made since
the last one (at 4,000 players: 5,000-20,000 objects, 3 ms).

>>> young_interval({})
0.25
>>> young_interval({"AHIKO_GC_YOUNG_S": "0"})  # off: only the collector's own thresholds
0.0
>>> young_interval({"AHIKO_GC_YOUNG_S": "soon"})
Traceback (most recent call last):
...
ValueError: AHIKO_GC_YOUNG_S is 'soon': give seconds between 0 (off) and 60, e.g. 0.25
"""

from __future__ import annotations

import asyncio
import gc
import math
import os
from collections.abc import Mapping

YOUNG_INTERVAL_S = 0.25
MAX_YOUNG_INTERVAL_S = 60.0


def young_interval(env: Mapping[str, str] = os.environ) -> float:
    """``AHIKO_GC_YOUNG_S`` (seconds between passes over the young generation; 0 turns the
    clock off), else the default; ValueError naming the setting when it is not that."""
    given = env.get("AHIKO_GC_YOUNG_S", "").strip()
    if not given:
        return YOUNG_INTERVAL_S
    try:
        seconds = float(given)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_YOUNG_INTERVAL_S:  # NaN fails too
        raise ValueError(
            f"AHIKO_GC_YOUNG_S is {given!r}: give seconds between 0 (off) and "
            f"{MAX_YOUNG_INTERVAL_S:.0f}, e.g. {YOUNG_INTERVAL_S}"
        )
    return seconds


async def collect_young(interval: float) -> None:
    """Collect the young generation every ``interval`` seconds, for ever (cancel to stop),
    and the middle one instead every ``threshold1``-th time (``gc.get_threshold()``): the
    collector's own count, which would have done that, is the one that stays near zero."""
    passes = 0
    while True:
        await asyncio.sleep(interval)
        passes += 1
        gc.collect(1 if passes % max(1, gc.get_threshold()[1]) == 0 else 0)
