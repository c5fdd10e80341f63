"""Signals of abuse, read from the hand archive and the accounts.

Each signal names the accounts, says what it measured and lists the hands it read; nothing is
done about it here or anywhere: an operator looks and decides. The signals:

- ``chip_flow``: one account folding strong starting hands to the same opponent's bets far
  more often than to anyone else's (chip dumping: Zynga's stolen chips left this way), in
  Ahiko rooms and tournaments, with the coins that moved between the two.
- ``soft_play``: two accounts that, left alone in a betting round, never bet or raise against
  each other while they do against others.
- ``shared_address``: accounts that sat at one table from one network address.
- ``account_burst``: accounts created within minutes of each other.
- ``machine_speed``: accounts that nearly always act sooner after their turn is shown than
  a person can (``ahiko.server.reactions`` times them at the table sockets).

The thresholds are written for play-money poker with bots at the tables: an honest pair lands
far from each of them over a few hundred hands (``tests/history/test_abuse_signals.py``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select

from ahiko.poker.cards import rank_of, suit_of
from ahiko.poker.games import HOLDEM
from ahiko.store.engine import reading
from ahiko.store.hand_archive import opened_events
from ahiko.store.schema import (
    archived_hand_players,
    archived_hands,
    reaction_times,
    table_addresses,
    users,
)

PAID_KINDS = ("ahiko", "tournament")  # where chips are worth dumping
STRONG_PAIR = 8  # 88+ (ranks count from 0 for a deuce: 6 is an eight)
STRONG_HIGH = 10  # two cards from the queen up (AK, AQ, KQ, and pairs above)
MIN_STRONG_SPOTS = 8  # strong hands facing that opponent's bet, before a rate means anything
DUMP_RATE = 0.6  # folds of strong hands to that one opponent...
DUMP_RATIO = 2.0  # ...and at least this many times the rate against everyone else
MIN_ALONE_ACTIONS = 25  # actions of the two alone in a round, before silence means anything
OWN_AGGRESSION = 0.15  # each bets or raises at least this often alone against others
BURST_SIZE = 5  # accounts...
BURST_WINDOW = timedelta(minutes=10)  # ...created within this long
WEAK_BELOW = 8  # ten and up are not weak (a ten's rank is 8)
HANDS_LISTED = 50  # hands named by one signal (the oldest first)
BOT = -1  # the opponent of a spot that is a bot
MIN_TIMED_ACTIONS = 40  # actions timed, before a share of fast ones means anything
MACHINE_SHARE = 0.8  # ...of which this many came sooner than a person reacts (reactions.py)


@dataclass(frozen=True)
class Signal:
    kind: str
    accounts: tuple[str, ...]  # usernames
    measured: str  # what was counted, in words
    figures: dict[str, Any]
    hands: tuple[int, ...] = ()  # archived hand ids

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "accounts": list(self.accounts),
            "measured": self.measured,
            "figures": self.figures,
            "hands": list(self.hands),
        }


@dataclass
class _Seen:
    """What the hands showed, by account id."""

    strong_spots: Counter[tuple[int, int]] = field(default_factory=Counter)  # (me, bettor)
    strong_folds: Counter[tuple[int, int]] = field(default_factory=Counter)
    weak_calls: Counter[tuple[int, int]] = field(default_factory=Counter)  # (me, bettor)
    flow: Counter[tuple[int, int]] = field(default_factory=Counter)  # (loser, winner) -> coins
    dump_hands: defaultdict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(list)
    )
    # Actions of an account left alone in a betting round with one opponent (a bot: BOT),
    # and how many of them were bets or raises.
    alone: Counter[tuple[int, int]] = field(default_factory=Counter)  # (me, opponent)
    alone_aggressive: Counter[tuple[int, int]] = field(default_factory=Counter)
    alone_hands: defaultdict[frozenset[int], list[int]] = field(
        default_factory=lambda: defaultdict(list)
    )


def weak_start(cards: Iterable[int]) -> bool:
    """A starting hand nobody calls a bet with for its own sake: no pair, nothing above a
    nine, not suited."""
    ranks = sorted(rank_of(c) for c in cards)
    return ranks[0] != ranks[-1] and ranks[-1] < WEAK_BELOW and len({suit_of(c) for c in cards}) > 1


def strong_start(cards: Iterable[int]) -> bool:
    """A starting hand a player does not fold to one bet: 88 or better, or two cards from the
    queen up (AK, AQ, KQ)."""
    first, second = sorted(rank_of(c) for c in cards)[-2:]
    if first == second:
        return first >= STRONG_PAIR - 2
    return first >= STRONG_HIGH


def read_hand(
    seen: _Seen, hand_id: int, kind: str, events: list[dict[str, Any]], who: dict[int, int]
) -> None:
    """Adds one hold'em hand's spots to ``seen``; ``who``: seat -> account (people only)."""
    holes = {
        e["seat"]: e["cards"]
        for e in events
        if e["kind"] == "hole_dealt" and e["seat"] in who and len(e["cards"]) == 2
    }
    strong = {seat: strong_start(cards) for seat, cards in holes.items()}
    seats: list[int] = next((e["seats"] for e in events if e["kind"] == "hand_started"), [])
    live = set(seats)  # neither folded nor all in
    aggressor: int | None = None
    for event in events:
        if event["kind"] == "street":
            aggressor = None
            continue
        if event["kind"] != "action":
            continue
        seat, action = event["seat"], event["action"]
        me = who.get(seat)
        if me is not None and aggressor is not None and aggressor in who and seat in holes:
            pair = (me, who[aggressor])
            if kind in PAID_KINDS and pair[0] != pair[1] and strong[seat]:
                seen.strong_spots[pair] += 1
                if action == "fold":
                    seen.strong_folds[pair] += 1
                    seen.dump_hands[pair].append(hand_id)
            elif kind in PAID_KINDS and pair[0] != pair[1] and action == "call":
                seen.weak_calls[pair] += weak_start(holes[seat])
        if me is not None and len(live) == 2 and seat in live:
            opponent = who.get(next(iter(live - {seat})), BOT)
            seen.alone[(me, opponent)] += 1
            seen.alone_aggressive[(me, opponent)] += action in ("bet", "raise")
            hands = seen.alone_hands[frozenset((me, opponent))]
            if not hands or hands[-1] != hand_id:
                hands.append(hand_id)
        if action in ("bet", "raise"):
            aggressor = seat
        if action == "fold" or event.get("all_in"):
            live.discard(seat)


def _hands(
    engine: Engine,
) -> Iterator[tuple[int, str, list[dict[str, Any]], dict[int, int], dict[int, int]]]:
    """Every archived hold'em hand: id, room kind, events, seat -> account, account -> net."""
    players: defaultdict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    query = select(
        archived_hand_players.c.hand_id,
        archived_hand_players.c.seat,
        archived_hand_players.c.user_id,
        archived_hand_players.c.net,
    ).where(archived_hand_players.c.user_id.is_not(None))
    with reading(engine) as conn:
        for seat_row in conn.execute(query):
            players[seat_row.hand_id][seat_row.seat] = (int(seat_row.user_id), int(seat_row.net))
        rows = conn.execute(
            select(
                archived_hands.c.id,
                archived_hands.c.room_id,
                archived_hands.c.hand_no,
                archived_hands.c.room_kind,
                archived_hands.c.events,
            )
            .where(archived_hands.c.variant == HOLDEM.name)  # strength read as hold'em's
            .order_by(archived_hands.c.id)
        ).all()
    for row in rows:
        seated = players.get(row.id, {})
        who = {seat: user for seat, (user, _net) in seated.items()}
        nets = dict(seated.values())
        events = opened_events(engine, row.events, row.room_id, row.hand_no)
        yield row.id, row.room_kind, list(events), who, nets


