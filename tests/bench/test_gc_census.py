"""``bench/load.py --experiment gc_census``: before a pass of the cyclic collector, the objects
that pass walks are counted by type."""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load_server import census_collections


class Marker:
    """A tracked object of a type nothing else makes."""


def test_a_young_pass_is_counted_with_what_it_walks(tmp_path: Path) -> None:
    out = tmp_path / "census.json"
    was_enabled = gc.isenabled()
    gc.disable()  # no automatic pass between the markers and the one counted
    callback = census_collections(out, every=1)
    try:
        markers = [Marker() for _ in range(100)]
        gc.collect(0)
    finally:
        gc.callbacks.remove(callback)
        if was_enabled:
            gc.enable()
    report = json.loads(out.read_text())
    young = report["gen0"]
    assert young["passes"] == 1 and young["sampled"] == 1
    assert young["objects_per_pass"] >= len(markers)
    assert dict(young["top"])[f"{__name__}.Marker"] == len(markers)
    assert report["gen1"]["sampled"] == 0


def test_only_every_nth_pass_is_counted(tmp_path: Path) -> None:
    out = tmp_path / "census.json"
    callback = census_collections(out, every=3)
    try:
        for _ in range(7):
            gc.collect(0)
    finally:
        gc.callbacks.remove(callback)
    young = json.loads(out.read_text())["gen0"]
    # the report is written when a pass is counted: the 3rd, the 6th (and any automatic ones)
    assert young["sampled"] >= 2 and young["passes"] == 3 * young["sampled"]
