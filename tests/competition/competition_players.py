"""A scripted person at a table through the room actor (imported as ``competition_players``):
connects, reads its own frames, and answers its turns: all-in, else call or check
(``passive``: only calls and checks); or, given a ``brain`` (one of the site's bots, R-AI-01),
whatever that bot decides on the seat's own view, the one its frames carry."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ahiko.bots.protocol import Bot
from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.outbox import Frame


@dataclass(eq=False)
class Scripted:
    """A person at the table through the actor: connects, reads its frames, shoves or calls."""

    player_id: str
    passive: bool = False  # only calls and checks (long games: the blinds rise)
    cautious: bool = False  # checks, calls a small bet, folds to a big one
    frames: list[dict[str, Any]] = field(default_factory=list)
    answered: set[int] = field(default_factory=set)
    last_hand: dict[str, Any] | None = None  # the last "hand" frame (read on every turn)

    table: str = ""  # several connections of one player: one per table
    brain: Bot | None = None  # a site's bot deciding every turn instead of the script
    rng: Random = field(default_factory=lambda: Random(0))

    @property
    def connection_id(self) -> str:
        return f"conn-{self.player_id}-{self.table}"

    def deliver(self, frame: Frame) -> None:
        self.frames.append(json.loads(frame.text()))
        if self.frames[-1]["t"] == "hand":
            self.last_hand = self.frames[-1]

    async def join(self, actor: RoomActor) -> None:
        actor.subscribe(self.connection_id, self.deliver)
        assert (await actor.ask(c.Connect(self.connection_id, self.player_id))).ok

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["t"] == kind]

    def decision(self) -> tuple[int, Action] | None:
        """My turn in the last hand frame I got (not answered yet): all-in, else call/check."""
        last = self.last_hand
        if last is None:
            return None
        legal = last["view"].get("legal") if last["view"] else None
        if legal is None or last["seq"] in self.answered:
            return None
        self.answered.add(last["seq"])
        if self.brain is not None:
            return last["hand_no"], self.brain.decide(last["view"], self.rng)
        if self.cautious:
            if legal["call_cost"] and legal["call_cost"] * 4 > legal["stack"]:
                return last["hand_no"], Action.fold()
            if legal["call_cost"]:
                return last["hand_no"], Action.call()
            return last["hand_no"], Action.check()
        if legal["bet_kind"] is not None and not self.passive:
            kind = legal["bet_kind"]
            to = legal["max_to"]
            return last["hand_no"], Action.bet(to) if kind == "bet" else Action.raise_to(to)
        if legal["call_cost"]:
            return last["hand_no"], Action.call()
        return last["hand_no"], Action.check()
