"""Each player's figures kept as hands are archived, so a profile is one read.

Before, a profile rebuilt the numbers from every archived hand of the account on each request
(14.9 s for 20,120 hands; 8 at once grew the process by 2 GB). Now the archive's transaction
adds what each hand says about each person dealt in (``hand_delta``, the same facts as
``stats.hand_facts``) to their stored counts (``ahiko.store.player_stats``), and
``rebuild_player_figures`` (``ahiko admin rebuild-stats``) computes every count again from the
archive: the same numbers, or the stored ones were wrong.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import Connection, Engine, text

from ahiko.competition.stats import (
    HandForStats,
    PlayerStats,
    Ratio,
    TierResult,
    hand_facts,
    player_stats,
    tier_label,
)
from ahiko.store.archive_reads import every_archived_hand, hands_played_by
from ahiko.store.hand_archive import ArchivedHand, install_archive_hook
from ahiko.store.player_stats import (
    StatsDelta,
    StoredStats,
    TierCount,
    add_stats,
    replace_all_stats,
    stored_stats,
)


def hand_delta(hand: ArchivedHand, seat: int, net: int) -> StatsDelta:
    """What ``hand`` adds to the figures of the person at ``seat``."""
    facts = hand_facts(hand.events, seat, net)
    delta = StatsDelta(
        hands=1,
        vpip=int(facts.vpip),
        pfr=int(facts.pfr),
        bets_raises=facts.bets_raises,
        calls=facts.calls,
        showdowns=int(facts.showdown),
        showdowns_won=int(facts.won_showdown),
    )
    if hand.room_kind == "tournament":
        delta.tournament_rooms.add(hand.room_id)  # tournament chips have no value
        return delta
    label = tier_label(hand.room_kind, hand.variant, hand.events[0]["config"])
    delta.tiers[label] = TierCount(label, facts.big_unit, 1, net)
    if hand.room_kind == "ahiko":
        delta.coins_by_day[hand.ended_at.date().isoformat()] = net
    return delta


def record_hand(conn: Connection, hand: ArchivedHand) -> None:
    """The archive's hook: each person dealt into ``hand`` gets what it adds."""
    for player in hand.players:
        if player.user_id is not None:
            add_stats(conn, player.user_id, hand_delta(hand, player.seat, player.net))


def keep_player_figures(engine: Engine) -> None:
    """From now on every hand archived on ``engine`` updates its players' figures."""
    install_archive_hook(engine, record_hand)


def figures_from_archive(engine: Engine) -> dict[int, StoredStats]:
    """Every person's counts, computed from every archived hand (oldest first)."""
    every: dict[int, StoredStats] = {}
    for hand in every_archived_hand(engine):
        for player in hand.players:
            if player.user_id is not None:
                mine = every.setdefault(player.user_id, StoredStats())
                mine.add(hand_delta(hand, player.seat, player.net))
    return every


def rebuild_player_figures(engine: Engine) -> int:
    """Every stored count replaced by the archive's; returns the players counted. On
    PostgreSQL the stats tables are locked first, so a hand archived meanwhile waits and is
    then added to the rebuilt counts (on SQLite the transaction's write lock, taken at its
    start, does the same)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("LOCK TABLE player_stats IN EXCLUSIVE MODE"))
        every = figures_from_archive(engine)
        replace_all_stats(conn, every)
    return len(every)


def hand_by_hand_figures(engine: Engine, user_id: int) -> PlayerStats:
    """The figures computed from every archived hand of ``user_id``, as profiles did before
    they were stored: the cross-check of the stored counts (tests, ``bench/player_figures``)."""
    hands = []
    for hand in hands_played_by(engine, user_id):
        seat = hand.seat_of_user(user_id)
        if seat is None:
            continue
        net = next(p.net for p in hand.players if p.seat == seat)
        day = hand.ended_at.date()
        hands.append(HandForStats(hand.room_kind, hand.variant, hand.events, seat, net, day))
    return player_stats(hands)


def player_figures(engine: Engine, user_id: int) -> tuple[PlayerStats, set[str]]:
    """The player's ``PlayerStats`` and tournament rooms, from the stored counts."""
    return as_player_stats(stored_stats(engine, user_id))


def as_player_stats(stored: StoredStats) -> tuple[PlayerStats, set[str]]:
    stats = PlayerStats(
        hands=stored.hands,
        vpip=Ratio(stored.vpip, stored.hands),
        pfr=Ratio(stored.pfr, stored.hands),
        bets_raises=stored.bets_raises,
        calls=stored.calls,
        showdowns=Ratio(stored.showdowns_won, stored.showdowns),
        tiers={
            label: TierResult(label, tier.hands, tier.net, tier.big_unit)
            for label, tier in stored.tiers.items()
        },
        coins_by_day={date.fromisoformat(day): net for day, net in stored.coins_by_day.items()},
    )
    return stats, set(stored.tournament_rooms)
