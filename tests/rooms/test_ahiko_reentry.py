"""Fair re-entry in Ahiko rooms (issue 19): sitting again at the same tier within 30 minutes
needs at least the stack one left with, capped at the tier's ceiling (winnings over it
included), in every room of the tier; other tiers and later returns use the usual range."""

from __future__ import annotations

from datetime import timedelta

from ahiko_helpers import Ahiko, play_out, to_hand
from sqlalchemy import update

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.house.reentry import REENTRY_WINDOW_S, reentry_minimum
from ahiko.rooms.house.tiers import TIERS_BY_KEY
from ahiko.store.schema import participations


def age_exits(ahiko: Ahiko, seconds: float) -> None:
    """Move every closed participation ``seconds`` into the past."""
    with ahiko.engine.begin() as conn:
        for row in conn.execute(participations.select().where(participations.c.status == "closed")):
            conn.execute(
                update(participations)
                .where(participations.c.id == row.id)
                .values(closed_at=row.closed_at - timedelta(seconds=seconds))
            )


def test_reentry_minimum_is_the_stack_left_with_within_30_minutes_at_the_same_tier(
    ahiko: Ahiko,
) -> None:
    first, second = ahiko.room("iniciante", 0), ahiko.room("iniciante", 1)
    ana = ahiko.person("ana")
    assert ahiko.sit(first, ana, 0, 180).ok
    assert first.submit(c.Leave(ana)).ok  # out at once with 180 coins
    wallet = ahiko.wallet_of(ana)
    for room in (first, second):  # every room of the tier
        refused = ahiko.sit(room, ana, 1, 150)
        assert refused.code == "reentry_minimum"
        assert "180" in refused.message and "30 minutes" in refused.message
    assert ahiko.wallet_of(ana) == wallet  # nothing moved
    assert ahiko.room("alta").submit(c.BuyIn(ana, "Ana", 0, 1000, "k-alta")).code != (
        "reentry_minimum"
    )
    assert ahiko.sit(second, ana, 1, 180).ok
    ahiko.check()


def test_reentry_rule_ends_after_30_minutes_and_does_not_apply_to_a_short_exit(
    ahiko: Ahiko,
) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, 200).ok and ahiko.sit(room, bia, 1, 100).ok
    assert room.submit(c.Leave(ana)).ok and room.submit(c.Leave(bia)).ok
    assert ahiko.sit(room, bia, 1, 100).ok  # left with the minimum: the usual range
    assert ahiko.sit(room, ana, 0, 120).code == "reentry_minimum"
    age_exits(ahiko, REENTRY_WINDOW_S + 1)
    assert ahiko.sit(room, ana, 0, 120).ok
    ahiko.check()


def test_reentry_minimum_is_capped_at_the_tier_ceiling_counting_winnings_over_it(
    ahiko: Ahiko,
) -> None:
    tier = TIERS_BY_KEY["iniciante"]
    assert reentry_minimum(tier, 50) == 100 and reentry_minimum(tier, 150) == 150
    assert reentry_minimum(tier, 390) == 200
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, 200).ok and ahiko.sit(room, bia, 1, 200).ok
    for _ in range(20):
        to_hand(ahiko, room)
        hand = room.dealer.hand
        assert hand is not None
        legal = hand.legal()
        room.submit(
            c.Act(hand.players[hand.to_act], hand.hand_no, Action(legal.bet_kind, legal.max_to))
        )
        play_out(room)
        stacks = {o.player_id: o.stack for _, o in room.seats.items()}
        if max(stacks.values()) > 200:
            break
    winner = max(stacks, key=stacks.__getitem__)
    assert stacks[winner] > 200  # winnings over the ceiling
    assert room.submit(c.Leave(winner)).ok
    other = ahiko.room("iniciante", 1)
    refused = ahiko.sit(other, winner, 2, 199)
    assert refused.code == "reentry_minimum" and "at least 200" in refused.message
    assert ahiko.sit(other, winner, 2, 200).ok  # the ceiling, not the whole stack
    ahiko.check()
