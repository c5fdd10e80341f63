"""Tournament finishing order (R-TN-04, R-TN-05).

Ranking is the reverse order of elimination: the last player standing is first. Players out
in the same hand are ordered by their chips at the start of that hand (more ranks higher),
then by lot with an injected random source. Leaving is an elimination at that moment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random


@dataclass(frozen=True, slots=True)
class Placement:
    place: int  # 1 = winner
    player: str
    eliminated_in_hand: int | None  # None for the winner
    chips_at_hand_start: int | None
    by_lot: bool = False  # the tie with another player was broken by lot


@dataclass
class TournamentRanking:
    """Collects eliminations in order and produces the finishing order."""

    entrants: int
    rng: Random = field(default_factory=Random)
    # Groups eliminated together, earliest first; each group already ordered best-first.
    _groups: list[list[Placement]] = field(default_factory=list)
    _winner: str | None = None

    @property
    def eliminated(self) -> list[str]:
        return [p.player for group in self._groups for p in group]

    @property
    def remaining(self) -> int:
        return self.entrants - len(self.eliminated)

    def eliminate_in_hand(self, hand_no: int, chips_at_start: dict[str, int]) -> None:
        """Players who ended hand ``hand_no`` with no chips, with their stacks when it began."""
        if not chips_at_start:
            return
        self._check_new(chips_at_start)
        draw = {player: self.rng.random() for player in sorted(chips_at_start)}
        ordered = sorted(chips_at_start, key=lambda p: (-chips_at_start[p], draw[p]))
        group = []
        for player in ordered:
            tied = (
                sum(
                    1 for other in chips_at_start if chips_at_start[other] == chips_at_start[player]
                )
                > 1
            )
            group.append(Placement(0, player, hand_no, chips_at_start[player], by_lot=tied))
        self._groups.append(group)

    def eliminate_leaver(self, player: str, hand_no: int | None, chips: int) -> None:
        """A player who leaves is out at once, in their position at that moment (R-TN-05)."""
        self._check_new({player: chips})
        self._groups.append([Placement(0, player, hand_no, chips)])

    def declare_winner(self, player: str) -> None:
        if player in self.eliminated:
            raise ValueError(f"{player} was already eliminated")
        self._winner = player

    @property
    def finished(self) -> bool:
        return self._winner is not None

    def placements(self) -> list[Placement]:
        """Best first. Only complete once a winner is declared; before that, it lists the
        eliminated players from their (already final) places."""
        result: list[Placement] = []
        place = self.entrants - len(self.eliminated) + 1
        for group in reversed(self._groups):
            for p in group:
                result.append(
                    Placement(
                        place, p.player, p.eliminated_in_hand, p.chips_at_hand_start, p.by_lot
                    )
                )
                place += 1
        if self._winner is not None:
            result.insert(0, Placement(1, self._winner, None, None))
        return result

    def _check_new(self, players: dict[str, int]) -> None:
        already = set(self.eliminated) & set(players)
        if already:
            raise ValueError(f"already eliminated: {sorted(already)}")
        if len(self.eliminated) + len(players) > self.entrants:
            raise ValueError("more eliminations than entrants")
