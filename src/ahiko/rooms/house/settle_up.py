"""Settling up a home game: who pays whom, in the fewest transfers.

The nets of a game sum to zero. A group of players whose nets sum to zero settles among
itself in one transfer fewer than its size, so the fewest transfers is the number of players
owing or owed less the most zero-sum groups they can be split into. That is found exactly by
a walk over the subsets (``EXACT_UP_TO`` players: at most 2^12 subsets); a bigger game is
settled greedily (the largest debt to the largest credit), at most one transfer fewer than
its players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

EXACT_UP_TO = 12


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: int

    def as_dict(self) -> dict[str, object]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


def settle_up(nets: Mapping[str, int]) -> list[Transfer]:
    """The transfers that bring every net to zero (player -> chips won, + or -)."""
    if sum(nets.values()) != 0:
        raise ValueError(f"the nets sum to {sum(nets.values())}, not zero: chips went missing")
    open_nets = sorted((player, net) for player, net in nets.items() if net)
    if len(open_nets) > EXACT_UP_TO:
        return _greedy(open_nets)
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(open_nets):
        transfers.extend(_greedy(group))
    return transfers


def _greedy(nets: Sequence[tuple[str, int]]) -> list[Transfer]:
    """Largest debt pays the largest credit until nothing is owed: each transfer settles
    one side at least, so a group of k players needs at most k - 1."""
    debts = {player: -net for player, net in nets if net < 0}
    credits = {player: net for player, net in nets if net > 0}
    transfers = []
    while debts and credits:
        payer = min(debts, key=lambda p: (-debts[p], p))
        payee = min(credits, key=lambda p: (-credits[p], p))
        amount = min(debts[payer], credits[payee])
        transfers.append(Transfer(payer, payee, amount))
        for side, player in ((debts, payer), (credits, payee)):
            side[player] -= amount
            if not side[player]:
                del side[player]
    return transfers


def _zero_sum_groups(nets: Sequence[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The most groups summing to zero that ``nets`` splits into: ``best[mask]`` is the most
    zero-sum groups the players in ``mask`` can be cut into when they are taken one by one;
    the players taken between two zero-sum masks on the best path form one group."""
    count = len(nets)
    full = (1 << count) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + nets[low][1]
        most = max(best[mask & ~(1 << i)] for i in range(count) if mask >> i & 1)
        best[mask] = most + (1 if sums[mask] == 0 else 0)
    groups: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    mask = full
    while mask:
        step = next(
            i
            for i in range(count)
            if mask >> i & 1
            and best[mask & ~(1 << i)] + (1 if sums[mask] == 0 else 0) == best[mask]
        )
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        current.append(nets[step])
        mask &= ~(1 << step)
    if current:
        groups.append(current)
    return groups
