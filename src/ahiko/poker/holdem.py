"""No-Limit Texas Hold'em, 2-9 players (SPEC §2-3), and Pot-Limit Omaha, its four-card kin.

    hand, events = HoldemHand.start(HoldemConfig(10, 20), seats=[0, 2, 5],
                                    stacks=[1000, 800, 1200], button=5, deck=deck)
    while not hand.is_over:
        hand.act(hand.to_act, choose(hand.legal_actions()))

Order of a hand: antes from everyone (R-HE-02, optional), then the small and big blind (with
three or more players the two seats after the button; heads-up the button posts the small
blind, R-HE-03), each short stack posting what it has. Hole cards and the board come off the
deck by the ``holdem-noburn-v1`` layout. Pre-flop the seat after the big blind acts first;
later streets start with the first seat after the button still able to act (R-HE-05). When no
more than one player can still bet, the rest of the board is dealt without betting (R-HE-11).

A straddle (``HoldemConfig.straddle``, as pokerkit and PHH write blinds-or-straddles) is a
third blind posted by the seat after the big blind; pre-flop the seat after the largest forced
bet then acts first. Heads-up nobody straddles. Pot-Limit Omaha (``OmahaHand``) is the same
hand with what its game says differently: four hole cards (``omaha4-noburn-v1``: hole card k
of the j-th seat at k*n + j, the board from 4n on), pot-limit bets, and hands of exactly two
hole cards and three of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .actions import Action, ActionKind, LegalActions, check_chips
from .betting import BettingRound, Rules
from .cards import Card
from .config import HoldemConfig
from .events import BlindPosted, Event, HoleDealt
from .fast_init import fast_constructor
from .games import HOLDEM, POT_LIMIT_OMAHA
from .house import HouseHand
from .layout import board_game_positions, private_positions
from .ranking import holdem_strengths, omaha_strengths

_FOLD, _CHECK, _CALL = Action.fold(), Action.check(), Action.call()
_new_action = fast_constructor(Action)  # the same objects as Action(...), built for less
_new_blind_posted = fast_constructor(BlindPosted)
_new_hole_dealt = fast_constructor(HoleDealt)
_BET, _RAISE = ActionKind.BET, ActionKind.RAISE
_NEXT_STREET = {"preflop": "flop", "flop": "turn", "turn": "river"}
_STREET_BOARD = {"flop": slice(0, 3), "turn": slice(3, 4), "river": slice(4, 5)}


@lru_cache(maxsize=32)
def _next_deal(n: int, hole_cards: int) -> dict[str, tuple[str, tuple[int, ...]]]:
    """Street -> (the next street, its board cards' deck positions), for n players."""
    _, board = board_game_positions(n, hole_cards)
    return {street: (name, board[_STREET_BOARD[name]]) for street, name in _NEXT_STREET.items()}


class HoldemHand(HouseHand):
    game = HOLDEM
    rules = Rules(order="R-HE-05", actions="R-HE-06", size="R-HE-07", reopen="R-HE-08", cap="")
    show_rule = "R-HE-12"

    @classmethod
    def _start_checked(
        cls,
        config: HoldemConfig,
        seats: Sequence[int],
        stacks: Sequence[int],
        button: int,
        deck: tuple[Card, ...],
    ) -> HoldemHand:
        """``start`` (the hand only) for a deck its caller built the way ``validate_deck``
        returns one: a tuple holding each of the 52 cards once, as plain ints. The same hand,
        without checking the deck a second time (the PHH reader's usual files)."""
        hand = cls(config, seats, stacks, button, deck, _deck_checked=True)
        hand._begin()
        return hand

    @classmethod
    def start_hand(
        cls,
        config: HoldemConfig,
        seats: Sequence[int],
        stacks: Sequence[int],
        button: int,
        deck: Sequence[Card],
    ) -> HoldemHand:
        """``start``, the hand only (its events are ``hand.events``)."""
        hand, _ = cls.start(config, seats, stacks, button, deck)
        return hand

    @classmethod
    def _config_from(cls, values: dict[str, int]) -> HoldemConfig:
        return HoldemConfig(**values)

    def stakes(self) -> dict[str, int]:
        return self.config.stakes()

    def betting_now(self) -> tuple[int, int, int] | None:
        """(seat to act, the round's highest bet, that seat's street bet), or None when
        nobody is to act: tells a check from a call and a bet from a raise without building
        ``legal_actions()`` (replays use it)."""
        i = self._to_act_index()
        if i is None:
            return None
        betting = self.round
        assert betting is not None
        return self.order[i], betting.max_bet, betting.bets[i]

    # The usual calls, without the generic path's layers: hold'em's turn is the betting
    # queue's head (the base class's ``_to_act_index``, inlined).

    @property
    def to_act(self) -> int | None:
        betting = self.round
        if self.result is None and betting is not None and betting.queue:
            return self.order[betting.queue[0]]
        return None

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        betting = self.round
        if seat is None and self.result is None and betting is not None and betting.queue:
            return betting.legal(betting.queue[0])
        return super().legal_actions(seat)

    def _turn_index(self, seat: int) -> int:
        betting = self.round  # the usual case without a call: hold'em's turn is the queue's
        if self.result is None and betting is not None and betting.queue:
            i = betting.queue[0]
            if seat == self.order[i]:
                return i
        return super()._turn_index(seat)

    # PHH's three betting verbs: ``play`` applies one and returns nothing (a replay reads the
    # log once, at the end); ``fold``, ``check_or_call`` and ``bet_or_raise_to`` return the
    # events, as ``act`` does.

    def play(self, seat: int, verb: str, amount: int | None = None) -> None:
        """PHH's ``f`` (fold), ``cc`` (a check, or a call facing a bet) or ``cbr`` (a bet to
        ``amount``, or a raise to it facing a bet) for ``seat``: ``act`` with the action the
        verb names, checked as any action is, without ``act``'s checks of the action's
        types. Out of turn, or a bad amount, raises IllegalAction and changes nothing."""
        betting = self.round  # the turn: the queue's head (else _turn_index raises, says why)
        queue = betting.queue if self.result is None and betting is not None else None
        if queue and type(seat) is int and seat == self.order[queue[0]]:
            i = queue[0]
        else:  # the seat, then the amount, then the turn: the first thing wrong is named
            self._check_seat(seat)
            if verb == "cbr":
                check_chips(self.rules.size, "the amount", amount)
            i = self._turn_index(seat)
        assert betting is not None
        if verb == "f":
            self._act(i, _FOLD)
        elif verb == "cc":
            self._act(i, _CALL if betting.max_bet > betting.bets[i] else _CHECK)
        elif verb == "cbr":
            if type(amount) is not int or amount < 0:
                check_chips(self.rules.size, "the amount", amount)
            kind = _RAISE if betting.max_bet else _BET
            self._act(i, _new_action(kind, amount))  # type: ignore[arg-type]  # an int: checked
        else:
            raise ValueError(f"unknown betting verb {verb!r}: f, cc or cbr")

    def fold(self, seat: int) -> list[Event]:
        """``play(seat, "f")``, returning its events."""
        mark = len(self.log)
        self.play(seat, "f")
        return self.log[mark:]

    def check_or_call(self, seat: int) -> list[Event]:
        """``play(seat, "cc")``, returning its events."""
        mark = len(self.log)
        self.play(seat, "cc")
        return self.log[mark:]

    def bet_or_raise_to(self, seat: int, amount: int) -> list[Event]:
        """``play(seat, "cbr", amount)``, returning its events."""
        mark = len(self.log)
        self.play(seat, "cbr", amount)
        return self.log[mark:]

    @property
    def small_blind_seat(self) -> int:
        return self.order[self._blind_indices()[0]]

    @property
    def big_blind_seat(self) -> int:
        return self.order[self._blind_indices()[1]]

    def _blind_indices(self) -> tuple[int, int]:
        return (self.n - 1, 0) if self.n == 2 else (0, 1)

    def _begin(self) -> None:
        cfg = self.config
        self._board2 = []
        stakes = cfg.stakes()
        if self.n <= 3:  # the seat after the big blind is the button: one straddle, one name
            stakes.pop("straddle_button", None)
        self._start_log(stakes)
        if cfg.bomb_pot:
            self._begin_bomb_pot()
            return
        if cfg.ante:
            self._post_antes(cfg.ante)
        n, chips, total, log, order = self.n, self.chips, self.total, self.log, self.order
        self.round = betting = self._new_round(cfg.big_blind)
        sb, bb = (n - 1, 0) if n == 2 else (0, 1)  # _blind_indices
        if chips[sb] > 0:
            posted = betting.post(sb, cfg.small_blind)
            total[sb] += posted
            log.append(_new_blind_posted(order[sb], posted, "sb", chips[sb] == 0))
        if chips[bb] > 0:
            posted = betting.post(bb, cfg.big_blind)
            total[bb] += posted
            log.append(_new_blind_posted(order[bb], posted, "bb", chips[bb] == 0))
        first = (bb + 1) % n
        if cfg.straddle and n > 2:  # heads-up nobody straddles (pokerkit: two blinds only)
            first = self._post_straddle(betting, cfg.straddle)
        if self.game.hole_cards == 2:
            # The deal (``_deal_private(2)``: each player's pair read directly)
            deck, new_hole_dealt = self.deck, _new_hole_dealt
            self.holes = holes = []
            for j, positions in enumerate(private_positions(n, 2)):
                pair = deck[j], deck[j + n]
                holes.append(list(pair))
                log.append(new_hole_dealt(order[j], pair, positions))
        else:
            self._deal_private(self.game.hole_cards)
        self.street = "preflop"
        betting.begin(first)
        if betting.is_done():
            self._advance()

    def _post_straddle(self, betting: BettingRound, amount: int) -> int:
        """The seat left of the big blind (or the button) posts the straddle (what it has, if short); returns
        the index of the first to act pre-flop: left of the largest forced bet, the later
        seat on a tie (pokerkit's opener), so a short straddle leaves the big blind's bet
        the one to answer."""
        chips, straddler = self.chips, self._straddler_index()
        if chips[straddler] > 0:
            posted = betting.post(straddler, amount)
            self.total[straddler] += posted
            self.log.append(
                _new_blind_posted(self.order[straddler], posted, "straddle", chips[straddler] == 0)
            )
        bets = betting.bets
        largest = max(range(self.n), key=lambda i: (bets[i], i))
        return (largest + 1) % self.n

    def _advance(self) -> None:
        cfg = self.config
        while True:
            if self._close_round() == 1:
                self._finish_uncontested()
                return
            street = self.street
            if street == "river":
                if self.runs == 2:
                    self._second_run_out()
                if self._board2:
                    self._showdown_on_boards()
                else:
                    self._showdown()
                return
            # Only a table that runs it twice asks (every street of every hand passes here).
            if cfg.run_twice and self._offers_runs():
                return  # the players still in say whether to run it twice
            name, positions = _next_deal(self.n, self.game.hole_cards)[street]
            self._deal_street(name, positions)
            if cfg.boards == 2:
                self._deal_second(name)
            betting = self._new_round(cfg.big_blind)
            betting.begin(0)
            if self.halted:
                betting.queue = []  # R-TM-06 D: the rest of the board, without betting
            elif betting.queue:  # more than one player is in (else the hand was over)
                return

    def _showdown_cards(self, i: int) -> list[Card]:
        return self.holes[i] + self.community

    def _strengths(self, live: list[int]) -> list[int]:
        holes = self.holes
        return holdem_strengths([holes[i] for i in live], self.community)

    def _strengths_on(self, live: list[int], board: Sequence[Card]) -> list[int]:
        return holdem_strengths([self.holes[i] for i in live], list(board))


class OmahaHand(HoldemHand):
    """Pot-Limit Omaha: hold'em's deal, streets and blinds with four hole cards, pot-limit
    betting and a hand made of exactly two hole cards and three of the board (its ``game``)."""

    game = POT_LIMIT_OMAHA

    def _strengths(self, live: list[int]) -> list[int]:
        holes = self.holes
        return omaha_strengths([holes[i] for i in live], self.community)

    def _strengths_on(self, live: list[int], board: Sequence[Card]) -> list[int]:
        return omaha_strengths([self.holes[i] for i in live], list(board))

    def _begin(self) -> None:
        if self.config.seven_deuce:
            raise ValueError("seven-deuce is a hold'em option: Omaha hands have four cards")
        super()._begin()
