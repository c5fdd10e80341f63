"""Wallet policy: decisions beyond the spec, in one place. Change only with a reason."""

from __future__ import annotations

from datetime import timedelta

SIGNUP_GRANT = 5_000
CLAIM_AMOUNT = 1_000
CLAIM_BELOW = 100  # wallet + seats together must hold fewer coins than this to claim
CLAIM_INTERVAL = timedelta(hours=24)
MAX_IDEMPOTENCY_KEY_LENGTH = 128
