"""The PHH document layer: TOML reading/writing, the action grammar and deck rebuilding."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ahiko.history.deck_rebuild import draw_deck, holdem_deck
from ahiko.history.flat_toml import loads_flat
from ahiko.history.phh import (
    DealBoard,
    DealHole,
    PhhDocument,
    PhhError,
    PlayerMove,
    dumps,
    loads,
    parse_action,
)
from ahiko.history.phh_holdem import holdem_from_phh
from ahiko.history.replay import find_phh_files, replay_text, stacks_match
from ahiko.history.toml_writer import TomlWriteError, dumps_table
from ahiko.poker.cards import format_card, parse_card, parse_cards

# ../shared beside the repository; a worktree elsewhere names it through AHIKO_SHARED_DIR
SAMPLES = (
    Path(os.environ.get("AHIKO_SHARED_DIR", Path(__file__).resolve().parents[3] / "shared")) / "phh"
)


def test_toml_writer_round_trips_through_tomllib() -> None:
    fields = {
        "variant": "NT",
        "flag": True,
        "ratio": 0.25,
        "stacks": [100, 200],
        "name with space": 'quote " and \\ and\nnewline\ttab',
        "actions": ["d dh p1 AcAs", "p1 cc"],
    }
    text = dumps_table(fields, multiline_keys=("actions",))
    assert tomllib.loads(text) == fields
    assert '  "p1 cc",\n' in text


def test_toml_writer_refuses_what_it_cannot_write() -> None:
    with pytest.raises(TomlWriteError, match="non-finite"):
        dumps_table({"x": float("inf")})
    with pytest.raises(TomlWriteError, match="dict"):
        dumps_table({"x": {"nested": 1}})


def test_action_grammar_reads_every_supported_line() -> None:
    assert parse_action("d dh p1 AcAs", 3) == DealHole(0, parse_cards("AcAs"))
    assert parse_action("d dh p2 ????", 3) == DealHole(1, (None, None))
    assert parse_action("d dh p3 Ac??", 3) == DealHole(2, (parse_card("Ac"), None))
    assert parse_action("d db 7h8c9d", 3) == DealBoard(parse_cards("7h8c9d"))
    assert parse_action("p2 cbr 300  # comment", 3) == PlayerMove(1, "cbr", amount=300)
    assert parse_action("p1 cc", 3) == PlayerMove(0, "cc")
    assert parse_action("p3 f", 3) == PlayerMove(2, "f")
    assert parse_action("p1 sm AcAs", 3) == PlayerMove(0, "sm", cards=parse_cards("AcAs"))
    assert parse_action("p1 sm", 3) == PlayerMove(0, "sm")
    assert parse_action("p1 sd", 3) == PlayerMove(0, "sd")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("p4 cc", "out of range"),
        ("p1 xx", "unknown or unsupported action"),
        ("p1 cbr", "needs one amount"),
        ("p1 cbr 10.5", "whole number"),
        ("d dh p1 AcAc", "duplicate|dealt twice"),
        ("d dh p1 Zz9c", "bad card"),
        ("q1 cc", "expected a player"),
        ("d xx AcAs", "unsupported dealing"),
    ],
)
def test_action_grammar_names_what_is_wrong(line: str, message: str) -> None:
    with pytest.raises(PhhError, match=message):
        if "AcAc" in line:
            holdem_deck([parse_action("d dh p1 Ac??", 3), parse_action("d dh p2 Ac??", 3)], 3)
        else:
            parse_action(line, 3)


def test_document_round_trip_keeps_every_field() -> None:
    text = (SAMPLES / "dwan-ivey-2009.phh").read_text()
    doc = loads(text)
    again = loads(dumps(doc))
    assert again.fields == doc.fields
    assert again.actions == doc.actions
    assert doc.players == ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]


def test_loads_names_missing_fields_and_bad_toml() -> None:
    with pytest.raises(PhhError, match="missing required field 'actions'"):
        loads('variant = "NT"\nstarting_stacks = [1, 2]\n')
    with pytest.raises(PhhError, match="not valid TOML"):
        loads("variant = ")


def test_holdem_deck_puts_known_cards_at_their_layout_positions() -> None:
    n = 3
    actions = [
        parse_action("d dh p1 AcAs", n),
        parse_action("d dh p2 ????", n),
        parse_action("d dh p3 7h6h", n),
        parse_action("d db Jc3d5c", n),
        parse_action("d db 4h", n),
    ]
    deck = holdem_deck(actions, n)
    assert sorted(deck) == list(range(52))
    # hole card k of position j at k*n + j; board b at 2n + b (holdem-noburn-v1)
    assert [format_card(deck[p]) for p in (0, 3, 2, 5)] == ["Ac", "As", "7h", "6h"]
    assert [format_card(deck[p]) for p in (6, 7, 8, 9)] == ["Jc", "3d", "5c", "4h"]
    # unknown cards are filled with the lowest unused cards, deterministically
    assert deck[1] == 0 and deck[4] == 1
    assert holdem_deck(actions, n) == deck


@pytest.mark.parametrize("board", [[], ["d db Jc3d5c"], ["d db Jc3d5c", "d db 4h", "d db 2c"]])
def test_holdem_deck_fills_undealt_positions_with_the_unused_cards_ascending(
    board: list[str],
) -> None:
    n = 2
    lines = ["d dh p1 AcAs", "d dh p2 7h6h", *board]
    deck = holdem_deck([parse_action(line, n) for line in lines], n)
    board_cards = parse_cards("".join(line[5:] for line in board))
    dealt = len(board_cards) + 2 * n
    # holdem-noburn-v1 heads-up: p1 at 0 and 2, p2 at 1 and 3, the board from 4
    assert deck[:dealt] == parse_cards("Ac7hAs6h") + board_cards
    assert list(deck[dealt:]) == sorted(set(range(52)) - set(deck[:dealt]))


def test_draw_deck_places_replacements_in_draw_order() -> None:
    n = 2
    actions = [
        parse_action("d dh p1 AcKd2h3s4c", n),
        parse_action("d dh p2 ??????????", n),
        parse_action("p1 sd 2h3s", n),
        parse_action("d dh p1 QsJs", n),
        parse_action("p2 sd ??", n),
        parse_action("d dh p2 9c", n),
    ]
    deck, unknown = draw_deck(actions, n)
    assert [format_card(deck[k * n]) for k in range(5)] == ["Ac", "Kd", "2h", "3s", "4c"]
    assert [format_card(deck[p]) for p in (10, 11, 12)] == ["Qs", "Js", "9c"]
    assert unknown == frozenset(k * n + 1 for k in range(5))


def test_R_PT_05_half_chip_in_a_recorded_split_matches_our_whole_chips() -> None:
    assert stacks_match([10113, 9887], [10112.5, 9887.5])
    assert stacks_match([10112, 9888], [10112.5, 9887.5])
    assert not stacks_match([10114, 9886], [10112.5, 9887.5])
    assert not stacks_match([1, 2], [1, 2, 3])


def test_replay_reports_foreign_variants_as_skipped_not_matched() -> None:
    outcome = replay_text((SAMPLES / "alice-carol-wikipedia.phh").read_text(), "badugi.phh")
    assert outcome.match is None and outcome.error is None
    assert outcome.skipped is not None and "'FB' (fixed-limit badugi)" in outcome.skipped
    assert outcome.passed() and not outcome.passed(strict=True)


def test_replay_reports_broken_files_as_failures() -> None:
    outcome = replay_text("variant = 'NT'\n", "broken.phh")
    assert outcome.error is not None and "missing required field" in outcome.error
    assert not outcome.passed()


def test_find_phh_files_searches_folders_recursively(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.phh").write_text("")
    (tmp_path / "a" / "y.txt").write_text("")
    single = tmp_path / "z.phh"
    single.write_text("")
    assert find_phh_files([tmp_path / "a", single]) == [tmp_path / "a" / "b" / "x.phh", single]
    with pytest.raises(FileNotFoundError, match="no such file"):
        find_phh_files([tmp_path / "missing"])
    assert len(find_phh_files([SAMPLES])) == 158


def test_flat_toml_reader_agrees_with_tomllib_on_every_sample() -> None:
    texts = [p.read_text() for p in find_phh_files([SAMPLES])]
    fast = [loads_flat(t) for t in texts]
    assert sum(f is not None for f in fast) >= 150  # the fast path is the common one
    for text, parsed in zip(texts, fast, strict=True):
        if parsed is not None:
            assert parsed == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        'a = "esc\\"aped"\n',
        "[table]\nx = 1\n",
        'a = "p1 cc # not a comment"\n',
        "a = 1979-05-27\n",
        "a = { x = 1 }\n",
        "a = [1, 2\n",
        "a = 1\na = 2\n",
    ],
)
def test_flat_toml_reader_leaves_anything_unusual_to_tomllib(text: str) -> None:
    assert loads_flat(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "a = [1, 20, 300]",
        "a = [1, 2, ]",
        "a = [0, 0]",
        "a = [1, 2.5, -3]",
        "a = ['p1 cc', 'p2 cbr 300', '']",
        "a = ['']",
        "a = []",
        "a = ['a#b', 'c']",
        "a = ['x', 'y'] # comment",
        "a = ['x', 'y z' , ]",
        "a = [1, 'mixed']",
    ],
)
def test_flat_toml_one_line_arrays_read_as_tomllib_reads_them(text: str) -> None:
    assert loads_flat(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    ["a = [']", "a = ['a'b']", "a = ['a', 'b''c']", "a = [01, 2]", "a = [1, 02]", "a = [1, , 2]"],
)
def test_flat_toml_malformed_one_line_arrays_are_left_to_tomllib(text: str) -> None:
    assert loads_flat(text) is None
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)


@pytest.mark.parametrize(
    "line",
    [
        "d dh p1 2cAs",  # 2c is card 0
        "d dh p2 2c??",
        "d db 2c3d4h",
        "d db 2c",
        "d db ??",
        "p3 cbr 225",
        "p1 cbr 0",
        "p2 f",
        "p3 cc",
        "p1 sm",
        "p2 sd",
    ],
)
def test_action_grammar_fast_paths_agree_with_the_full_grammar(line: str) -> None:
    padded = line.replace(" ", "  ")  # off every fast path: the full grammar reads it
    assert parse_action(line, 3) == parse_action(padded, 3)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("p4 f", "out of range"),
        ("p4 cbr 10", "out of range"),
        ("d dh p4 AcKd", "out of range"),
        ("p1 cbr 1x", "whole number"),
        ("d db AcZz", "bad card"),
    ],
)
def test_action_grammar_fast_paths_leave_errors_to_the_full_grammar(
    line: str, message: str
) -> None:
    with pytest.raises(PhhError, match=message):
        parse_action(line, 3)


def test_holdem_deck_refuses_a_third_hole_card_and_a_sixth_board_card() -> None:
    with pytest.raises(PhhError, match="p1 is dealt more than 2 cards"):
        holdem_deck([parse_action("d dh p1 AcKd", 2), parse_action("d dh p1 Qh", 2)], 2)
    with pytest.raises(PhhError, match="more than 5 board cards"):
        holdem_deck([parse_action("d db AcKdQh", 2), parse_action("d db JhTh9h", 2)], 2)


@pytest.mark.parametrize("text", ["a = [0, 10, 0]", "a = [7]", "n = 0", "n = 1200"])
def test_flat_toml_whole_numbers_read_as_tomllib_reads_them(text: str) -> None:
    assert loads_flat(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", ["n = 012", "a = [0, 00]"])
def test_flat_toml_leading_zeros_are_left_to_tomllib(text: str) -> None:
    assert loads_flat(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\nb = 'x'\n",  # one value per line: the one-scan path
        "a = 1\n\nb = [1, 2]\n",  # a blank line: the line-by-line path
        "a = [1, 2] # note\nb = true",
        "a = [\n  'p1 cc',  # comment\n  'p2 f',\n]\n",
    ],
)
def test_flat_toml_both_paths_read_as_tomllib_reads(text: str) -> None:
    assert loads_flat(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "value", ["[" * 600 + "]" * 600, "9" * 5000], ids=["nested too deep", "huge integer"]
)
def test_loads_names_what_tomllib_cannot_read(value: str) -> None:
    text = f"variant = 'NT'\nstarting_stacks = [100, 100]\nactions = []\nx = {value}\n"
    with pytest.raises(PhhError, match="not readable"):
        loads(text)


def test_flat_toml_leaves_a_key_given_twice_to_tomllib() -> None:
    assert loads_flat("a = 1\na = 2\n") is None


@pytest.mark.parametrize(
    ("hole_lines", "message"),
    [
        (["d dh p1 AcAc", "d dh p2 KdKh"], "card Ac is dealt twice"),
        (["d dh p1 AcKd", "d dh p2 AcQh"], "card Ac is dealt twice"),
        (["d dh p1 AcKd", "d dh p1 QhJh"], "p1 is dealt more than 2 cards"),
        (["d dh p1 AcKd", "d dh p3 QhJh"], "player p3 out of range"),
    ],
)
def test_R_HE_04_replay_fast_hole_lines_name_the_same_errors(
    hole_lines: list[str], message: str
) -> None:
    doc = PhhDocument(
        "NT",
        [1000, 1000],
        [*hole_lines, "p2 f"],
        {"antes": 0, "blinds_or_straddles": [5, 10], "min_bet": 10},
    )
    with pytest.raises(PhhError, match=message):
        holdem_from_phh(doc)


def _assert_read_as_tomllib_reads_or_left_to_it(text: str) -> None:
    """The fast reader gives tomllib's answer or None; never a document tomllib refuses."""
    try:
        expected = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        assert loads_flat(text) is None
    else:
        fast = loads_flat(text)
        assert fast is None or _typed(fast) == _typed(expected)  # 1, 1.0 and True differ


