"""A room's hand options (``rooms/hand_options.py``): checked with a reason in English and in
Portuguese, and turned into each hand's stakes — a straddle only when the seat took it, a
bomb pot when due or asked for, seven-deuce only in hold'em — that the engine plays."""

from __future__ import annotations

from random import Random

import pytest

from ahiko.poker.config import HoldemConfig
from ahiko.poker.games import DRAW, HOLDEM, POT_LIMIT_OMAHA
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.random_play import random_action
from ahiko.rooms.hand_options import HandOptionError, HandOptions, Straddle, hand_options_from

STAKES = HoldemConfig(5, 10)


@pytest.mark.parametrize(
    ("data", "game", "code", "pt"),
    [
        ({"straddle": "double"}, HOLDEM, "straddle", "straddle deve ser off, utg ou button"),
        ({"run_twice": "yes"}, HOLDEM, "run_twice", "deve ser verdadeiro ou falso"),
        ({"bomb_pot_ante": -5}, HOLDEM, "bomb_pot_ante", "número inteiro de 0 a 1.000.000"),
        ({"bomb_pot_every": 5}, HOLDEM, "bomb_pot_ante", "precisa de sua aposta"),
        ({"seven_deuce": 10}, POT_LIMIT_OMAHA, "seven_deuce", "opção do hold'em"),
        ({"straddle": "utg"}, DRAW, "variant", "opções dos jogos com mesa"),
    ],
)
def test_bad_options_are_refused_naming_the_field_in_both_languages(
    data: dict[str, object], game: object, code: str, pt: str
) -> None:
    with pytest.raises(HandOptionError) as refused:
        hand_options_from(data, game)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert pt in refused.value.message("pt-BR")
    assert refused.value.message("en") == str(refused.value) != refused.value.message("pt-BR")


def test_R_HE_05_the_straddle_is_in_the_hand_only_when_the_seat_took_it() -> None:
    options = hand_options_from({"straddle": "button"}, HOLDEM)
    assert options.straddle is Straddle.BUTTON
    assert options.hand_config(STAKES, HOLDEM, 1) == STAKES
    taken = options.hand_config(STAKES, HOLDEM, 1, straddle_taken=True)
    assert (taken.straddle, taken.straddle_button) == (20, 1)


def test_a_bomb_pot_comes_every_n_hands_or_when_the_host_asks() -> None:
    options = hand_options_from(
        {"bomb_pot_ante": 20, "bomb_pot_every": 3, "bomb_pot_double_board": True}, HOLDEM
    )
    bombs = [n for n in range(1, 10) if options.hand_config(STAKES, HOLDEM, n).bomb_pot]
    assert bombs == [3, 6, 9]
    asked = options.hand_config(STAKES, HOLDEM, 4, bomb_requested=True, straddle_taken=True)
    assert (asked.bomb_pot, asked.boards, asked.straddle) == (20, 2, 0)
    assert HandOptions().hand_config(STAKES, HOLDEM, 3, bomb_requested=True) == STAKES


def test_seven_deuce_applies_to_holdem_hands_only_and_every_config_plays() -> None:
    options = hand_options_from(
        {"straddle": "utg", "run_twice": True, "seven_deuce": 15, "bomb_pot_ante": 30}, HOLDEM
    )
    assert options.hand_config(STAKES, HOLDEM, 1).seven_deuce == 15
    assert options.hand_config(STAKES, POT_LIMIT_OMAHA, 1).seven_deuce == 0
    rng = Random(43)
    for n in range(1, 40):
        for cls, game in ((HoldemHand, HOLDEM), (OmahaHand, POT_LIMIT_OMAHA)):
            config = options.hand_config(
                STAKES, game, n, straddle_taken=n % 2 == 0, bomb_requested=n % 5 == 0
            )
            deck = list(range(52))
            rng.shuffle(deck)
            hand = cls.start_hand(config, [1, 2, 3, 4], [300, 50, 900, 120], 4, deck)
            while not hand.is_over:
                for seat in hand.runs_pending:
                    hand.choose_runs(seat, 2)
                seat = hand.to_act
                if seat is not None:
                    legal = hand.legal_actions()
                    hand.act(seat, random_action(legal, hand.hole_cards(seat), rng))
            assert sum(hand.stacks.values()) == 1370
    assert options.as_dict()["straddle"] == "utg"
