"""Hold'em histories with the engine: PHH replay of real hands, export, PokerStars text, CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ahiko.cli import main
from ahiko.history.hand_log import VisibleCards
from ahiko.history.phh import PhhDocument, PhhError, dumps, loads
from ahiko.history.phh_holdem import (
    _read_lines,
    _read_usual_lines,
    holdem_finishing_stacks,
    holdem_from_phh,
    holdem_setup,
    holdem_to_phh,
)
from ahiko.history.phh_moves import apply_holdem_moves, apply_voluntary_shows
from ahiko.history.pokerstars import TableInfo, to_pokerstars
from ahiko.history.replay import find_phh_files, replay_file, replay_text
from ahiko.poker.actions import Action
from ahiko.poker.cards import parse_cards, validate_deck
from ahiko.poker.config import HoldemConfig
from ahiko.poker.holdem import HoldemHand

# ../shared beside the repository; a worktree elsewhere names it through AHIKO_SHARED_DIR
SAMPLES = (
    Path(os.environ.get("AHIKO_SHARED_DIR", Path(__file__).resolve().parents[3] / "shared")) / "phh"
)

SPLIT_WITH_ODD_CHIP = """
variant = "NT"
antes = [1, 1, 1]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ["d dh p1 2c3d", "d dh p2 2d3c", "d dh p3 4h5h", "p3 f", "p1 cc", "p2 cc",
           "d db AsKsQs", "p1 cc", "p2 cc", "d db Js", "p1 cc", "p2 cc", "d db Ts",
           "p1 cc", "p2 cc"]
