"""The pot-limit maximum worked out from a seat's view, the way a player counts it, to check
the amount the server offers (``legal.max_to``) and the client's slider against."""

from __future__ import annotations

from typing import Any


def pot_limit_max(view: dict[str, Any]) -> int:
    """The most a raise may make the bet: the highest bet now, plus the pot after this seat
    calls (the chips gathered, every bet on the table and the call), capped by the stack."""
    seats = {s["seat"]: s for s in view["seats"]}
    me = seats[view["viewer"]]
    bets = [s.get("bet", 0) for s in seats.values()]
    facing = max(bets) - me.get("bet", 0)
    pot_after_call = sum(p["amount"] for p in view["pots"]) + sum(bets) + facing
    return min(max(bets) + pot_after_call, me.get("bet", 0) + me["stack"])
