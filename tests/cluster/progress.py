"""Waiting on a worker process by its progress, not by a fixed wall clock (issue 41).

A test of the cluster waits for what a worker process does (its writes, its takeover). On a
machine loaded by other jobs a worker that needs two seconds alone may need thirty to import
and connect; a fixed deadline then fails a healthy worker. ``wait_on`` gives up only when the
worker *stopped progressing*: it exited, or for ``stall_s`` it neither printed a line nor used
any CPU time (read from ``/proc``, so a process frozen with SIGSTOP, or stuck waiting, counts
as stalled and a busy one does not)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

STALL_S = 30.0


def cpu_ticks(pid: int) -> int | None:
    """User plus system CPU time of ``pid`` in clock ticks; None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)


def wait_on(
    workers: list[tuple[subprocess.Popen[str], list[str]]],
    predicate: Callable[[], bool],
    what: str,
    stall_s: float = STALL_S,
) -> None:
    """Until ``predicate()``; fails when every worker stalled for ``stall_s`` (no new output
    line, no CPU time), or when one of them exited meanwhile."""
    last = [(len(out), cpu_ticks(p.pid)) for p, out in workers]
    moved = time.monotonic()
    while not predicate():
        for process, out in workers:
            if process.poll() is not None and not predicate():
                raise AssertionError(f"a worker exited waiting for {what}: {out[-5:]}")
        now = [(len(out), cpu_ticks(p.pid)) for p, out in workers]
        if now != last:
            last, moved = now, time.monotonic()
        stalled = time.monotonic() - moved
        assert stalled < stall_s, f"no progress for {stall_s} s waiting for {what}: " + str(
            [out[-5:] for _, out in workers]
        )
        time.sleep(0.02)
