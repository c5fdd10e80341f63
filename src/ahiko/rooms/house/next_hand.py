"""The host's changes to the table, for the next hand (R-RM-04: a change applies at the start
of the next hand, never mid-hand): the blinds and ante, the action clock, the starting chips
(a home game's buy-in and each rebuy, R-RM-06), the most rebuys a player may take and the
hand options (straddle, run it twice, bomb pots, seven-deuce).

``proposed`` checks a request against the room's settings and answers the settings it
would make, or a ``Refusal`` naming what is wrong (nothing is kept then). Changes asked
while a hand is in play wait in a ``PendingChange`` (a later request overrides the fields it
names) and apply together between hands. Setting the blinds fixes them: a doubling schedule
stops, as the host has taken the blinds in hand.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ahiko.poker.games import ForcedBet, game
from ahiko.rooms.blinds import BlindIncrease, BlindSchedule
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomConfig, RoomConfigError
from ahiko.rooms.hand_options import HandOptionError, hand_options_from
from ahiko.rooms.house.host_orders import ChangeTable

CHIPS_CEILING = 10_000_000  # the room creation form's bound on any amount
DEADLINE_RANGE_S = (5.0, 600.0)
MOST_REBUYS = 1000
NO_LIMIT = "none"  # a pending removal of the clock or of the rebuy limit


def _requested(cmd: ChangeTable) -> dict[str, Any]:
    """The fields the request names (the clock and the rebuy limit may be removed)."""
    fields: dict[str, Any] = {
        name: getattr(cmd, name)
        for name in ("small_blind", "big_blind", "ante", "starting_chips", "max_rebuys")
        if getattr(cmd, name) is not None
    }
    if cmd.no_deadline:
        fields["action_deadline_s"] = NO_LIMIT
    elif cmd.action_deadline_s is not None:
        fields["action_deadline_s"] = cmd.action_deadline_s
    if cmd.no_rebuy_limit:
        fields["max_rebuys"] = NO_LIMIT
    if cmd.options is not None:
        fields["hand_options"] = dict(cmd.options)
    return fields


def option_refusal(exc: HandOptionError) -> Refusal:
    """A hand option refused: the field in ``code``, why in English and in Portuguese."""
    refusal = Refusal(f"option_{exc.code}", exc.en)
    refusal.reply = Reply(False, refusal.reply.code, None, exc.en, {"pt": exc.pt, "en": exc.en})
    return refusal


def proposed(config: RoomConfig, cmd: ChangeTable) -> dict[str, Any]:
    """The fields ``cmd`` changes, checked against ``config``; a ``Refusal`` otherwise."""
    fields = _requested(cmd)
    if not fields:
        raise Refusal("change_empty", "name at least one setting to change")
    base = config.schedule.base
    blinds = ForcedBet.BLINDS in game(config.variant.value).forced_bets
    if not blinds and ("small_blind" in fields or "big_blind" in fields):
        raise Refusal("change_no_blinds", "this game has no blinds: change its ante", "R-RM-04")
    small = fields.get("small_blind", base.small_blind)
    big = fields.get("big_blind", base.big_blind)
    if blinds and not 1 <= small <= big <= CHIPS_CEILING:
        raise Refusal(
            "change_blinds",
            f"the blinds need 1 <= small <= big <= {CHIPS_CEILING}, not {small}/{big}",
            "R-RM-04",
        )
    ante = fields.get("ante", base.ante)
    if not 0 <= ante <= (big if blinds else CHIPS_CEILING):
        raise Refusal(
            "change_ante", f"the ante is from 0 to the big blind ({big}), not {ante}", "R-RM-04"
        )
    deadline = fields.get("action_deadline_s")
    low, high = DEADLINE_RANGE_S
    if deadline not in (None, NO_LIMIT) and not low <= deadline <= high:
        raise Refusal(
            "change_clock",
            f"the action clock is {low:g} to {high:g} seconds (or none), not {deadline:g}",
            "R-RM-03",
        )
    chips = fields.get("starting_chips")
    if chips is not None and not 1 <= chips <= CHIPS_CEILING:
        raise Refusal(
            "change_buy_in", f"the buy-in is 1 to {CHIPS_CEILING} chips, not {chips}", "R-RM-03"
        )
    rebuys = fields.get("max_rebuys")
    if rebuys not in (None, NO_LIMIT) and not 0 <= rebuys <= MOST_REBUYS:
        raise Refusal(
            "change_rebuys", f"the rebuy limit is 0 to {MOST_REBUYS}, not {rebuys}", "R-RM-06"
        )
    if "hand_options" in fields:  # the options named change, the others stay as they are
        merged = {**config.hand_options.as_dict(), **fields["hand_options"]}
        try:
            fields["hand_options"] = hand_options_from(merged, config.variant.game).as_dict()
        except HandOptionError as exc:
            raise option_refusal(exc) from None
    applied(config, fields)  # the room's own checks too: a refusal here changes nothing
    return fields


def applied(config: RoomConfig, fields: dict[str, Any]) -> RoomConfig:
    """``config`` with ``fields`` (as ``proposed`` answered them) in force."""
    changes: dict[str, Any] = {}
    base = config.schedule.base
    stakes = dataclasses.replace(
        base,
        small_blind=fields.get("small_blind", base.small_blind),
        big_blind=fields.get("big_blind", base.big_blind),
        ante=fields.get("ante", base.ante),
    )
    if stakes != base:
        changes["schedule"] = BlindSchedule(stakes, BlindIncrease.NEVER)
    if "action_deadline_s" in fields:
        deadline = fields["action_deadline_s"]
        changes["action_deadline_s"] = None if deadline == NO_LIMIT else deadline
    if "starting_chips" in fields:
        changes["starting_chips"] = fields["starting_chips"]
    if "hand_options" in fields:
        changes["hand_options"] = hand_options_from(fields["hand_options"], config.variant.game)
    if "max_rebuys" in fields:
        rebuys = fields["max_rebuys"]
        changes["max_rebuys"] = None if rebuys == NO_LIMIT else rebuys
    try:
        return dataclasses.replace(config, **changes)
    except (RoomConfigError, ValueError) as exc:
        raise Refusal("change_invalid", str(exc), "R-RM-03") from None


@dataclass
class PendingChange:
    """What waits for the end of the hand in play: settings, and chips for stacks."""

    fields: dict[str, Any] = field(default_factory=dict)
    stacks: dict[str, int] = field(default_factory=dict)  # player id -> chips (+ or -)

    def add_fields(self, fields: dict[str, Any]) -> None:
        self.fields.update(fields)

    def add_chips(self, player_id: str, chips: int) -> None:
        total = self.stacks.get(player_id, 0) + chips
        if total:
            self.stacks[player_id] = total
        else:
            self.stacks.pop(player_id, None)

    def take(self) -> tuple[dict[str, Any], dict[str, int]]:
        fields, stacks = self.fields, self.stacks
        self.fields, self.stacks = {}, {}
        return fields, stacks
