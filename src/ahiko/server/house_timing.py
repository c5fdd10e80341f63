"""The durations of the house's Ahiko rooms on a live server: the rules' own (``LIVE_TIMING``,
an action deadline of 20 s, R-RM-11; the absence withdrawal after two minutes, R-TM-03),
unless a test or a drill shrinks them.

A fault drill checks that something does *not* happen: the timers a dropped run of a room had
set (its action deadline, its players' absence withdrawal) must never fire. It has to wait
until they would have, and at the rules' durations that is more than two minutes a round.
``AHIKO_ACTION_DEADLINE_S`` and ``AHIKO_ABSENCE_WITHDRAWAL_S`` shorten that horizon for
the suite's cluster tests, and ``AHIKO_NEXT_HAND_DELAY_S`` (R-RM-11's eight seconds) lets a
drill that needs many hands deal them sooner; a site leaves them unset (a server that reads
one logs a warning)."""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Mapping

from ahiko.rooms.timing import AHIKO_ACTION_DEADLINE_S, LIVE_TIMING, Timing

log = logging.getLogger(__name__)

DEADLINE_ENV = "AHIKO_ACTION_DEADLINE_S"
ABSENCE_ENV = "AHIKO_ABSENCE_WITHDRAWAL_S"
NEXT_HAND_ENV = "AHIKO_NEXT_HAND_DELAY_S"


def house_timing(env: Mapping[str, str] | None = None) -> tuple[Timing, float]:
    """The house rooms' ``Timing`` and their action deadline, in seconds."""
    env = os.environ if env is None else env
    timing, deadline = LIVE_TIMING, AHIKO_ACTION_DEADLINE_S
    if env.get(ABSENCE_ENV):
        absence = _seconds(env, ABSENCE_ENV)
        timing = dataclasses.replace(timing, absence_withdrawal_s=absence)
        log.warning("%s=%s: not the rules' absence withdrawal (tests only)", ABSENCE_ENV, absence)
    if env.get(NEXT_HAND_ENV):
        pause = _seconds(env, NEXT_HAND_ENV)
        timing = dataclasses.replace(timing, next_hand_delay_s=pause)
        log.warning("%s=%s: not the rules' pause between hands (tests only)", NEXT_HAND_ENV, pause)
    if env.get(DEADLINE_ENV):
        deadline = _seconds(env, DEADLINE_ENV)
        log.warning("%s=%s: not the rules' action deadline (tests only)", DEADLINE_ENV, deadline)
    return timing, deadline


def _seconds(env: Mapping[str, str], name: str) -> float:
    value = float(env[name])
    if not 0.5 <= value <= 3600:
        raise ValueError(f"{name} must be between 0.5 and 3600 seconds, not {env[name]!r}")
    return value
