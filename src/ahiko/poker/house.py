"""The house options of a board game's hand (``HoldemConfig``): rules of the hand itself,
played the same way at every table that turns them on.

- Run it twice: when every player still in is all-in before the river (at most one of them
  has chips left), each is asked; the hand waits for every answer (``choose_runs``) and,
  if all chose two, deals the rest of the board a second time once the first run-out is
  complete. The second run-out's cards are the deck's next positions, after the first
  board's five (``second_board_position``).
- Double board: a second board is dealt street by street with the first, from the same
  positions five further on.
- On two boards (either way) each pot is split in halves, one per board; an odd chip goes
  to the first winner after the button of either board (R-PT-05), and each half is split
  among that board's winners as any pot (R-PT-04/05).
- Bomb pot: every player antes the set amount instead of the blinds; nobody bets pre-flop,
  the flop comes at once and the betting starts after it.
- Seven-deuce: a player who wins a pot (or a share of one) holding a seven and a deuce,
  and shows them, collects the bounty from every other player dealt in (what they have
  left, if less): at the showdown, or when the uncontested winner shows after the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import IllegalAction
from .cards import Card
from .config import HoldemConfig
from .events import (
    BountyPaid,
    Event,
    Mucked,
    PotSplit,
    RunoutChosen,
    RunoutOffered,
    SecondBoardDealt,
)
from .hand import BaseHand
from .layout import second_board_layout, second_board_position
from .pots import Pot, split_pot
from .ranking import strength_ranks
from .result import HandResult, PotResult
from .seating import seating

RUN_RULE = "R-HE-11"  # the run-out, dealt without betting, here once or twice
_STREET_CARDS = {"flop": 3, "turn": 1, "river": 1}
_SEVEN, _DEUCE = 5, 0  # ranks of "23456789TJQKA"
_BUTTON_STRADDLE = 1


class HouseHand(BaseHand[HoldemConfig]):
    """A board game's hand with the house options; ``HoldemHand`` is one."""

    runs = 1  # the run-outs dealt: 2 once every player asked chose twice
    run_answers: dict[int, int] | None = None  # index -> 1 or 2, once offered
    run_from = ""  # the last street of the board both run-outs share
    bounty_paid: frozenset[int] = frozenset()
    _board2: list[Card]

    @classmethod
    def straddler_seat(
        cls, seats: Sequence[int], button: int, *, button_straddle: bool
    ) -> int | None:
        """The seat a voluntary straddle is offered to before the deal: the one after the big
        blind, or the button (Mississippi); None heads-up (nobody straddles)."""
        order, _, _ = seating(tuple(seats), button)
        if len(order) < 3:
            return None
        return order[-1] if button_straddle else order[2]

    @property
    def second_board(self) -> tuple[Card, ...]:
        """The second board (double board) or the second run-out's whole board, shared
        cards included; empty when there is none (yet)."""
        return tuple(self._board2)

    @property
    def runs_pending(self) -> tuple[int, ...]:
        """Seats still to answer whether to run it twice (empty when nobody is asked)."""
        answers = self.run_answers
        if answers is None or self.result is not None:
            return ()
        return tuple(self.order[i] for i in self._live() if i not in answers)

    def choose_runs(self, seat: int, runs: int) -> list[Event]:
        """A player's answer to running it twice: 2 (twice) or 1 (once). The hand goes on
        once every player asked has answered; twice only if all chose 2."""
        i = self._seat_index(seat)
        if type(runs) is not int or runs not in (1, 2):
            raise IllegalAction(RUN_RULE, f"the run-outs are 1 or 2, got {runs!r}")
        if self.order[i] not in self.runs_pending:
            raise IllegalAction(RUN_RULE, f"seat {seat} is not asked to run it twice now")
        answers = self.run_answers
        assert answers is not None
        answers[i] = runs
        mark = len(self.log)
        self.log.append(RunoutChosen(seat, runs))
        if not self.runs_pending:
            self.runs = 2 if set(answers.values()) == {2} else 1
            self._advance()
        return self.log[mark:]

    # --- for the hand ------------------------------------------------------------------

    def _deal_layout(self) -> str:
        cfg = self.config
        if cfg.boards == 2 or cfg.run_twice:
            return second_board_layout(self.layout)
        return self.layout

    def _begin_bomb_pot(self) -> None:
        """Everyone antes the bomb; the cards; no pre-flop betting: the flop comes at once."""
        self._post_antes(self.config.bomb_pot)
        self._deal_private(self.game.hole_cards)
        self.street = "preflop"
        self.round = self._new_round(self.config.big_blind)  # an empty round: nobody bets
        self._advance()

    def _straddler_index(self) -> int:
        return self.n - 1 if self.config.straddle_button == _BUTTON_STRADDLE else 2

    def _offers_runs(self) -> bool:
        """Before the next street: if the table runs it twice and nobody can bet any more,
        ask everyone still in (once a hand); True while the answers are awaited."""
        if self.run_answers is not None:
            return bool(self.runs_pending)
        if not self.config.run_twice or self.halted:
            return False
        live = self._live()
        if len(live) < 2 or sum(1 for i in live if self.chips[i] > 0) > 1:
            return False
        self.run_answers = {}
        self.run_from = self.street
        self.log.append(RunoutOffered(tuple(self.order[i] for i in live)))
        return True

    def _deal_second(self, name: str) -> None:
        """The second board's cards of ``name``, from the next positions after the first
        board's five."""
        own = len(self._board2) - self._shared_cards()
        count = _STREET_CARDS[name]
        base = self.game.hole_cards * self.n
        positions = tuple(second_board_position(base, own + k) for k in range(count))
        cards = tuple(self.deck[p] for p in positions)
        self._board2.extend(cards)
        self.log.append(SecondBoardDealt(name, cards, positions))

    def _shared_cards(self) -> int:
        """Board cards both run-outs share (0 on a double board: two boards from the start)."""
        if self.config.boards == 2:
            return 0
        return {"preflop": 0, "flop": 3, "turn": 4}.get(self.run_from, 0)

    def _second_run_out(self) -> None:
        """The first run-out is complete: deal the second from the street after the last
        one both share."""
        self._board2 = list(self.community[: self._shared_cards()])
        streets = ("flop", "turn", "river")
        start = streets.index(self.run_from) + 1 if self.run_from in streets else 0
        for name in streets[start:]:
            self._deal_second(name)

    def _strengths_on(self, live: list[int], board: Sequence[Card]) -> list[int]:
        raise NotImplementedError

    def _showdown_on_boards(self) -> None:
        """Hands compared on each board, each pot split in halves between the boards."""
        order, index, log = self.order, self.index, self.log
        live = self._live()
        boards = (self.community, self._board2)
        strength = [dict(zip(live, self._strengths_on(live, b), strict=True)) for b in boards]
        pots = self._pots()
        if sum(1 for i in live if self.chips[i] > 0) <= 1:
            for i in self._showdown_order(live):
                self._reveal(i, "allin")
        else:
            self._show_or_muck(live, pots, strength)
        awards = []
        named_by: dict[int, int] = {}  # a winner's hand is named on the first board it won
        for k, pot in enumerate(pots):
            winners = [_best(pot, strength[b], index) for b in range(2)]
            halves = _halves(pot, winners)
            shares = dict.fromkeys([s for s in pot.eligible if s in winners[0] + winners[1]], 0)
            for b in range(2):
                split = split_pot(halves[b], winners[b])
                names = {s: strength_ranks(strength[b][index[s]]) for s in winners[b]}
                log.append(PotSplit(k, b, halves[b], winners[b], split, names))
                for seat, won in split.items():
                    shares[seat] += won
                    named_by.setdefault(seat, b)
            awards.append(PotResult(pot.amount, pot.eligible, tuple(shares), shares))
        names = {
            order[i]: strength_ranks(strength[named_by.get(order[i], 0)][i]) for i in self.shown
        }
        self._finish(awards, names, showdown=True)

    def _show_or_muck(
        self, live: list[int], pots: list[Pot], strength: list[dict[int, int]]
    ) -> None:
        """R-HE-12 on two boards: a hand is shown if it ties or beats the best shown so far
        for one of its pots on either board; mucked otherwise."""
        best = [[-1] * len(pots) for _ in strength]
        for i in self._showdown_order(live):
            seat, shows = self.order[i], False
            for b, values in enumerate(strength):
                for k, pot in enumerate(pots):
                    if seat in pot.eligible and values[i] >= best[b][k]:
                        best[b][k] = values[i]
                        shows = True
            if shows:
                self._reveal(i, "showdown")
            else:
                self.mucked.add(i)
                self.log.append(Mucked(seat))

    def _seven_deuce_winners(self, awards: Sequence[PotResult]) -> list[int]:
        """Indices of the shown winners holding seven-deuce, not yet paid."""
        if not self.config.seven_deuce:
            return []
        won = {s for award in awards for s, chips in award.shares.items() if chips > 0}
        return [
            i
            for i in self.shown
            if self.order[i] in won
            and i not in self.bounty_paid
            and sorted(card // 4 for card in self.holes[i]) == [_DEUCE, _SEVEN]
        ]

    def _pay_bounties(self, awards: Sequence[PotResult]) -> bool:
        """Seven-deuce: each shown 7-2 winner collects the bounty from every other player dealt
        in. Two 7-2 winners owe each other the same bounty, so theirs cancel; a player who
        cannot pay every collector in full splits what they have between them, the odd chips
        to the first collectors from the button's left (as R-PT-05 splits a pot). Every debt
        is reckoned on the stacks before any bounty moves, so the order of the collectors
        changes nothing."""
        collectors = sorted(self._seven_deuce_winners(awards))
        if not collectors:
            return False
        bounty, owing = self.config.seven_deuce, len(collectors)
        payers: dict[int, dict[int, int]] = {i: {} for i in collectors}
        for j in range(self.n):
            if j in payers or not self.chips[j]:
                continue
            share, odd = divmod(min(self.chips[j], bounty * owing), owing)
            for k, i in enumerate(collectors):
                amount = share + (k < odd)
                if amount:
                    payers[i][self.order[j]] = amount
                    self.chips[j] -= amount
                    self.chips[i] += amount
        for i in collectors:
            if payers[i]:
                self.log.append(BountyPaid(self.order[i], sum(payers[i].values()), payers[i]))
        self.bounty_paid = self.bounty_paid | set(collectors)
        return True

    def _end(self, awards: tuple[PotResult, ...], *, showdown: bool) -> None:
        if self.config.seven_deuce:  # asked here: every hand ends, few tables pay the bounty
            self._pay_bounties(awards)  # before the final stacks: they include the bounty
        super()._end(awards, showdown=showdown)

    def show(self, seat: int) -> list[Event]:
        """A voluntary show; an uncontested 7-2 winner then collects the bounty."""
        events = super().show(seat)
        result = self.result
        assert result is not None
        mark = len(self.log)
        if self._pay_bounties(result.pots):
            final = dict(zip(self.order, self.chips, strict=True))
            net = {s: final[s] - self.starting[i] for i, s in enumerate(self.order)}
            self.result = HandResult(result.pots, net, final, result.showdown)
        return events + self.log[mark:]


def _best(pot: Pot, values: dict[int, int], index: dict[int, int]) -> tuple[int, ...]:
    top = max(values[index[s]] for s in pot.eligible)
    return tuple(s for s in pot.eligible if values[index[s]] == top)


def _halves(pot: Pot, winners: list[tuple[int, ...]]) -> tuple[int, int]:
    """A pot's two halves; the odd chip goes to the board of the first winner after the
    button (R-PT-05), the first board if that player wins on both."""
    half, odd = divmod(pot.amount, 2)
    if not odd:
        return half, half
    first = next(s for s in pot.eligible if s in winners[0] or s in winners[1])
    return (half + 1, half) if first in winners[0] else (half, half + 1)
