"""``views``: every viewer's view of a hand built in one pass, equal to ``view`` one viewer at
a time (R-HE-13, R-DR-07: the same cards hidden from the same viewers), with the parts that do
not depend on the viewer shared between the results (issue 21: a broadcast builds them once)."""

from __future__ import annotations

import random

import pytest
from poker_testkit import draw, holdem

from ahiko.poker.random_play import random_action
from ahiko.poker.view import view, views


def _every_step(hand, rng):
    yield hand
    while hand.to_act is not None:
        seat = hand.to_act
        hand.act(seat, random_action(hand.legal_actions(), hand.hole_cards(seat), rng))
        yield hand
    for seat in hand.order:  # voluntary shows after the hand (R-HE-12)
        if not hand.folded[hand.index[seat]] and hand.index[seat] not in hand.shown:
            hand.show(seat)
            yield hand


@pytest.mark.parametrize("variant", ["holdem", "draw"])
def test_R_HE_13_R_DR_07_views_equal_view_for_every_viewer(variant: str) -> None:
    rng = random.Random(21)
    for _ in range(60):
        n = rng.randint(2, 6)
        stacks = [rng.randint(5, 400) for _ in range(n)]
        hand = holdem(stacks) if variant == "holdem" else draw(stacks)
        for state in _every_step(hand, rng):
            viewers = [None, *state.order]
            together = views(state, viewers)
            assert list(together) == viewers
            for viewer in viewers:
                assert together[viewer] == view(state, viewer, with_history=False)
                assert list(together[viewer]) == list(view(state, viewer, with_history=False))


def test_views_share_what_no_viewer_changes() -> None:
    hand = holdem([200, 200, 200])
    together = views(hand, [None, 0, 1, 2])
    spectator, zero, one = together[None], together[0], together[1]
    assert zero["board"] is one["board"] is spectator["board"]
    assert zero["pots"] is spectator["pots"]
    # seat 2's entry shows no card to seat 0, seat 1 or a spectator: one object
    assert zero["seats"][2] is one["seats"][2] is spectator["seats"][2]
    assert zero["seats"][0]["cards"] is not None and spectator["seats"][0]["cards"] is None
