"""A room's hand options (the home game): straddle, run it twice, bomb pots and seven-deuce.

The options are the room's; the rules they turn on are the engine's (``HoldemConfig``,
``ahiko.poker.house``). Before each hand the room asks :meth:`HandOptions.hand_config` for
the stakes of that hand: the blinds of the schedule, plus the straddle if the seat offered it
took it, the bomb pot if one is due (every N hands, or the host pressed "Bomb pot" for the
next hand), run it twice and the seven-deuce bounty. Settings arrive from the lobby dialog
or the host menu as plain values; :func:`hand_options_from` checks them and names what is
wrong in English and in Portuguese, changing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ahiko.poker.config import HoldemConfig
from ahiko.poker.games import Game


class Straddle(StrEnum):
    OFF = "off"
    AFTER_BIG_BLIND = "utg"  # under the gun: the player after the big blind
    BUTTON = "button"  # Mississippi


class HandOptionError(ValueError):
    """An option out of range: ``code`` names the field, ``en`` and ``pt`` say why."""

    def __init__(self, code: str, en: str, pt: str) -> None:
        super().__init__(en)
        self.code, self.en, self.pt = code, en, pt

    def message(self, language: str) -> str:
        return self.pt if language.lower().startswith("pt") else self.en


@dataclass(frozen=True, slots=True)
class HandOptions:
    straddle: Straddle = Straddle.OFF
    run_twice: bool = False
    bomb_pot_ante: int = 0  # 0: no bomb pots
    bomb_pot_every: int = 0  # a bomb pot every N hands; 0: only when the host asks
    bomb_pot_double_board: bool = False
    seven_deuce: int = 0  # the bounty; 0: off

    def as_dict(self) -> dict[str, Any]:
        """As the lobby and the table show them."""
        return {
            "straddle": self.straddle.value,
            "run_twice": self.run_twice,
            "bomb_pot_ante": self.bomb_pot_ante,
            "bomb_pot_every": self.bomb_pot_every,
            "bomb_pot_double_board": self.bomb_pot_double_board,
            "seven_deuce": self.seven_deuce,
        }

    def bomb_pot_due(self, hand_no: int, *, requested: bool) -> bool:
        """Is hand ``hand_no`` (1, 2, ...) a bomb pot: the host asked, or its turn came."""
        if not self.bomb_pot_ante:
            return False
        return requested or (self.bomb_pot_every > 0 and hand_no % self.bomb_pot_every == 0)

    def hand_config(
        self,
        stakes: HoldemConfig,
        game: Game,
        hand_no: int,
        *,
        straddle_taken: bool = False,
        bomb_requested: bool = False,
    ) -> HoldemConfig:
        """The stakes of the next hand with the options that apply to it."""
        values: dict[str, int] = {"run_twice": int(self.run_twice)}
        if self.seven_deuce and game.hole_cards == 2:  # hold'em's option alone
            values["seven_deuce"] = self.seven_deuce
        if self.bomb_pot_due(hand_no, requested=bomb_requested):
            values["bomb_pot"] = self.bomb_pot_ante
            if self.bomb_pot_double_board:
                values |= {"boards": 2, "run_twice": 0}  # a double board is not run twice
        elif straddle_taken and self.straddle is not Straddle.OFF:
            values["straddle"] = 2 * stakes.big_blind
            values["straddle_button"] = int(self.straddle is Straddle.BUTTON)
        return replace(stakes, **values)


def hand_options_from(data: dict[str, Any], game: Game) -> HandOptions:
    """Options from the lobby dialog or the host menu (missing fields: off)."""
    straddle = data.get("straddle", Straddle.OFF.value)
    if straddle not in {s.value for s in Straddle}:
        raise HandOptionError(
            "straddle",
            f"straddle must be off, utg or button, not {straddle!r}",
            f"straddle deve ser off, utg ou button, não {straddle!r}",
        )
    flags = {name: data.get(name, False) for name in ("run_twice", "bomb_pot_double_board")}
    for name, value in flags.items():
        if type(value) is not bool:
            raise HandOptionError(
                name, f"{name} must be true or false", f"{name} deve ser verdadeiro ou falso"
            )
    chips = {name: data.get(name, 0) for name in ("bomb_pot_ante", "bomb_pot_every", "seven_deuce")}
    for name, value in chips.items():
        if type(value) is not int or not 0 <= value <= 1_000_000:
            raise HandOptionError(
                name,
                f"{name} must be a whole number from 0 to 1,000,000, not {value!r}",
                f"{name} deve ser um número inteiro de 0 a 1.000.000, não {value!r}",
            )
    if chips["bomb_pot_every"] and not chips["bomb_pot_ante"]:
        raise HandOptionError(
            "bomb_pot_ante",
            "a bomb pot every few hands needs its ante (bomb_pot_ante)",
            "um bomb pot a cada tantas mãos precisa de sua aposta (bomb_pot_ante)",
        )
    if chips["seven_deuce"] and game.hole_cards != 2:
        raise HandOptionError(
            "seven_deuce",
            "seven-deuce is a hold'em option: a hand of four cards always holds other cards",
            "o sete-dois é uma opção do hold'em: uma mão de quatro cartas tem sempre outras",
        )
    if not game.has_board and (straddle != Straddle.OFF.value or any(flags.values())):
        raise HandOptionError(
            "variant",
            "straddles, run it twice and double boards are options of the board games",
            "straddle, correr duas vezes e duas mesas são opções dos jogos com mesa",
        )
    return HandOptions(Straddle(straddle), **flags, **chips)