def _typed(value: object) -> object:
    """``value`` with the type of every number kept, so that 1 == 1.0 == True is no match."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value), repr(value))


@pytest.mark.parametrize(
    "text",
    [
        "a = [1e5, -2, 0.5, 1.5E+3, -0]",  # JSON numbers: TOML reads them the same
        "a = [ 1 ,2,3 ]",
        "a = [NaN]",  # JSON, not TOML: must not be read
        "a = [Infinity, -Infinity]",
        "a = [nan, inf]",  # TOML, not JSON
        "a = [null]",
        "a = [1,\r2]",
        "a = [1, 2]\r\nb = 'x'\r\n",  # CRLF lines: TOML, left to tomllib
        "a = [[1], [2]]",
        "a = [true, false]",
        'a = [1, "x"]',
        "a = [+1, 1_000, 0x10]",
        "a = [1, 2]]",
    ],
)
def test_flat_toml_number_arrays_read_as_tomllib_or_not_at_all(text: str) -> None:
    _assert_read_as_tomllib_reads_or_left_to_it(text)


@pytest.mark.parametrize(
    "text",
    [
        "a = 'x', 'b': 'y'\n",  # a second JSON member smuggled in after a TOML string
        "a = 'x'\nb = 'y', 'a': 1\n",
        "a = 'del \x7f'\n",  # DEL: JSON reads it, TOML refuses it
        "a = 'tab\there'\n",  # a tab: TOML reads it, JSON refuses it
        "a = [1e05, 0e5, -0]\n",
        "a = '''x'''\n",
        "a = [1, 2] , 'b'\n",
        "a = null\n",
        "a = {}\n",
        "a = ''\nb = []\n",
        "a = 1\nb = 2\na = 3\n",
        "a = true\nb = [true, 'x', 1.5]\n",
        "a = [-0.0, 1.0, 1, true]\n",
        "a = " + "[" * 600 + "]" * 600 + "\n",  # tomllib gives up on nesting this deep
        "a = [[1, 2], [3]]\n",
        "a = " + "9" * 5000 + "\n",  # an integer Python will not convert
    ],
)
def test_flat_toml_json_path_reads_as_tomllib_or_not_at_all(text: str) -> None:
    _assert_read_as_tomllib_reads_or_left_to_it(text)


_TOML_BITS = st.sampled_from(
    [
        *("'", '"', "[", "]", ",", " ", "\t", ":", "#", "{", "}", "=", "\\", "\x7f", "\x01"),
        *("0", "1", "12", "-", "+", ".", "e", "E", "_", "x", "true", "false", "null", "nan"),
        *("inf", "NaN", "Infinity", "p1 cc", "é"),
    ]
)
_TOML_VALUES = st.one_of(
    st.lists(_TOML_BITS, max_size=8).map("".join),
    st.sampled_from(["'NT'", "[1, 2]", "['p1 f', 'p2 cc']", "10112.5", "true", "[]"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c-d", "e_1"]), _TOML_VALUES), max_size=4))
def test_flat_toml_reads_generated_documents_as_tomllib_or_not_at_all(
    lines: list[tuple[str, str]],
) -> None:
    text = "".join(f"{key} = {value}\n" for key, value in lines)
    _assert_read_as_tomllib_reads_or_left_to_it(text)
