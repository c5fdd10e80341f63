"""Every kind of posting the ledger writes, with what it does to a person's wallet and how
the statement (Extrato) names it, in pt-BR and English.

The ledger refuses a kind that is not a :class:`PostingKind` (``ledger.post``), and
``POSTING_KINDS`` has one entry per member (a test checks it), so a new kind cannot reach a
statement without its sign and its labels."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class PostingKind(StrEnum):
    SIGNUP = "signup"
    GRANT = "grant"
    CLAIM = "claim"
    BUY_IN = "buy_in"
    RELOAD = "reload"
    CASH_OUT = "cash_out"
    SNG_REGISTER = "sng_register"  # a sit & go's or a multi-table tournament's buy-in
    SNG_REFUND = "sng_refund"
    SNG_PAYOUT = "sng_payout"
    SETTLE_HAND = "settle_hand"
    BOT_FUND = "bot_fund"
    BOT_RETURN = "bot_return"
    RESERVE_ADD = "reserve_add"


# +1: coins into the person's wallet; -1: out of it; 0: it never touches a person's wallet
# (table escrows and the Bot Ahiko's reserve only).
WalletSign = Literal[1, -1, 0]


@dataclass(frozen=True, slots=True)
class KindInfo:
    wallet_sign: WalletSign
    pt_br: str
    en: str

    def label(self, language: str) -> str:
        return self.en if language.startswith("en") else self.pt_br


POSTING_KINDS: dict[PostingKind, KindInfo] = {
    PostingKind.SIGNUP: KindInfo(1, "Moedas de boas-vindas", "Welcome coins"),
    PostingKind.GRANT: KindInfo(1, "Crédito", "Credit"),
    PostingKind.CLAIM: KindInfo(1, "Moedas grátis", "Free coins"),
    PostingKind.BUY_IN: KindInfo(-1, "Entrada na mesa", "Table entry"),
    PostingKind.RELOAD: KindInfo(-1, "Recarga", "Reload"),
    PostingKind.CASH_OUT: KindInfo(1, "Saída da mesa", "Table exit"),
    PostingKind.SNG_REGISTER: KindInfo(-1, "Inscrição em torneio", "Tournament registration"),
    PostingKind.SNG_REFUND: KindInfo(1, "Inscrição devolvida", "Registration refunded"),
    PostingKind.SNG_PAYOUT: KindInfo(1, "Prêmio de torneio", "Tournament prize"),
    PostingKind.SETTLE_HAND: KindInfo(0, "Acerto da mão", "Hand settlement"),
    PostingKind.BOT_FUND: KindInfo(0, "Entrada do Bot Ahiko", "Bot Ahiko's entry"),
    PostingKind.BOT_RETURN: KindInfo(0, "Saída do Bot Ahiko", "Bot Ahiko's exit"),
    PostingKind.RESERVE_ADD: KindInfo(0, "Reforço da reserva", "Reserve top-up"),
}

# The kinds whose ``reason`` is the id of a sit & go or a multi-table tournament.
TOURNAMENT_KINDS = frozenset(
    {PostingKind.SNG_REGISTER, PostingKind.SNG_REFUND, PostingKind.SNG_PAYOUT}
)


def kind_info(kind: str) -> KindInfo:
    """The sign and labels of a stored kind (every stored kind is a PostingKind)."""
    return POSTING_KINDS[PostingKind(kind)]