finishing_stacks = [1000.5, 1000.5, 999]
"""


def _deck(text: str) -> list[int]:
    """A deck starting with the given cards, the rest in ascending order."""
    first = list(parse_cards(text))
    return first + [c for c in range(52) if c not in first]


def test_R_PT_05_every_sample_hand_replays_and_matches() -> None:
    outcomes = [replay_file(p) for p in find_phh_files([SAMPLES])]
    assert all(o.error is None for o in outcomes), [o.error for o in outcomes if o.error]
    matched = [o for o in outcomes if o.match]
    assert len(matched) == 153  # every Pluribus hand records finishing stacks
    assert not [o for o in outcomes if o.match is False]
    skipped = {Path(o.file).name for o in outcomes if o.skipped}
    assert skipped == {
        "alice-carol-wikipedia.phh",
        "antonius-blom-2009.phh",
        "arieh-yockey-2019.phh",
        "phua-xuan-2019.phh",
    }


def test_R_HE_07_unknown_cards_and_antes_replay_dwan_ivey() -> None:
    hand = holdem_from_phh(loads((SAMPLES / "dwan-ivey-2009.phh").read_text()))
    # the published result of the hand (pokerkit's doctest agrees): Dwan wins 1,109,500
    assert holdem_finishing_stacks(hand) == [572100, 1997500, 1109500]


def test_R_PT_05_half_chip_split_matches_with_the_odd_chip_after_the_button() -> None:
    outcome = replay_text(SPLIT_WITH_ODD_CHIP, "split.phh")
    assert outcome.finishing_stacks == [1001, 1000, 999]  # p1 is first after the button
    assert outcome.match is True


def test_replay_names_an_out_of_turn_move() -> None:
    text = SPLIT_WITH_ODD_CHIP.replace('"p3 f", "p1 cc"', '"p1 cc", "p3 f"')
    outcome = replay_text(text, "bad.phh")
    assert outcome.error is not None and "it is p3's turn, not p1's" in outcome.error


def test_R_HE_05_replay_names_an_out_of_turn_fold_and_a_move_after_the_end() -> None:
    early_fold = SPLIT_WITH_ODD_CHIP.replace('"p3 f", "p1 cc"', '"p1 f", "p3 f"')
    with pytest.raises(PhhError, match="it is p3's turn, not p1's"):
        holdem_from_phh(loads(early_fold))
    one_more = SPLIT_WITH_ODD_CHIP.replace('"p1 cc", "p2 cc"]', '"p1 cc", "p2 cc", "p1 f"]')
    with pytest.raises(PhhError, match="no player may act now"):
        holdem_from_phh(loads(one_more))


def test_R_HE_06_replay_rejects_a_fold_when_checking_is_free() -> None:
    free_fold = SPLIT_WITH_ODD_CHIP.replace('"d db AsKsQs", "p1 cc"', '"d db AsKsQs", "p1 f"')
    with pytest.raises(PhhError, match="'p1 f' is illegal here: R-HE-06: nothing to call"):
        holdem_from_phh(loads(free_fold))


def test_R_HE_07_replay_rejects_an_illegal_raise_with_the_rule() -> None:
    text = SPLIT_WITH_ODD_CHIP.replace('"p3 f"', '"p3 cbr 15"')
    with pytest.raises(PhhError, match="R-HE-07"):
        holdem_from_phh(loads(text))


def test_replay_refuses_what_our_rules_cannot_play() -> None:
    uneven = SPLIT_WITH_ODD_CHIP.replace("antes = [1, 1, 1]", "antes = [0, 0, 1]")
    with pytest.raises(PhhError, match="differ between players"):
        holdem_from_phh(loads(uneven))


@pytest.mark.parametrize("name", ["30/12.phh", "30/21.phh", "31/5.phh", "30/63.phh"])
def test_export_then_import_gives_the_same_hand(name: str) -> None:
    hand = holdem_from_phh(loads((SAMPLES / "pluribus" / name).read_text()))
    text = dumps(holdem_to_phh(hand, VisibleCards.all_cards(hand)))
    again = holdem_from_phh(loads(text))
    assert again.events == hand.events
    assert loads(text).finishing_stacks == holdem_finishing_stacks(hand)


def _showdown_hand() -> HoldemHand:
    """Seats 1, 4, 6; button 6. Seat 1 (SB) folds, seat 4 and seat 6 go to showdown."""
    deck = _deck("2c Ah Kd 7s As Kh 9c 8c 3d 4s 5h")
    hand, _ = HoldemHand.start(HoldemConfig(5, 10), [1, 4, 6], [500, 300, 800], 6, deck)
    hand.act(6, Action.raise_to(30))
    hand.act(1, Action.fold())
    hand.act(4, Action.raise_to(300))  # all-in
    hand.act(6, Action.call())
    assert hand.is_over
    return hand


def test_R_HE_12_viewer_export_hides_cards_the_viewer_may_not_see() -> None:
    hand = _showdown_hand()
    seat1_view = holdem_to_phh(hand, VisibleCards.for_viewer(hand, 1))
    dealt = [a for a in seat1_view.actions if a.startswith("d dh")]
    assert dealt[0] == "d dh p1 2c7s"  # seat 1's own cards
    # seats 4 and 6 showed down (all-in), so everyone may see them
    assert dealt[1:] == ["d dh p2 AhAs", "d dh p3 KdKh"]
    spectator = holdem_to_phh(hand, VisibleCards.for_viewer(hand, None))
    assert spectator.actions[0] == "d dh p1 ????"


def test_pokerstars_text_has_the_lines_trackers_read() -> None:
    hand = _showdown_hand()
    names = {1: "Ana", 4: "Bruno", 6: "Caio"}
    text = to_pokerstars(
        hand, VisibleCards.for_viewer(hand, 1), TableInfo(42, "Sala 1", 8, names=names)
    )
    lines = text.splitlines()
    assert lines[0] == "PokerStars Hand #42:  Hold'em No Limit (5/10) - 2026/01/01 00:00:00 ET"
    assert lines[1] == "Table 'Sala 1' 8-max Seat #7 is the button"
    assert lines[2:5] == [
        "Seat 2: Ana (500 in chips)",
        "Seat 5: Bruno (300 in chips)",
        "Seat 7: Caio (800 in chips)",
    ]
    assert "Ana: posts small blind 5" in lines and "Bruno: posts big blind 10" in lines
    assert lines.index("*** HOLE CARDS ***") < lines.index("Dealt to Ana [2c 7s]")
    assert not any(line.startswith("Dealt to Bruno") for line in lines)
    assert "Caio: raises 20 to 30" in lines
    assert "Bruno: raises 270 to 300 and is all-in" in lines
    assert "Caio: calls 270" in lines
    assert any(line.startswith("*** FLOP *** [9c 8c 3d]") for line in lines)
    assert "*** TURN *** [9c 8c 3d] [4s]" in lines
    assert "*** RIVER *** [9c 8c 3d 4s] [5h]" in lines
    assert "*** SUMMARY ***" in lines and "Board [9c 8c 3d 4s 5h]" in lines
    assert "Total pot 605 | Rake 0" in lines
    assert "Seat 2: Ana (small blind) folded before Flop" in lines
    assert any(line.startswith("Bruno collected 605 from pot") for line in lines)


def test_R_PT_03_pokerstars_returns_the_uncalled_bet() -> None:
    deck = _deck("2c3c 4d5d")
    hand, _ = HoldemHand.start(HoldemConfig(5, 10), [0, 1], [100, 100], 0, deck)
    hand.act(0, Action.raise_to(40))
    hand.act(1, Action.fold())
    text = to_pokerstars(hand, VisibleCards.for_viewer(hand, 0))
    assert "Uncalled bet (30) returned to Player1" in text
    assert "Player1 collected 20 from pot" in text
    assert "Seat 1: Player1 (button) (small blind) collected (20)" in text


def test_cli_replay_json_matches_every_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hh", "replay", "--json", str(SAMPLES)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 158
    assert all({"file", "finishing_stacks", "expected", "match"} <= row.keys() for row in rows)
    assert sum(row["match"] is True for row in rows) == 153
    assert main(["hh", "replay", "--strict", str(SAMPLES)]) == 1


def test_cli_replay_exits_1_on_a_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "wrong.phh"
    wrong.write_text(SPLIT_WITH_ODD_CHIP.replace("[1000.5, 1000.5, 999]", "[1002, 999, 999]"))
    assert main(["hh", "replay", "--json", str(wrong)]) == 1
    row = json.loads(capsys.readouterr().out)
    assert row == {
        "file": str(wrong),
        "finishing_stacks": [1001, 1000, 999],
        "expected": [1002, 999, 999],
        "match": False,
    }


def test_cli_export_writes_pokerstars_text(capsys: pytest.CaptureFixture[str]) -> None:
    path = SAMPLES / "pluribus" / "30" / "12.phh"
    assert main(["hh", "export", str(path), "--viewer", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PokerStars Hand #1:") and "*** SUMMARY ***" in out


def test_R_PT_01_pokerstars_side_pots_are_named_and_summed() -> None:
    deck = list(range(51, -1, -1))  # As Ah Ad / Ac Ks Kh ... board Kd Kc Qs Qh Qd
    hand, _ = HoldemHand.start(HoldemConfig(5, 10), [0, 1, 2], [50, 100, 100], 2, deck)
    hand.act(2, Action.raise_to(100))
    hand.act(0, Action.call())
    hand.act(1, Action.call())
    lines = to_pokerstars(hand, VisibleCards.for_viewer(hand, None)).splitlines()
    assert "Player1: calls 45 and is all-in" in lines
    assert lines.index("*** SHOW DOWN ***") < lines.index(
        "Player1: shows [As Ac] (Full house, queens over aces)"
    )
    assert "Player2 collected 75 from main pot" in lines
    assert "Player3 collected 50 from side pot-1" in lines
    assert "Total pot 250 Main pot 150. Side pot-1 100. | Rake 0" in lines
    assert (
        "Seat 2: Player2 (big blind) showed [Ah Ks] and won (125) with Full house, kings over queens"
        in lines
    )


def test_usual_file_reader_gives_what_the_general_reader_gives_on_every_sample() -> None:
    docs = [loads(p.read_text()) for p in find_phh_files([SAMPLES])]
    fast = 0
    for doc in (d for d in docs if d.variant == "NT"):
        usual = _read_usual_lines(doc.actions, doc.player_count)
        if usual is not None:
            fast += 1
            assert usual == _read_lines(doc.actions, doc.player_count)
    assert fast >= 150  # the Pluribus hands all take the fast reader


def test_usual_file_reader_deck_is_a_checked_deck_and_starts_the_same_hand() -> None:
    """The replay starts the usual file's hand without checking its deck again: the deck must
    be what ``validate_deck`` returns (a tuple of the 52 plain ints), and the hand the same."""
    docs = [loads(p.read_text()) for p in find_phh_files([SAMPLES / "pluribus"])]
    for doc in docs:
        usual = _read_usual_lines(doc.actions, doc.player_count)
        assert usual is not None
        deck = usual[0]
        assert type(deck) is tuple and validate_deck(deck) == deck
        assert {type(c) for c in deck} == {int} and sorted(deck) == list(range(52))
        setup = holdem_setup(doc)
        args = (setup.config, setup.seats, setup.stacks, setup.button, deck)
        checked = HoldemHand._start_checked(*args)
        hand, _ = HoldemHand.start(*args)
        assert checked.events == hand.events and checked.deck == hand.deck
        assert holdem_from_phh(doc).events == _replayed_with_start(doc).events


def _replayed_with_start(doc: PhhDocument) -> HoldemHand:
    """The document replayed through ``HoldemHand.start`` (the deck checked)."""
    setup = holdem_setup(doc)
    deck, moves, shows = _read_lines(doc.actions, doc.player_count)
    hand, _ = HoldemHand.start(setup.config, setup.seats, setup.stacks, setup.button, deck)
    apply_holdem_moves(hand, moves, setup.seats)
    apply_voluntary_shows(hand, shows, setup.seats)
    return hand


@pytest.mark.parametrize(
    "actions",
    [
        ["d dh p2 AcKd", "d dh p1 QhJh", "p2 f"],  # hole lines out of position order
        ["d dh p1 Ac??", "d dh p2 QhJh", "p2 f"],  # an unknown card
        ["d dh p1 AcKd", "d dh p2 AcJh", "p2 f"],  # a card dealt twice
        ["d dh p1 AcKd", "d dh p2 QhJh", "p2 cc", "p1 cc", "d db AcTh9h"],  # board repeats Ac
        ["d dh p1 AcKd", "d dh p2 QhJh", "p2 cc", "p1 cc", "d db Th9h8h7h6h5h"],
        ["d dh p1 AcKd", "d dh p2 QhJh", "p2 cc", "p1 cc", "d db Th9h8h", "d dh p1 2c"],
        ["d dh p1 AcKd", "d dh p2 QhJh", "p2 sd"],
        ["d dh p1 AcKd", "d dh p2 QhJh", "p2  cc", "p1 sm AcKd"],  # other spellings
        ["d dh p1 AcKd", "d dh p2 QhJh", "p3 cc"],  # no such player
        ["d dh p1 AcKd", "d dh p2 QhJh", "p2 cbr 1x"],
        ["d dh p1 AcKd\nd dh p2 QhJh", "p2 f"],  # two lines in one string
        ["d dh p1 AcKd\nd dh p2 QhJh"],
    ],
)
def test_usual_file_reader_reads_as_the_general_reader_or_leaves_it_to_it(
    actions: list[str],
) -> None:
    usual = _read_usual_lines(actions, 2)
    try:
        general = _read_lines(actions, 2)
    except PhhError:
        assert usual is None  # the general reader names the error
    else:
        assert usual in (None, general)
