"""The PokerStars text we export for Pot-Limit Omaha and for straddled hold'em, read back by
an outside parser: pokerkit 0.7.7's ``PokerStarsParser`` (``HandHistory.from_pokerstars``,
the format trackers import), which replays it to the same finishing stacks.

pokerkit 0.7.7's parser knows one game, ``Hold'em No Limit``, and two forced-bet lines,
``posts small blind`` and ``posts big blind``; its parsing is otherwise the game's (it
replays the text through the pokerkit game the variant code names). Reading Omaha and a
straddle therefore takes its own parser with two patterns widened, the only change:
the game name ``Omaha Pot Limit`` (PHH ``PO``) and ``posts straddle``, which it must read as a
straddle rather than as a newly seated player's post (``_parse_blinds_or_straddles``: the
sign pokerkit gives a third forced bet). Its ante line matches
nothing (``ANTE_POSTING`` is unmatchable), so these hands have no ante. A hand where a pot
is split is left out: pokerkit puts odd chips elsewhere (R-PT-05, the differential's
explained difference).
"""

from __future__ import annotations

import random
import re
import warnings
from collections import defaultdict
from collections.abc import Callable
from typing import ClassVar

import pytest
from pokerkit import PokerStarsParser

from ahiko.history.hand_log import VisibleCards
from ahiko.history.pokerstars import TableInfo, to_pokerstars
from ahiko.poker.actions import Action
from ahiko.poker.config import HoldemConfig
from ahiko.poker.holdem import HoldemHand, OmahaHand

HANDS = 150


class WiderPokerStarsParser(PokerStarsParser):
    """pokerkit's PokerStars parser, knowing Omaha Pot Limit and the straddle line."""

    VARIANT = re.compile(r" (?P<variant>Hold'em No Limit|Omaha Pot Limit) ")
    VARIANTS: ClassVar[dict[str, str]] = {"Hold'em No Limit": "NT", "Omaha Pot Limit": "PO"}
    BLIND_OR_STRADDLE_POSTING = re.compile(
        r"(?P<player>.+): posts (small blind|big blind|straddle) \D?(?P<blind_or_straddle>[0-9.]+)"
    )
    STRADDLE_POSTING = re.compile(r"(?P<player>.+): posts straddle")

    def _parse_blinds_or_straddles(
        self, s: str, parse_value: Callable[[str], int]
    ) -> defaultdict[str, int]:
        """pokerkit's parser negates every forced bet after the first two: a negative entry
        is pokerkit's "post" of a newly seated player (no option, action left of the big
        blind). A straddle is a positive entry, so it is handed over negated here, to come
        out positive."""
        forced = super()._parse_blinds_or_straddles(s, parse_value)
        for match in self.STRADDLE_POSTING.finditer(s):
            forced[match["player"]] = -forced[match["player"]]
        return forced


def random_hand(rng: random.Random, plays: type[HoldemHand], straddle: bool) -> HoldemHand:
    n = rng.randint(3, 6)
    seats = sorted(rng.sample(range(8), n))
    stacks = [rng.choice((rng.randint(20, 100), rng.randint(100, 1500))) for _ in seats]
    deck = list(range(52))
    rng.shuffle(deck)
    config = HoldemConfig(5, 10, straddle=20 if straddle else 0)
    hand, _ = plays.start(config, seats, stacks, rng.choice(seats), deck)
    while not hand.is_over:
        legal = hand.legal_actions()
        roll = rng.random()
        if legal.call_cost > 0 and roll < 0.2:
            action = Action.fold()
        elif legal.bet_kind is not None and roll < 0.5:
            to = rng.choice((legal.min_to, legal.max_to))
            action = Action(legal.bet_kind, to)
        else:
            action = Action.call() if legal.call_cost > 0 else Action.check()
        hand.act(legal.seat, action)
    return hand


@pytest.mark.parametrize(
    ("plays", "straddle", "title"),
    [
        (OmahaHand, False, "Omaha Pot Limit"),
        (OmahaHand, True, "Omaha Pot Limit"),
        (HoldemHand, True, "Hold'em No Limit"),
    ],
    ids=["plo", "plo-straddle", "holdem-straddle"],
)
def test_R_PT_05_pokerstars_text_is_read_back_by_pokerkit_with_the_same_stacks(
    plays: type[HoldemHand], straddle: bool, title: str
) -> None:
    rng = random.Random(31 + straddle)
    parser = WiderPokerStarsParser()
    compared = straddled = 0
    for number in range(HANDS):
        hand = random_hand(rng, plays, straddle)
        result = hand.result
        assert result is not None
        if any(len(pot.winners) > 1 for pot in result.pots):
            continue  # a split pot: odd chips go elsewhere in pokerkit (R-PT-05)
        names = {seat: f"Player{seat + 1}" for seat in hand.dealt_seats}
        text = to_pokerstars(hand, VisibleCards.all_cards(hand), TableInfo(number + 1, names=names))
        assert f":  {title} (5/10) - " in text.splitlines()[0]
        straddled += "posts straddle 20" in text
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            histories = list(parser(text, error_status=True))
        assert len(histories) == 1, text
        history = histories[0]
        assert history.variant == ("PO" if plays is OmahaHand else "NT")
        *_, final = history
        theirs = dict(zip(history.players or (), final.stacks, strict=True))
        ours = {names[seat]: stack for seat, stack in hand.stacks.items()}
        assert theirs == ours, text
        compared += 1
    assert compared > HANDS // 2
    assert straddled > HANDS // 3 if straddle else straddled == 0
