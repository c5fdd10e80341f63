"""The room's ledger of a home game: for every player who sat, the chips they brought
(buy-ins, rebuys), the chips the host added or removed, what they took away when they left
and what they hold now, and their net. A recreational room's chips are its own play chips
(R-RM-03): they come from nothing when a player sits or re-enters and vanish when they
leave, so this ledger is where the game's money is counted, and its nets sum to zero after
anything (every chip on the table came in through one of its lines).

Lines are kept by player, across every stay at the table. ``journal`` keeps what happened,
in order, for the table's dialog; the CSV is one row a player, for a spreadsheet.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ahiko.rooms.frame_types import HostAction
from ahiko.rooms.house.settle_up import settle_up

CSV_COLUMNS = (
    "player",
    "buy_ins",
    "rebuys",
    "added",
    "removed",
    "cashed_out",
    "stack",
    "net",
)


@dataclass(slots=True)
class LedgerLine:
    player_id: str
    name: str
    is_bot: bool
    buy_ins: int = 0  # chips brought when sitting down (the room's starting chips)
    rebuys: int = 0  # new entries (R-RM-06)
    rebuy_count: int = 0
    added: int = 0  # by the host
    removed: int = 0  # by the host
    cashed_out: int = 0  # what they held when they stood up

    @property
    def brought(self) -> int:
        return self.buy_ins + self.rebuys + self.added - self.removed

    def net(self, stack: int) -> int:
        return self.cashed_out + stack - self.brought


@dataclass
class RoomLedger:
    lines: dict[str, LedgerLine] = field(default_factory=dict)
    journal: list[dict[str, Any]] = field(default_factory=list)

    def _line(self, player_id: str, name: str, is_bot: bool) -> LedgerLine:
        line = self.lines.get(player_id)
        if line is None:
            line = self.lines[player_id] = LedgerLine(player_id, name, is_bot)
        line.name = name
        return line

    def _note(self, kind: str, line: LedgerLine, amount: int, hand_no: int) -> None:
        self.journal.append(
            {"kind": kind, "player_id": line.player_id, "amount": amount, "hand_no": hand_no}
        )

    def sat(self, player_id: str, name: str, is_bot: bool, chips: int, hand_no: int) -> None:
        line = self._line(player_id, name, is_bot)
        line.buy_ins += chips
        self._note("buy_in", line, chips, hand_no)

    def rebought(self, player_id: str, name: str, chips: int, hand_no: int) -> None:
        line = self._line(player_id, name, is_bot=False)
        line.rebuys += chips
        line.rebuy_count += 1
        self._note("rebuy", line, chips, hand_no)

    def adjusted(self, player_id: str, name: str, chips: int, hand_no: int) -> None:
        """The host added (``chips`` > 0) or removed chips from a stack."""
        line = self._line(player_id, name, is_bot=False)
        if chips > 0:
            line.added += chips
        else:
            line.removed -= chips
        self._note("added" if chips > 0 else "removed", line, abs(chips), hand_no)

    def left(self, player_id: str, name: str, is_bot: bool, chips: int, hand_no: int) -> None:
        line = self._line(player_id, name, is_bot)
        line.cashed_out += chips
        self._note("cashed_out", line, chips, hand_no)

    def host_acted(self, told: HostAction) -> None:
        """A host action as the table was told it (``HostDesk.announce``)."""
        self.journal.append({"kind": "host", **told})

    def rebuys_of(self, player_id: str) -> int:
        line = self.lines.get(player_id)
        return 0 if line is None else line.rebuy_count

    def rows(self, stacks: Mapping[str, int]) -> list[dict[str, Any]]:
        """Every player's line; ``stacks``: what those still at the table hold now."""
        rows = []
        for line in self.lines.values():
            stack = stacks.get(line.player_id, 0)
            rows.append(
                {
                    "player_id": line.player_id,
                    "player": line.name,
                    "bot": line.is_bot,
                    "seated": line.player_id in stacks,
                    "buy_ins": line.buy_ins,
                    "rebuys": line.rebuys,
                    "added": line.added,
                    "removed": line.removed,
                    "cashed_out": line.cashed_out,
                    "stack": stack,
                    "net": line.net(stack),
                }
            )
        return rows

    def report(self, stacks: Mapping[str, int], *, final: bool) -> dict[str, Any]:
        """The ledger as the table's dialog and the HTTP route show it, with the settle-up."""
        rows = self.rows(stacks)
        names = {row["player_id"]: row["player"] for row in rows}
        transfers = settle_up({row["player_id"]: row["net"] for row in rows})
        return {
            "final": final,
            "players": rows,
            "settle_up": [
                {**t.as_dict(), "from_name": names[t.payer], "to_name": names[t.payee]}
                for t in transfers
            ],
            "journal": list(self.journal),
        }


def ledger_csv(report: Mapping[str, Any]) -> str:
    """One row a player, then the totals (the net column sums to zero)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    totals = dict.fromkeys(CSV_COLUMNS[1:], 0)
    for row in report["players"]:
        writer.writerow([_cell(row["player"]), *(row[c] for c in CSV_COLUMNS[1:])])
        for column in CSV_COLUMNS[1:]:
            totals[column] += row[column]
    writer.writerow(["TOTAL", *(totals[c] for c in CSV_COLUMNS[1:])])
    return out.getvalue()


def _cell(text: str) -> str:
    """A name a spreadsheet would run as a formula is written as text (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
