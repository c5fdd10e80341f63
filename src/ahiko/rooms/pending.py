"""A command's answer that waits for a durable write.

A room never waits: a buy-in reserves its seat, hands the ledger write to a worker thread
(``ahiko.store.writer``) and returns. The command's ``Reply`` is then *held*: the room takes a
``ReplyHold`` while it handles the command (``Room.hold_reply``), and releases it when the
write came back, with the answer the write decided (a seat, or a refusal that changed
nothing). ``RoomActor.ask`` answers once every hold of the command is released. On a test's
manual clock the writes run inline, so the holds are released before ``submit`` returns and
the caller sees the final ``Reply`` at once."""

from __future__ import annotations

from collections.abc import Callable

from ahiko.rooms.commands import Reply


class PendingReply:
    """The answer to one command, known once all its holds are released."""

    def __init__(self, base: Reply) -> None:
        self._base = base
        self._holds: list[ReplyHold] = []
        self._sealed = False  # the handler has returned: no more holds
        self._callbacks: list[Callable[[Reply], None]] = []
        self.reply: Reply | None = None

    def hold(self) -> ReplyHold:
        found = ReplyHold(self)
        self._holds.append(found)
        return found

    @property
    def held(self) -> bool:
        return bool(self._holds)

    def seal(self, base: Reply) -> None:
        self._base = base
        self._sealed = True
        self._check()

    def then(self, callback: Callable[[Reply], None]) -> None:
        if self.reply is not None:
            callback(self.reply)
        else:
            self._callbacks.append(callback)

    def _check(self) -> None:
        if not self._sealed or self.reply is not None:
            return
        if any(not h.released for h in self._holds):
            return
        answer = self._base
        for found in self._holds:
            if found.answer is not None:
                answer = found.answer
        self.reply = answer
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(answer)


class ReplyHold:
    """One write a command's answer waits for; ``release`` with the answer it decided (None
    keeps the handler's)."""

    def __init__(self, owner: PendingReply) -> None:
        self._owner = owner
        self.released = False
        self.answer: Reply | None = None

    def release(self, answer: Reply | None = None) -> None:
        if self.released:
            return
        self.released = True
        self.answer = answer
        self._owner._check()