def _flow(seen: _Seen, nets: dict[int, int]) -> None:
    losers = [(u, -n) for u, n in nets.items() if n < 0]
    winners = [(u, n) for u, n in nets.items() if n > 0]
    for loser, lost in losers:
        for winner, won in winners:
            seen.flow[(loser, winner)] += min(lost, won)


def signals(engine: Engine) -> list[Signal]:
    seen = _Seen()
    for hand_id, kind, events, who, nets in _hands(engine):
        read_hand(seen, hand_id, kind, events, who)
        if kind in PAID_KINDS:
            _flow(seen, nets)
    names = _usernames(engine)
    found = [*_chip_flow(seen, names), *_soft_play(seen, names)]
    found += [*_shared_addresses(engine, names), *_bursts(engine), *_machine_speed(engine, names)]
    return found


def _chip_flow(seen: _Seen, names: dict[int, str]) -> Iterator[Signal]:
    spots_of: Counter[int] = Counter()
    folds_of: Counter[int] = Counter()
    for (me, _), spots in seen.strong_spots.items():
        spots_of[me] += spots
    for (me, _), folds in seen.strong_folds.items():
        folds_of[me] += folds
    for (me, bettor), spots in sorted(seen.strong_spots.items()):
        folds = seen.strong_folds[(me, bettor)]
        if spots < MIN_STRONG_SPOTS:
            continue
        rate = folds / spots
        other_spots = spots_of[me] - spots
        other_rate = (folds_of[me] - folds) / other_spots if other_spots else 0.0
        if rate < DUMP_RATE or rate < DUMP_RATIO * other_rate:
            continue
        yield Signal(
            "chip_flow",
            (names.get(me, str(me)), names.get(bettor, str(bettor))),
            f"{names.get(me)} folded {folds} of {spots} strong starting hands (88+, AK, AQ, KQ) "
            f"facing {names.get(bettor)}'s bets ({rate:.0%}); against everyone else "
            f"{other_rate:.0%} of {other_spots}. Coins that moved from {names.get(me)} to "
            f"{names.get(bettor)} in paid rooms: {seen.flow[(me, bettor)]} (back: "
            f"{seen.flow[(bettor, me)]}); weak hands (no pair, nine high, offsuit) called into "
            f"{names.get(bettor)}'s bets: {seen.weak_calls[(me, bettor)]}.",
            {
                "strong_folds": folds,
                "strong_spots": spots,
                "rate": round(rate, 3),
                "rate_against_others": round(other_rate, 3),
                "coins_to": seen.flow[(me, bettor)],
                "coins_back": seen.flow[(bettor, me)],
                "weak_calls": seen.weak_calls[(me, bettor)],
            },
            tuple(seen.dump_hands[(me, bettor)][:HANDS_LISTED]),
        )


