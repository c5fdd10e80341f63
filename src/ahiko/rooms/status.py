"""The room's status: the one value every command is checked against."""

from __future__ import annotations

from enum import StrEnum


class RoomStatus(StrEnum):
    WAITING = "waiting"  # created, not started by the host yet
    RUNNING = "running"
    PAUSED = "paused"  # R-RM-07 / R-RM-09
    FINISHED = "finished"  # tournament over (R-TN-05)
    CLOSED = "closed"
