"""Chat moderation shared by every room of a process: the word filter, each player's own
mutes (they follow the muting player from room to room), reports, the operator's site-wide
mutes, and keeping messages for a bounded time.

``Moderation`` keeps everything in memory (tests, rooms without a database);
``StoredModeration`` keeps messages, reports and site mutes in the database
(``ahiko.store.chat``), so ``ahiko admin chat mute`` reaches every room, and reads the site
mutes again at most every ``SITE_MUTES_TTL_S`` seconds.

Nothing of it touches the database on the event loop: the chat lines, the reports,
the site mutes set here and their periodic read all run in the writer's chat lane
(``ahiko.store.writer``), in order, on a worker thread. A report or a mute is told how its
write went (``done``) and what it changed in memory changes only once the write landed; until
a periodic read lands, the rooms go by the mutes read before."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from ahiko.rooms.chat_words import LiveWordFilter, WordFilter
from ahiko.store import chat as store
from ahiko.store.writer import InlineWriter, Outcome, StoreWriter

log = logging.getLogger(__name__)

SITE_MUTES_TTL_S = 5.0  # an operator's mute reaches every room within this many seconds
PURGE_EVERY = 500  # stored messages between two purges of the expired ones
CHAT_LANE = "chat"  # the writer's lane for chat lines, reports and site mutes
Done = Callable[[Outcome[None]], None]


@dataclass(frozen=True, slots=True)
class ChatRecord:
    """One message as moderation keeps it."""

    room_id: str
    msg_no: int
    player_id: str
    name: str
    kind: str
    text: str
    at_ms: int


def _moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


class Moderation:
    def __init__(self, words: WordFilter | LiveWordFilter | None = None) -> None:
        self.words: WordFilter | LiveWordFilter = words or WordFilter()
        self._mutes: dict[str, set[str]] = {}  # muting player -> muted players
        self._site: dict[str, int | None] = {}  # player -> muted until (wall ms), None: for good
        self.kept: list[ChatRecord] = []
        self.reported: list[tuple[str, ChatRecord, str]] = []  # (reporter, message, reason)

    # --- a player's own mutes ----------------------------------------------------------------
    def mutes_of(self, player_id: str | None) -> frozenset[str]:
        return frozenset(self._mutes.get(player_id, ())) if player_id is not None else frozenset()

    def set_mute(self, player_id: str, target_id: str, on: bool) -> None:
        muted = self._mutes.setdefault(player_id, set())
        if on:
            muted.add(target_id)
        else:
            muted.discard(target_id)

    # --- the operator's site-wide mutes --------------------------------------------------------
    def site_mute(self, player_id: str, until_ms: int | None, done: Done | None = None) -> None:
        """Mutes ``player_id`` in every room until ``until_ms`` (None: until unmuted); ``done``
        is told how it went."""
        self._site[player_id] = until_ms
        if done is not None:
            done(Outcome(None))

    def site_unmute(self, player_id: str, done: Done | None = None) -> None:
        self._site.pop(player_id, None)
        if done is not None:
            done(Outcome(None))

    def muted_until(self, player_id: str, now_ms: int) -> int | bool | None:
        """False when ``player_id`` may chat; else when the mute ends (None: never)."""
        if player_id not in self._site:
            return False
        until = self._site[player_id]
        if until is not None and until <= now_ms:
            return False
        return until

    # --- what is kept ---------------------------------------------------------------------------
    def keep(self, record: ChatRecord) -> None:
        self.kept.append(record)

    def report(
        self,
        reporter_id: str,
        record: ChatRecord,
        reason: str,
        done: Callable[[Outcome[bool]], None],
    ) -> None:
        """Files a report; ``done`` gets whether it is new (False when this reporter already
        reported this message), or the error that kept it from being filed."""
        for who, message, _ in self.reported:
            if who == reporter_id and (message.room_id, message.msg_no) == (
                record.room_id,
                record.msg_no,
            ):
                done(Outcome(False))
                return
        self.reported.append((reporter_id, record, reason))
        done(Outcome(True))


class StoredModeration(Moderation):
    """Messages, reports and site mutes in the database; personal mutes in memory."""

    def __init__(
        self,
        engine: Engine,
        words: WordFilter | LiveWordFilter | None = None,
        writer: StoreWriter | None = None,
    ) -> None:
        super().__init__(words)
        self.engine = engine
        # Chat lines are written off the event loop on the real clock, in order.
        self.writer: StoreWriter = writer or InlineWriter()
        self._site_read_at: float | None = None
        self._stored = 0

        self._site_reading = False  # a read of the site mutes is in the lane

    def site_mute(self, player_id: str, until_ms: int | None, done: Done | None = None) -> None:
        until = None if until_ms is None else _moment(until_ms)
        at = datetime.now(UTC)
        self._write_site_mute(
            lambda: store.set_site_mute(self.engine, player_id, until, "operator", at),
            lambda: Moderation.site_mute(self, player_id, until_ms),
            done,
        )

    def site_unmute(self, player_id: str, done: Done | None = None) -> None:
        self._write_site_mute(
            lambda: store.clear_site_mute(self.engine, player_id),
            lambda: Moderation.site_unmute(self, player_id),
            done,
        )

    def _write_site_mute(
        self, write: Callable[[], object], apply: Callable[[], None], done: Done | None
    ) -> None:
        """``write`` in the chat lane; once it landed, ``apply`` to the mutes in memory (the
        rooms see it at once); ``done`` told either way."""

        def landed(outcome: Outcome[object]) -> None:
            if outcome.ok:
                apply()
            elif done is None:
                log.error("a site mute could not be written", exc_info=outcome.error)
            if done is not None:
                done(Outcome(None, outcome.error))

        self.writer.submit(CHAT_LANE, write, landed)

    def muted_until(self, player_id: str, now_ms: int) -> int | bool | None:
        self._read_site_mutes(now_ms)
        return super().muted_until(player_id, now_ms)

    def _read_site_mutes(self, now_ms: int) -> None:
        """Read the site mutes again in the chat lane when the last read is older than the
        TTL; the rooms go by the last read until it lands."""
        now = now_ms / 1000
        if self._site_reading or (
            self._site_read_at is not None and now - self._site_read_at < SITE_MUTES_TTL_S
        ):
            return
        self._site_reading = True
        moment = _moment(now_ms)

        def landed(outcome: Outcome[dict[str, store.SiteMute]]) -> None:
            self._site_reading = False
            self._site_read_at = now  # a failed read is tried again after the TTL
            if outcome.value is None:
                log.warning("could not read the site mutes: %s", outcome.error)
                return
            self._site = {
                pid: None if m.until is None else int(m.until.timestamp() * 1000)
                for pid, m in outcome.value.items()
            }

        self.writer.submit(CHAT_LANE, lambda: store.site_mutes(self.engine, moment), landed)

    def keep(self, record: ChatRecord) -> None:
        at = _moment(record.at_ms)
        message = store.StoredMessage(
            record.room_id,
            record.msg_no,
            record.player_id,
            record.name,
            record.kind,
            record.text,
            at,
        )
        self._stored += 1
        purge = self._stored % PURGE_EVERY == 1

        def write() -> None:
            try:
                store.insert_message(self.engine, message)
                if purge:
                    store.purge_messages(self.engine, at)
            except Exception:  # chat must never take a room down
                log.exception("could not keep a chat message")

        self.writer.submit(CHAT_LANE, write)

    def report(
        self,
        reporter_id: str,
        record: ChatRecord,
        reason: str,
        done: Callable[[Outcome[bool]], None],
    ) -> None:
        stored = store.StoredReport(
            0,
            record.room_id,
            record.msg_no,
            reporter_id,
            record.player_id,
            record.name,
            record.text,
            reason,
            datetime.now(UTC),
        )
        self.writer.submit(CHAT_LANE, lambda: store.insert_report(self.engine, stored), done)


def until_text(until_ms: int | None) -> str:
    if until_ms is None:
        return "for now"
    return f"until {_moment(until_ms):%Y-%m-%d %H:%M} UTC"


def minutes_from(now_ms: int, minutes: float | None) -> int | None:
    return (
        None if minutes is None else now_ms + int(timedelta(minutes=minutes).total_seconds() * 1000)
    )