def _soft_play(seen: _Seen, names: dict[int, str]) -> Iterator[Signal]:
    alone_of: Counter[int] = Counter()
    aggressive_of: Counter[int] = Counter()
    for (me, _opponent), actions in seen.alone.items():
        alone_of[me] += actions
        aggressive_of[me] += seen.alone_aggressive[(me, _opponent)]
    couples = {tuple(sorted(pair)) for pair in seen.alone if BOT not in pair and pair[0] != pair[1]}
    for first, second in sorted(couples):
        together = seen.alone[(first, second)] + seen.alone[(second, first)]
        raised = seen.alone_aggressive[(first, second)] + seen.alone_aggressive[(second, first)]
        if together < MIN_ALONE_ACTIONS or raised:
            continue
        rates = {}
        for me, partner in ((first, second), (second, first)):
            others = alone_of[me] - seen.alone[(me, partner)]
            rates[me] = aggressive_of[me] / others if others else 0.0
        if min(rates.values()) < OWN_AGGRESSION:
            continue
        a, b = names.get(first, str(first)), names.get(second, str(second))
        yield Signal(
            "soft_play",
            (a, b),
            f"{a} and {b}, left alone in a betting round, took {together} actions and never "
            f"bet or raised against each other; alone against others they bet or raised "
            f"{rates[first]:.0%} and {rates[second]:.0%} of the time.",
            {
                "actions_alone": together,
                "aggression_against_others": {
                    a: round(rates[first], 3),
                    b: round(rates[second], 3),
                },
            },
            tuple(seen.alone_hands[frozenset((first, second))][:HANDS_LISTED]),
        )


def _shared_addresses(engine: Engine, names: dict[int, str]) -> Iterator[Signal]:
    query = select(
        table_addresses.c.room_id, table_addresses.c.address_hash, table_addresses.c.user_id
    ).order_by(table_addresses.c.room_id)
    together: defaultdict[tuple[str, str], set[int]] = defaultdict(set)
    with reading(engine) as conn:
        for row in conn.execute(query):
            together[(row.room_id, row.address_hash)].add(int(row.user_id))
    rooms: defaultdict[tuple[int, ...], list[str]] = defaultdict(list)
    for (room_id, _address), sharing in together.items():
        if len(sharing) > 1:
            rooms[tuple(sorted(sharing))].append(room_id)
    for accounts, room_ids in sorted(rooms.items()):
        listed = tuple(names.get(a, str(a)) for a in accounts)
        yield Signal(
            "shared_address",
            listed,
            f"{', '.join(listed)} sat at the same table from one network address in "
            f"{len(room_ids)} room(s): {', '.join(room_ids[:10])}.",
            {"rooms": room_ids},
        )


def _bursts(engine: Engine) -> Iterator[Signal]:
    with reading(engine) as conn:
        rows = conn.execute(
            select(users.c.username, users.c.created_at).order_by(users.c.created_at)
        ).all()
    start = 0
    while start < len(rows):
        end = start
        while (
            end + 1 < len(rows)
            and _aware(rows[end + 1].created_at) - _aware(rows[start].created_at) <= BURST_WINDOW
        ):
            end += 1
        if end - start + 1 >= BURST_SIZE:
            burst = rows[start : end + 1]
            yield Signal(
                "account_burst",
                tuple(r.username for r in burst),
                f"{len(burst)} accounts created within {BURST_WINDOW.seconds // 60} minutes, "
                f"from {_aware(burst[0].created_at):%Y-%m-%d %H:%M} UTC.",
                {"count": len(burst)},
            )
            start = end + 1
        else:
            start += 1


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _usernames(engine: Engine) -> dict[int, str]:
    with reading(engine) as conn:
        return {r.id: r.username for r in conn.execute(select(users.c.id, users.c.username))}


def _machine_speed(engine: Engine, names: dict[int, str]) -> Iterator[Signal]:
    query = select(reaction_times).where(reaction_times.c.actions >= MIN_TIMED_ACTIONS)
    with reading(engine) as conn:
        rows = conn.execute(query.order_by(reaction_times.c.user_id)).all()
    for row in rows:
        share = row.fast / row.actions
        if share < MACHINE_SHARE:
            continue
        name = names.get(row.user_id, str(row.user_id))
        yield Signal(
            "machine_speed",
            (name,),
            f"{name} acted within 250 ms of seeing the turn {row.fast} times of {row.actions} "
            f"({share:.0%}); {row.total_ms // row.actions} ms an action on average.",
            {"actions": row.actions, "fast": row.fast, "mean_ms": row.total_ms // row.actions},
        )
