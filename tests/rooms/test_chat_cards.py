"""A chat line never carries a card (issue 40): while a hand runs, a line from a player dealt
into it that names a rank and a suit, in any written form, is held back with a notice to its
writer; the same line is taken once the hand is over."""

from __future__ import annotations

import pytest
from rooms_helpers import Recorder, Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.chat_cards import names_a_card

WRITTEN_CARDS = [
    # letters
    "As Kd",
    "AsKd",
    "Kd",
    "K-d no river",
    "tenho Qh",
    "\u0410\u0455 \u041ad",  # Cyrillic look-alikes: "As Kd"
    "\uff2b\uff44",  # full-width "Kd"
    "2s 3s",
    # words, English and pt-BR
    "ace of spades and king of hearts",
    "10 of hearts",
    "ás de espadas",
    "Rei de Copas",
    "sete de ouros",
    "dama de paus",
    "K de copas",
    "sete de\u2800copas",  # a blank look-alike as the space
    # glyphs, with invisible characters or separators
    "A♠",
    "A\u034f♠",  # combining grapheme joiner
    "A\u200b♠",  # zero-width space
    "A-♠",
    "10 ♥",
    "♠A",
    "A♠\ufe0f",  # variation selector
    "🂡",
]
NOT_CARDS = ["as cartas", "Ah, ok", "espera 2s", "As vezes", "boa mão", "asks", "AK", "KK", "gg"]


def _dealt_pair() -> tuple[Table, Recorder]:
    table = Table(holdem_config(), host="ana")
    table.join("ana", 0)
    bia = table.join("bia", 1)
    table.ok(c.Start("ana"))
    table.to_deal()
    assert table.room.dealer.hand is not None and not table.room.dealer.hand.is_over
    return table, bia


@pytest.mark.parametrize("text", WRITTEN_CARDS)
def test_a_written_card_is_held_back_during_the_hand_and_taken_after_it(text: str) -> None:
    assert names_a_card(text)
    table, bia = _dealt_pair()
    held = table.submit(c.Chat("ana", "Ana", text, None))
    assert held.code == "chat_names_card"
    assert "until the hand is over" in held.message and "not sent" in held.message
    assert bia.of("chat") == []  # nothing reached the table
    table.play_hand_passively()
    assert table.room.dealer.hand is None or table.room.dealer.hand.is_over
    taken = table.submit(c.Chat("ana", "Ana", text, None))
    assert taken.ok, taken.code
    (message,) = [f["msg"] for f in bia.of("chat")]
    assert not any(glyph in message["text"] for glyph in "♠♥♦♣🂡")  # glyphs masked still


@pytest.mark.parametrize("text", NOT_CARDS)
def test_words_that_only_look_like_a_card_pass_during_the_hand(text: str) -> None:
    assert not names_a_card(text)
    table, bia = _dealt_pair()
    assert table.submit(c.Chat("ana", "Ana", text, None)).ok
    assert [f["msg"]["text"] for f in bia.of("chat")] == [text]


def test_a_player_not_dealt_into_the_hand_may_name_a_card() -> None:
    """Someone seated after the deal holds no card of this hand: nothing to give away."""
    table, bia = _dealt_pair()
    table.join("caio", 2)
    assert table.room.dealer.hand is not None and 2 not in table.room.dealer.hand.dealt_seats
    assert table.submit(c.Chat("caio", "Caio", "As Kd", None)).ok
    assert [f["msg"]["text"] for f in bia.of("chat")] == ["As Kd"]
