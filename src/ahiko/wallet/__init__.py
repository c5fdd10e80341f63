"""The coin wallet: a double-entry ledger, its operations, the statement and the Bot Ahiko
reserve. Coins are free, fictitious and not convertible (R-RM-18)."""

from ahiko.wallet.errors import WalletError
from ahiko.wallet.operations import Receipt, Wallet

__all__ = ["Receipt", "Wallet", "WalletError"]
