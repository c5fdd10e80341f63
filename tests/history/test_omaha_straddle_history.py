"""Hand histories of the new board games: PHH files pokerkit 0.7.7 writes for Pot-Limit Omaha
(variant ``PO``, with and without antes) and for No-Limit Hold'em with a straddle replay
through ``ahiko hh replay --json`` to exactly pokerkit's finishing stacks; our PHH export of
such hands is read back by pokerkit to the same stacks.

pokerkit plays the hands at random, except the one raise our rules refuse by decision
(R-HE-08 **D**, the differential's one disagreement: after acting, a player facing less than
a big blind may not raise): a file holding it is one Ahiko's rules cannot replay."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pokerkit import (
    Automation,
    HandHistory,
    Mode,
    NoLimitTexasHoldem,
    Poker,
    PotLimitOmahaHoldem,
)

from ahiko.cli import main
from ahiko.history.hand_log import VisibleCards
from ahiko.history.phh import dumps, loads
from ahiko.history.phh_holdem import holdem_finishing_stacks, holdem_from_phh, holdem_to_phh
from ahiko.poker.holdem import OmahaHand

EVERY_AUTOMATION = tuple(Automation)  # pokerkit deals its own shuffled cards
HANDS_PER_KIND = 60


def pokerkit_history(
    rng: random.Random, game_class: type[Poker], *, ante: int, straddle: bool
) -> HandHistory:
    """One hand pokerkit plays at random (2-6 players; a straddle from 3), as its PHH."""
    n = rng.randint(3 if straddle else 2, 6)
    small, big = 5, 10
    blinds = (small, big, 2 * big) if straddle else (small, big)
    game = game_class(  # type: ignore[call-arg]
        EVERY_AUTOMATION, True, ante, blinds, big, mode=Mode.TOURNAMENT
    )
    stacks = [rng.choice((rng.randint(5, 60), rng.randint(60, 2000))) for _ in range(n)]
    state = game(stacks, n)
    acted: set[tuple[int | None, int]] = set()  # (street, player) that acted
    while state.status:
        roll = rng.random()
        actor = state.actor_index
        assert actor is not None
        # R-HE-08 D: a player who acted and faces less than a big blind since may not raise
        # where pokerkit lets them; such a file is not one our rules replay.
        closed = (state.street_index, actor) in acted and max(state.bets) - state.bets[actor] < big
        acted.add((state.street_index, actor))
        if state.can_fold() and roll < 0.2:
            state.fold()
        elif state.can_complete_bet_or_raise_to() and roll < 0.5 and not closed:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            assert low is not None and high is not None
            state.complete_bet_or_raise_to(rng.choice((low, high, rng.randint(low, high))))
        else:
            state.check_or_call()
    history = HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    return history


def write_histories(folder: Path, seed: int, game_class: type[Poker], **kind: object) -> None:
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the random module
    for k in range(HANDS_PER_KIND):
        history = pokerkit_history(rng, game_class, **kind)  # type: ignore[arg-type]
        (folder / f"{k:03}.phh").write_text(history.dumps())


@pytest.mark.parametrize(
    ("game_class", "ante", "straddle", "code"),
    [
        (PotLimitOmahaHoldem, 0, False, "PO"),
        (PotLimitOmahaHoldem, 2, False, "PO"),
        (NoLimitTexasHoldem, 0, True, "NT"),
        (NoLimitTexasHoldem, 2, True, "NT"),
    ],
    ids=["plo", "plo-antes", "straddle", "straddle-antes"],
)
def test_R_PT_05_hh_replay_json_matches_pokerkit_omaha_and_straddle_files(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game_class: type[Poker],
    ante: int,
    straddle: bool,
    code: str,
) -> None:
    write_histories(tmp_path, 4200 + ante + straddle, game_class, ante=ante, straddle=straddle)
    first = loads((tmp_path / "000.phh").read_text())
    assert first.variant == code
    if straddle:
        assert first.fields["blinds_or_straddles"][:3] == [5, 10, 20]
    assert main(["hh", "replay", "--json", str(tmp_path)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == HANDS_PER_KIND
    mismatched = [row for row in rows if row["match"] is not True]
    assert not mismatched, mismatched
    assert all(row["finishing_stacks"] == row["expected"] for row in rows)


def test_our_omaha_export_is_read_back_by_pokerkit_with_the_same_stacks(tmp_path: Path) -> None:
    """A Pot-Limit Omaha hand and a straddled hold'em hand, replayed by us and written out
    as PHH (``PO``; a straddle as the third blind), are replayed by pokerkit to the same
    finishing stacks."""
    for game_class, straddle in ((PotLimitOmahaHoldem, False), (NoLimitTexasHoldem, True)):
        write_histories(tmp_path, 77, game_class, ante=1, straddle=straddle)
        for path in sorted(tmp_path.glob("*.phh"))[:20]:
            hand = holdem_from_phh(loads(path.read_text()))
            assert isinstance(hand, OmahaHand) is (game_class is PotLimitOmahaHoldem)
            text = dumps(holdem_to_phh(hand, VisibleCards.all_cards(hand)))
            theirs = list(HandHistory.loads(text))[-1]
            assert list(theirs.stacks) == holdem_finishing_stacks(hand), text
