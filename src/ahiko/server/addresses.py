"""Which address each signed-in player's table socket comes from, kept once per room for the
shared-address signal of ``ahiko.history.abuse_signals``. Only a hash is stored: an operator
sees that two accounts share an address, never the address. The write goes off the event loop,
once per (room, account, address) in this process."""

from __future__ import annotations

import hashlib
from typing import Any

from ahiko.store.operators import remember_address
from ahiko.store.writer import StoreWriter, writer_for

LANE = "addresses"
MAX_REMEMBERED = 100_000  # keys kept in memory before starting again (a write is idempotent)


class AddressBook:
    def __init__(self, engine: Any, clock: Any, writer: StoreWriter) -> None:
        self._engine, self._clock, self._writer = engine, clock, writer
        self._written: set[tuple[str, str, str]] = set()

    def seen(self, room_id: str, account: str, address: str) -> None:
        hashed = hashlib.sha256(address.encode()).hexdigest()
        key = (room_id, account, hashed)
        if key in self._written or not account.isdigit():
            return
        if len(self._written) >= MAX_REMEMBERED:
            self._written.clear()
        self._written.add(key)
        now = self._clock()
        self._writer.submit(
            LANE,
            lambda: remember_address(self._engine, room_id, int(account), hashed, now),
            retry=True,
        )


def address_book(app: Any) -> AddressBook | None:
    """The app's book (made at its first use), or None for an app without a database."""
    found: AddressBook | None = getattr(app.state, "address_book", None)
    if found is None:
        services = getattr(app.state, "services", None)
        if services is None:
            return None
        writer = writer_for(True, threads=1, name="ahiko-addresses")
        found = app.state.address_book = AddressBook(services.engine, services.clock, writer)
    return found
