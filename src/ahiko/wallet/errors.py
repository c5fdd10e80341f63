"""Wallet errors: each names what was wrong, carries a stable code and the HTTP status the API
answers with, and is raised before anything is written (nothing is half-applied)."""

from __future__ import annotations


class WalletError(Exception):
    code = "wallet_error"
    http_status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidAmount(WalletError):
    code = "invalid_amount"


class AmountOutOfRange(WalletError):
    code = "amount_out_of_range"


class InvalidRequest(WalletError):
    code = "invalid_request"


class InsufficientFunds(WalletError):
    code = "insufficient_funds"
    http_status = 409


class ReserveUnavailable(WalletError):
    """R-BA-02: the Bot Ahiko cannot sit when its reserve cannot pay the buy-in."""

    code = "reserve_unavailable"
    http_status = 409


class UnknownUser(WalletError):
    code = "unknown_user"
    http_status = 404


class UnknownRoom(WalletError):
    code = "unknown_room"
    http_status = 404


class UnknownParticipation(WalletError):
    code = "unknown_participation"
    http_status = 404


class NotYourParticipation(WalletError):
    code = "not_your_participation"
    http_status = 403


class ParticipationClosed(WalletError):
    code = "participation_closed"
    http_status = 409


class AlreadySeated(WalletError):
    code = "already_seated"
    http_status = 409


class ClaimNotAvailable(WalletError):
    code = "claim_not_available"
    http_status = 409


class IdempotencyConflict(WalletError):
    """The same idempotency key was used before for a different operation or content."""

    code = "idempotency_conflict"
    http_status = 409


class LedgerInvariantBroken(WalletError):
    """A posting that would break double entry: a bug in the caller, never user input."""

    code = "ledger_invariant"
    http_status = 500
