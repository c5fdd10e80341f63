"""`ahiko serve`'s process settings for load (issue 9): the collector tuned after start-up."""

from __future__ import annotations

import gc

import pytest

from ahiko.server.cli import GC_THRESHOLDS, WS_MAX_BYTES, gc_thresholds, tune_gc
from ahiko.server.gateway import MAX_FRAME_BYTES


def test_tune_gc_freezes_start_up_objects_and_raises_the_young_thresholds() -> None:
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS == (50_000, 5, 2000)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_websocket_size_limit_leaves_room_for_every_valid_client_frame() -> None:
    assert MAX_FRAME_BYTES < WS_MAX_BYTES <= 65536


def test_the_collector_thresholds_can_be_set_and_a_bad_setting_is_named() -> None:
    assert gc_thresholds({}) == GC_THRESHOLDS
    assert gc_thresholds({"AHIKO_GC_THRESHOLDS": " 5000, 20,10 "}) == (5000, 20, 10)
    assert gc_thresholds({"AHIKO_GC_THRESHOLDS": "700"}) == (700,)
    for bad in ("fast", "1,2,3,4", "5000,-1", "5000,,10"):
        with pytest.raises(ValueError, match="AHIKO_GC_THRESHOLDS is"):
            gc_thresholds({"AHIKO_GC_THRESHOLDS": bad})
    before = gc.get_threshold()
    try:
        tune_gc({"AHIKO_GC_THRESHOLDS": "9000,40,80"})
        assert gc.get_threshold() == (9000, 40, 80)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
