"""A player's numbers, built from the hand archive: the same figures for everyone.

Per hand (``hand_facts``, from the archived event log, which holds every action):

- **VPIP**: the player put chips in voluntarily in the first betting round (a call, bet or
  raise before the flop, or before the draw in five-card draw; blinds and antes do not count).
- **PFR**: the player bet or raised in that first round.
- **aggression**: bets and raises against calls, over every round (``bets_raises / calls``;
  no figure while the player has never called).
- **showdown**: the hand ended with two or more players who had not folded and the player was
  one of them; **won** if they took chips from a pot there. A hand stopped by the room
  (``betting_stopped``) has no showdown.
- **bb/100**: the result in big blinds (hold'em) or big bets (draw) per 100 hands, per tier
  (an Ahiko tier, or a recreational room's stakes); tournament chips have no value and are
  counted apart (``tournaments``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ahiko.poker.games import ForcedBet, game
from ahiko.rooms.house.tiers import TIERS

FIRST_ROUND_ENDS = frozenset({"street", "discarded"})
VOLUNTARY = frozenset({"call", "bet", "raise"})
AGGRESSIVE = frozenset({"bet", "raise"})


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What one hand says about one seat."""

    vpip: bool
    pfr: bool
    bets_raises: int
    calls: int
    showdown: bool
    won_showdown: bool
    net: int
    big_unit: int  # the big blind, or draw's big bet


def big_unit(config: Mapping[str, Any]) -> int:
    """The hand's big blind (hold'em) or big bet (draw: twice the small bet when unset)."""
    if int(config.get("big_blind", 0) or 0) > 0:
        return int(config["big_blind"])
    big_bet = int(config.get("big_bet", 0) or 0)
    return big_bet if big_bet > 0 else 2 * int(config.get("small_bet", 0) or 0)


def hand_facts(events: Sequence[Mapping[str, Any]], seat: int, net: int) -> HandFacts:
    """The facts of ``seat`` in a hand whose archived event log is ``events``."""
    if not events or events[0].get("kind") != "hand_started":
        raise ValueError("an archived hand's events begin with hand_started")
    started = events[0]
    dealt = [int(s) for s in started["dealt_seats"]]
    first_round = True
    vpip = pfr = stopped = False
    bets_raises = calls = 0
    folded: set[int] = set()
    winners: set[int] = set()
    for event in events[1:]:
        kind = event.get("kind")
        if kind in FIRST_ROUND_ENDS:
            first_round = False
        elif kind == "action":
            who, action = int(event["seat"]), str(event["action"])
            if action == "fold":
                folded.add(who)
            if who != seat:
                continue
            if action in AGGRESSIVE:
                bets_raises += 1
            elif action == "call":
                calls += 1
            if first_round and action in VOLUNTARY:
                vpip = True
                pfr = pfr or action in AGGRESSIVE
        elif kind == "pot_awarded":
            winners.update(int(w) for w in event["winners"])
        elif kind == "betting_stopped":
            stopped = True
    standing = [s for s in dealt if s not in folded]
    showdown = not stopped and len(standing) >= 2 and seat in standing
    return HandFacts(
        vpip=vpip,
        pfr=pfr,
        bets_raises=bets_raises,
        calls=calls,
        showdown=showdown,
        won_showdown=showdown and seat in winners,
        net=net,
        big_unit=big_unit(started["config"]),
    )


def tier_label(room_kind: str, variant: str, config: Mapping[str, Any]) -> str:
    """Where bb/100 is counted: an Ahiko tier by its name, or a room's stakes."""
    unit = big_unit(config)
    if room_kind == "ahiko":
        for tier in TIERS:
            if tier.big_blind == unit:
                return tier.name
    played = game(variant)
    if ForcedBet.BLINDS not in played.forced_bets:  # five-card draw: its fixed bets
        return f"{played.short_name} {unit // 2}/{unit}"
    return f"{played.short_name} {int(config.get('small_blind', 0))}/{unit}"


@dataclass
class Ratio:
    hits: int = 0
    out_of: int = 0

    def add(self, hit: bool) -> None:
        self.out_of += 1
        self.hits += int(hit)

    def percent(self) -> float | None:
        return None if self.out_of == 0 else round(100 * self.hits / self.out_of, 1)


@dataclass
class TierResult:
    label: str
    hands: int = 0
    net: int = 0
    big_unit: int = 0  # one per tier: its label names it (an Ahiko tier, or the stakes)

    def bb_per_100(self) -> float | None:
        if self.hands == 0:
            return None
        big_blinds = self.net / self.big_unit if self.big_unit > 0 else 0.0
        return round(100 * big_blinds / self.hands, 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "tier": self.label,
            "hands": self.hands,
            "net": self.net,
            "bb_per_100": self.bb_per_100(),
        }


@dataclass
class PlayerStats:
    """The running totals of one player's hands."""

    hands: int = 0
    vpip: Ratio = field(default_factory=Ratio)
    pfr: Ratio = field(default_factory=Ratio)
    bets_raises: int = 0
    calls: int = 0
    showdowns: Ratio = field(default_factory=Ratio)
    tiers: dict[str, TierResult] = field(default_factory=dict)
    coins_by_day: dict[date, int] = field(default_factory=dict)  # Ahiko rooms only

    def add(self, facts: HandFacts, room_kind: str, tier: str, day: date) -> None:
        self.hands += 1
        self.vpip.add(facts.vpip)
        self.pfr.add(facts.pfr)
        self.bets_raises += facts.bets_raises
        self.calls += facts.calls
        if facts.showdown:
            self.showdowns.add(facts.won_showdown)
        if room_kind == "tournament":
            return
        result = self.tiers.setdefault(tier, TierResult(tier, big_unit=facts.big_unit))
        result.hands += 1
        result.net += facts.net
        if room_kind == "ahiko":
            self.coins_by_day[day] = self.coins_by_day.get(day, 0) + facts.net

    def aggression(self) -> float | None:
        return None if self.calls == 0 else round(self.bets_raises / self.calls, 2)

    def results_over_time(self) -> list[dict[str, Any]]:
        """Ahiko-room coins won or lost per day, with the running total."""
        total = 0
        points = []
        for day in sorted(self.coins_by_day):
            total += self.coins_by_day[day]
            points.append({"date": day.isoformat(), "net": self.coins_by_day[day], "total": total})
        return points

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "vpip": self.vpip.percent(),
            "pfr": self.pfr.percent(),
            "aggression": self.aggression(),
            "showdowns": self.showdowns.out_of,
            "showdown_win_rate": self.showdowns.percent(),
            "tiers": [self.tiers[k].to_json() for k in sorted(self.tiers)],
            "results": self.results_over_time(),
        }


@dataclass(frozen=True, slots=True)
class HandForStats:
    """What ``player_stats`` reads of an archived hand (``ArchivedHand`` has it all)."""

    room_kind: str
    variant: str
    events: Sequence[Mapping[str, Any]]
    seat: int
    net: int
    day: date


def player_stats(hands: Iterable[HandForStats]) -> PlayerStats:
    stats = PlayerStats()
    for hand in hands:
        facts = hand_facts(hand.events, hand.seat, hand.net)
        tier = tier_label(hand.room_kind, hand.variant, hand.events[0]["config"])
        stats.add(facts, hand.room_kind, tier, hand.day)
    return stats
