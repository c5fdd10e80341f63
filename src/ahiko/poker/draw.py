"""Fixed-limit five-card draw, 2-6 players (SPEC §4).

    hand, events = DrawHand.start(DrawConfig(ante=1, small_bet=2), seats, stacks, button, deck)

Order of a hand: an equal ante from everyone (a short stack antes what it has and is all-in,
R-DR-02); five cards each by the ``draw5-v1`` layout; the first betting round at the small
bet, starting left of the dealer, with no blinds (R-DR-03); the draw, each player still in
discarding 0-3 cards in order from left of the dealer (all-in players too), replacements
taken from position 5n on so discards are never dealt again (R-DR-05); the second round at
the big bet, starting with the first active player left of the dealer; showdown (R-DR-06).
Raises are capped per round (R-DR-04) unless only two players remain; the all-in mode of
R-DR-08 is on. When fewer than two players can still bet, betting is skipped but the draw
still happens.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, ActionKind, IllegalAction, LegalActions
from .betting import Rules
from .cards import DECK_SIZE, Card, format_card
from .config import DRAW_MAX_DISCARDS, DrawConfig
from .events import Discarded, StreetDealt
from .games import DRAW
from .hand import BaseHand
from .layout import DRAW_HAND_CARDS, draw_replacement_position

DISCARD_RULE = "R-DR-05"


class DrawHand(BaseHand[DrawConfig]):
    game = DRAW
    rules = Rules(
        order="R-DR-03", actions="R-DR-04", size="R-DR-04", reopen="R-DR-08", cap="R-DR-04"
    )
    show_rule = "R-DR-06"

    def __init__(
        self,
        config: DrawConfig,
        seats: Sequence[int],
        stacks: Sequence[int],
        button: int,
        deck: Sequence[Card],
    ) -> None:
        super().__init__(config, seats, stacks, button, deck)
        self.draw_queue: list[int] = []  # indices still to draw, in order
        self.replacements = 0  # replacement cards dealt so far

    @classmethod
    def _config_from(cls, values: dict[str, int]) -> DrawConfig:
        return DrawConfig(**values)

    def stakes(self) -> dict[str, int]:
        cfg = self.config
        return {
            "ante": cfg.ante,
            "small_bet": cfg.small_bet,
            "big_bet": cfg.big_bet,
            "raise_cap": cfg.raise_cap,
        }

    @property
    def in_draw_phase(self) -> bool:
        return self.street == "draw" and self.result is None

    def _begin(self) -> None:
        self._start_log(self.stakes())
        self._post_antes(self.config.ante)
        self._deal_private(DRAW_HAND_CARDS)
        self.street = "predraw"
        self._betting_round(self.config.small_bet)

    def _betting_round(self, size: int) -> None:
        betting = self._new_round(size, self.config.raise_cap)
        betting.begin(0)
        if betting.is_done():
            self._advance()

    def _to_act_index(self) -> int | None:
        if self.in_draw_phase:
            return self.draw_queue[0]
        return super()._to_act_index()

    def _legal(self, i: int) -> LegalActions:
        if not self.in_draw_phase:
            return super()._legal(i)
        return LegalActions(
            seat=self.order[i],
            can_fold=False,
            can_check=False,
            call_cost=0,
            bet_kind=None,
            min_to=0,
            max_to=0,
            committed=0,
            stack=self.chips[i],
            max_discards=DRAW_MAX_DISCARDS,
            is_draw_phase=True,
        )

    def _act(self, i: int, action: Action, forced: bool = False) -> None:
        if not self.in_draw_phase:
            if action.kind is ActionKind.DISCARD:
                raise IllegalAction(DISCARD_RULE, "the draw comes after the first betting round")
            super()._act(i, action, forced)
            return
        self._check_discard(i, action)
        self._discard(i, action.cards)

    def _check_discard(self, i: int, action: Action) -> None:
        if action.kind is not ActionKind.DISCARD:
            raise IllegalAction(
                DISCARD_RULE, f"it is the draw: discard 0 to {DRAW_MAX_DISCARDS} cards"
            )
        thrown = action.cards
        if len(thrown) > DRAW_MAX_DISCARDS:
            raise IllegalAction(
                DISCARD_RULE, f"at most {DRAW_MAX_DISCARDS} cards may be drawn, got {len(thrown)}"
            )
        if len(set(thrown)) != len(thrown) or not set(thrown) <= set(self.holes[i]):
            shown = " ".join(format_card(c) if 0 <= c < DECK_SIZE else repr(c) for c in thrown)
            raise IllegalAction(
                DISCARD_RULE, f"discards must be distinct cards of your hand: {shown}"
            )

    def _discard(self, i: int, thrown: tuple[Card, ...]) -> None:
        positions = tuple(
            draw_replacement_position(self.n, self.replacements + k) for k in range(len(thrown))
        )
        new = tuple(self.deck[p] for p in positions)
        self.replacements += len(thrown)
        kept = [c for c in self.holes[i] if c not in thrown]
        self.holes[i] = kept + list(new)
        self.discard_counts[i] = len(thrown)
        self.log.append(Discarded(self.order[i], len(thrown), thrown, new, positions))
        self.draw_queue.pop(0)
        if not self.draw_queue:
            self._after_draw()

    def _after_draw(self) -> None:
        self._deal_street("postdraw", ())
        self._betting_round(self.config.big_bet)

    def _withdraw(self, i: int) -> None:
        """A forfeit in the draw (R-TM-04 D): the player leaves the draw queue as well."""
        if not self.in_draw_phase:
            super()._withdraw(i)
            return
        if self.folded[i] or self.chips[i] == 0:
            raise IllegalAction(DISCARD_RULE, f"seat {self.order[i]} has no chips contesting")
        assert self.round is not None
        self.log.append(self.round.withdraw(i))
        if i in self.draw_queue:
            self.draw_queue.remove(i)
        if self.folded.count(False) <= 1:
            self._finish_uncontested()
        elif not self.draw_queue:
            self._after_draw()

    def _advance(self) -> None:
        if self._close_round() == 1:
            self._finish_uncontested()
        elif self.street == "predraw" and not self.halted:
            self.street = "draw"
            self.log.append(StreetDealt("draw", (), ()))
            self.draw_queue = self._live()
        else:
            self.draw_queue = []  # R-TM-06 D: a draw in progress stops too
            self._showdown()

    def _showdown_cards(self, i: int) -> list[Card]:
        return self.holes[i]
