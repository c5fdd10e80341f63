"""The word filter works on what people see (issue 40): each spelling the red team got past
it is masked, blank look-alikes make no message, and the operator's list grows without a
restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.chat_words import LiveWordFilter, WordFilter, clean_text


def said(text: str) -> str:
    """What the table reads when a seated player says ``text``."""
    table = Table(holdem_config())
    table.join("ana", 0)
    table.join("bia", 1)
    reply = table.submit(c.Chat("ana", "Ana", text, None))
    assert reply.ok, (text, reply.code)
    return str(reply.data["text"])


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        # invisible characters inside a word
        ("s\u034fhit", "****"),  # combining grapheme joiner
        ("mer\u3164da", "*****"),  # Hangul filler
        ("fu\ufe0fck", "****"),  # variation selector
        ("po\u200brra", "*****"),  # zero-width space
        ("ca\u2060ra\u00adlho", "*******"),  # word joiner, soft hyphen
        ("bu\u2800ceta", "******"),  # braille blank
        # separators
        ("s h i t", "* * * *"),
        ("f.d.p", "*****"),
        ("f_u_c_k", "*******"),
        ("F - D - P, vai", "* * * * *, vai"),
        # repeats and compounds
        ("merdaaa", "*******"),
        ("fuuuuck", "*******"),
        ("putaria", "*******"),
        ("bullshit", "********"),
        ("filhodaputa", "***********"),
        ("motherfuckers", "*************"),
        # look-alike letters of other scripts, full-width and mathematical forms
        ("fu\u0441k", "****"),  # Cyrillic es
        ("\u0455h\u0456t", "****"),  # Cyrillic dze, i
        ("\u0440orra", "*****"),  # Cyrillic er
        ("\uff53\uff48\uff49\uff54", "****"),  # full-width
        ("\U0001d41f\U0001d42e\U0001d41c\U0001d424", "****"),  # mathematical bold
        # digits and signs for letters, case and accents
        ("$h1t!", "****!"),
        ("Caralhó", "*******"),
    ],
)
def test_each_spelling_the_red_team_used_is_masked(text: str, seen: str) -> None:
    assert said(text) == seen


@pytest.mark.parametrize(
    "text",
    [
        "boa disputa, computador",
        "puts, passei",
        "Dickens escreveu",
        "a casa caiu",
        "shitake",
        "as cartas",
        "que mão!",
    ],
)
def test_innocent_words_that_contain_a_listed_one_are_left_alone(text: str) -> None:
    assert said(text) == text


@pytest.mark.parametrize(
    "text", ["\u2800", "\u3164\u3164", "\u200b \u200d", "\ufe0f", "\u034f\u2800 \u115f"]
)
def test_a_message_of_blank_look_alikes_is_refused_as_empty(text: str) -> None:
    table = Table(holdem_config())
    bia = table.join("bia", 1)
    table.join("ana", 0)
    reply = table.submit(c.Chat("ana", "Ana", text, None))
    assert reply.code == "chat_empty" and "needs some text" in reply.message
    assert bia.of("chat") == []


def test_invisible_characters_are_removed_from_what_is_sent() -> None:
    assert clean_text("o\u200bi \u2800bia\ufe0f") == "oi bia"


def test_the_operators_list_grows_without_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "chat_words.txt"
    words = LiveWordFilter(path)
    assert words.apply("abacaxi, porra") == "abacaxi, *****"  # no file yet: the defaults
    path.write_text("abacaxi\n# a comment\n!putativ\n", encoding="utf-8")
    assert words.apply("abacaxi, porra") == "*******, *****"
    assert words.apply("a-b-a-c-a-x-i") == "*************"  # read the same way as the defaults
    assert words.apply("putativo") == "putativo"  # an innocent stem of the operator's
    path.write_text("", encoding="utf-8")
    assert words.apply("abacaxi") == "abacaxi"
    path.unlink()
    assert words.apply("abacaxi, porra") == "abacaxi, *****"


def test_a_table_reads_the_operators_file_as_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "chat_words.txt"
    table = Table(holdem_config())
    table.join("ana", 0)
    table.join("bia", 1)
    table.room.chat.moderation.words = LiveWordFilter(path, WordFilter())
    assert table.submit(c.Chat("ana", "Ana", "jiló", None)).data["text"] == "jiló"
    path.write_text("jilo\n", encoding="utf-8")
    assert table.submit(c.Chat("ana", "Ana", "JILÓÓ", None)).data["text"] == "*****"
