"""The house options of a board game's hand (``HoldemConfig``) in a PHH file.

PHH writes a straddle as a ``blinds_or_straddles`` entry: the third (the seat after the big
blind) or, for the button's straddle, the last. The rest has no PHH field, so ours are
user-defined ones (PHH's start with an underscore):

- ``_bomb_pot = true``: the ``antes`` are the bomb pot's; the blinds are not posted and
  nobody bets before the flop.
- ``_boards = 2``: a double board; its ``d db`` lines alternate between the boards street
  by street (pokerkit's order with ``starting_board_count=2``).
- ``_run_twice = [2, 2, 0]``: the table runs it twice; each player's answer in position
  order (2 twice, 1 once, 0 not asked; empty when nobody was asked). A second run-out's
  ``d db`` lines follow the first board's five (pokerkit's order).
- ``_seven_deuce = 50``: the seven-deuce bounty; the finishing stacks include what was paid.

pokerkit reads the straddles; it has no field for the others (a run-out count, a bomb pot).
"""

from __future__ import annotations

from collections.abc import Sequence

from ahiko.poker.config import HoldemConfig
from ahiko.poker.events import Event, RunoutChosen
from ahiko.poker.holdem import HoldemHand

from .phh import PhhError

BOMB_POT_FIELD = "_bomb_pot"
BOARDS_FIELD = "_boards"
RUN_TWICE_FIELD = "_run_twice"
SEVEN_DEUCE_FIELD = "_seven_deuce"
_OPTION_FIELDS = frozenset({BOMB_POT_FIELD, BOARDS_FIELD, RUN_TWICE_FIELD, SEVEN_DEUCE_FIELD})


def blinds_or_straddles(config: HoldemConfig, n: int) -> list[int]:
    """PHH's ``blinds_or_straddles`` in position order: the small and big blind, the straddle
    third or, the button's, last (never heads-up: nobody straddles there), zero for the
    others."""
    forced = [config.small_blind, config.big_blind] + [0] * (n - 2)
    if config.straddle and n > 2:
        forced[n - 1 if config.straddle_button else 2] = config.straddle
    return forced


def read_straddle(rest: Sequence[int]) -> tuple[int, int]:
    """(straddle, straddle_button) from the entries after the two blinds."""
    if not any(rest):
        return 0, 0
    if rest[0] and not any(rest[1:]):
        return rest[0], 0
    if rest[-1] and not any(rest[:-1]):
        return rest[-1], 1
    raise PhhError(
        f"blinds_or_straddles after the blinds {list(rest)}: only one straddle, after the "
        "big blind or on the button, is supported"
    )


def option_fields(
    config: HoldemConfig, events: Sequence[Event], order: Sequence[int]
) -> dict[str, object]:
    """The user-defined fields of the options this hand was played with."""
    fields: dict[str, object] = {}
    if config.bomb_pot:
        fields[BOMB_POT_FIELD] = True
    if config.boards == 2:
        fields[BOARDS_FIELD] = 2
    if config.run_twice:
        answers = {e.seat: e.runs for e in events if isinstance(e, RunoutChosen)}
        fields[RUN_TWICE_FIELD] = [answers.get(s, 0) for s in order] if answers else []
    if config.seven_deuce:
        fields[SEVEN_DEUCE_FIELD] = config.seven_deuce
    return fields


def option_values(fields: dict[str, object], ante: int) -> tuple[dict[str, int], int]:
    """The options a file's fields ask for (``HoldemConfig`` keywords) and the plain ante
    (0 in a bomb pot, whose antes are the bomb)."""
    if _OPTION_FIELDS.isdisjoint(fields):  # the usual file: a plain hand, read for less
        return {}, ante
    values: dict[str, int] = {}
    if fields.get(BOMB_POT_FIELD) is True:
        values["bomb_pot"], ante = ante, 0
    boards = fields.get(BOARDS_FIELD, 1)
    if boards not in (1, 2) or type(boards) is not int:
        raise PhhError(f"{BOARDS_FIELD} {boards!r}: a hand is played on 1 or 2 boards")
    if boards == 2:
        values["boards"] = 2
    if RUN_TWICE_FIELD in fields:
        values["run_twice"] = 1
    bounty = fields.get(SEVEN_DEUCE_FIELD, 0)
    if type(bounty) is not int or bounty < 0:
        raise PhhError(f"{SEVEN_DEUCE_FIELD} {bounty!r}: a bounty is a whole number of chips")
    if bounty:
        values["seven_deuce"] = bounty
    return values, ante


def second_board_kind(fields: dict[str, object]) -> str:
    """How the file's ``d db`` lines place a second board (``HoldemDealing``)."""
    if fields.get(BOARDS_FIELD) == 2:
        return "double"
    return "rerun" if RUN_TWICE_FIELD in fields else ""


def answer_runs(hand: HoldemHand, fields: dict[str, object], seats: Sequence[int]) -> None:
    """The players' answers to running it twice, once the moves have led to the question."""
    # Without the field the table did not run it twice (``option_values``): nobody is asked.
    if RUN_TWICE_FIELD not in fields:
        return
    answers = fields.get(RUN_TWICE_FIELD)
    if not hand.runs_pending:
        return
    if type(answers) is not list or len(answers) != len(seats):
        raise PhhError(f"{RUN_TWICE_FIELD} {answers!r}: one answer (0, 1 or 2) per player")
    for j, runs in enumerate(answers):
        if seats[j] in hand.runs_pending:
            if runs not in (1, 2) or type(runs) is not int:
                raise PhhError(f"{RUN_TWICE_FIELD}: p{j + 1} was asked, answered {runs!r}")
            hand.choose_runs(seats[j], runs)
