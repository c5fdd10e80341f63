"""Five-card draw histories: our FD-AHIKO PHH code and PokerStars-style text."""

from __future__ import annotations

import random

import pytest

from ahiko.history.hand_log import VisibleCards
from ahiko.history.phh import PhhError, dumps, loads
from ahiko.history.phh_draw import draw_finishing_stacks, draw_from_phh, draw_to_phh
from ahiko.history.pokerstars import TableInfo, to_pokerstars
from ahiko.history.replay import replay_text
from ahiko.poker.actions import Action
from ahiko.poker.cards import parse_cards
from ahiko.poker.config import DrawConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.random_play import random_play

NAMES = {0: "Ana", 2: "Bruno", 4: "Caio"}


def _scripted_hand() -> DrawHand:
    """Seats 0, 2, 4, button 4 (deal order 0, 2, 4): Ana Ac Kd 3h 9h 5c, Bruno 9s Qs Ks 4s 6d,
    Caio 2h 9d Jc 2s 7c. Caio folds before the draw; Ana draws three (8c 8d 8h) and her
    trips beat Bruno, who stood pat with king high."""
    first = parse_cards("Ac 9s 2h Kd Qs 9d 3h Ks Jc 9h 4s 2s 5c 6d 7c")  # k*3 + j
    draws = parse_cards("8c 8d 8h")
    deck = list(first + draws) + [c for c in range(52) if c not in first + draws]
    hand, _ = DrawHand.start(DrawConfig(ante=1, small_bet=2), [0, 2, 4], [50, 60, 70], 4, deck)
    hand.act(0, Action.bet(2))
    hand.act(2, Action.raise_to(4))
    hand.act(4, Action.fold())
    hand.act(0, Action.call())
    hand.act(0, Action.discard(parse_cards("Kd 3h 5c")))
    hand.act(2, Action.discard(()))
    hand.act(0, Action.check())
    hand.act(2, Action.bet(4))
    hand.act(0, Action.call())
    assert hand.is_over
    return hand


def test_R_DR_05_fd_ahiko_export_then_import_gives_the_same_hand() -> None:
    hand = _scripted_hand()
    doc = draw_to_phh(hand, VisibleCards.all_cards(hand), players=["Ana", "Bruno", "Caio"])
    text = dumps(doc)
    assert 'variant = "FD-AHIKO"' in text and "small_bet = 2" in text and "big_bet = 4" in text
    assert "p1 sd Kd3h5c" in doc.actions and "d dh p1 8c8d8h" in doc.actions
    assert "p2 sd" in doc.actions
    again = draw_from_phh(loads(text))
    assert again.events == hand.events
    assert replay_text(text, "draw.phh").match is True


@pytest.mark.parametrize("seed", range(20))
def test_R_DR_03_random_draw_hands_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    seats = sorted(rng.sample(range(8), n))
    deck = list(range(52))
    rng.shuffle(deck)
    stacks = [rng.randint(1, 40) for _ in seats]
    hand, _ = DrawHand.start(DrawConfig(1, 2), seats, stacks, rng.choice(seats), deck)
    random_play(hand, rng)
    text = dumps(draw_to_phh(hand, VisibleCards.all_cards(hand)))
    again = draw_from_phh(loads(text))
    assert again.events == hand.events
    assert draw_finishing_stacks(again) == loads(text).finishing_stacks


def test_R_DR_07_viewer_export_hides_other_draws() -> None:
    hand = _scripted_hand()
    ana = draw_to_phh(hand, VisibleCards.for_viewer(hand, 0))
    assert ana.actions[:3] == ["d dh p1 AcKd3h9h5c", "d dh p2 ??????????", "d dh p3 ??????????"]
    assert "p1 sd Kd3h5c" in ana.actions
    caio = draw_to_phh(hand, VisibleCards.for_viewer(hand, 4))
    assert "p1 sd ??????" in caio.actions and "d dh p1 ??????" in caio.actions
    # Caio folded: he sees no opponent's cards, not even those shown (R-DR-07)
    assert all("?" in a for a in caio.actions if " sm " in a)


def test_unknown_discards_are_taken_from_unknown_cards() -> None:
    hand = _scripted_hand()
    text = dumps(draw_to_phh(hand, VisibleCards.for_viewer(hand, 2)))
    again = draw_from_phh(loads(text))  # Ana's cards and discards are unknown to Bruno
    assert draw_finishing_stacks(again) == draw_finishing_stacks(hand)


def test_R_DR_01_fd_ahiko_refuses_what_our_rules_cannot_play() -> None:
    hand = _scripted_hand()
    text = dumps(draw_to_phh(hand, VisibleCards.all_cards(hand)))
    with pytest.raises(PhhError, match="no blinds"):
        draw_from_phh(
            loads(
                text.replace(
                    "antes = [1, 1, 1]", "blinds_or_straddles = [1, 2, 0]\nantes = [1, 1, 1]"
                )
            )
        )
    with pytest.raises(PhhError, match="differ between players"):
        draw_from_phh(loads(text.replace("antes = [1, 1, 1]", "antes = [1, 2, 1]")))


def test_pokerstars_draw_text_for_the_player_who_drew() -> None:
    hand = _scripted_hand()
    text = to_pokerstars(hand, VisibleCards.for_viewer(hand, 0), TableInfo(7, names=NAMES))
    lines = text.splitlines()
    assert lines[0].startswith("PokerStars Hand #7:  5 Card Draw Limit (2/4) - ")
    assert "Ana: posts the ante 1" in lines
    assert lines.index("*** DEALING HANDS ***") < lines.index("Dealt to Ana [Ac Kd 3h 9h 5c]")
    assert "Ana: bets 2" in lines and "Bruno: raises 2 to 4" in lines and "Caio: folds" in lines
    assert lines.index("*** FIRST DRAW ***") < lines.index("Ana: discards 3 cards [Kd 3h 5c]")
    assert "Dealt to Ana [Ac 9h] [8c 8d 8h]" in lines
    assert "Bruno: stands pat" in lines
    assert "*** SHOW DOWN ***" in lines and "*** SUMMARY ***" in lines
    assert "Seat 5: Caio (button) folded before the Draw (didn't bet)" in lines
    assert "Ana collected 19 from pot" in lines and "Total pot 19 | Rake 0" in lines


def test_R_DR_07_pokerstars_text_for_a_folded_player_shows_no_opponent_cards() -> None:
    hand = _scripted_hand()
    text = to_pokerstars(hand, VisibleCards.for_viewer(hand, 4), TableInfo(names=NAMES))
    assert "Ana: discards 3 cards\n" in text and "[Kd 3h 5c]" not in text
    assert "shows [" not in text and "showed [" not in text
    assert "Dealt to Caio [" in text and "Dealt to Ana" not in text
