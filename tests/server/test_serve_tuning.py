"""`ahiko serve`'s process settings for load (issue 9): the collector tuned after start-up."""

from __future__ import annotations

import gc

from ahiko.server.cli import WS_MAX_BYTES, tune_gc
from ahiko.server.gateway import MAX_FRAME_BYTES


def test_tune_gc_freezes_start_up_objects_and_raises_the_young_thresholds() -> None:
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == (50_000, 50, 100)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_websocket_size_limit_leaves_room_for_every_valid_client_frame() -> None:
    assert MAX_FRAME_BYTES < WS_MAX_BYTES <= 65536
