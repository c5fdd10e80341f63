"""The database schema as SQLAlchemy Core tables; the migrations under ``migrations/`` create
exactly this. Chips are BIGINT, constraints are named, and no ENUM types are used (kinds are
short strings with CHECK constraints) so one schema serves SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

# SQLite autoincrements only an INTEGER PRIMARY KEY; PostgreSQL gets BIGINT.
BigId = BigInteger().with_variant(Integer, "sqlite")
Chips = BigInteger
Moment = DateTime(timezone=True)
# The format of a stored hand: its event log (``ahiko.poker.events.event_to_dict``, cards as
# the engine's numbers) and, in the archive, its deal record. Written with every hand; a
# reader refuses a version it does not know instead of misreading it.
HAND_SCHEMA_VERSION = 1

users = Table(
    "users",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("username", String(20), nullable=False),
    # Lower-cased username: "Ana" and "ana" are the same account.
    Column("username_key", String(20), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Moment, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    # SHA-256 of the cookie token: a leaked table does not leak live sessions.
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", Moment, nullable=False),
    Column("expires_at", Moment, nullable=False),
)

# No longer written: failed log-ins are counted in memory, or in Redis on a cluster
# (``ahiko.server.login_throttle``), so a refused guess reads no database. The
# table stays so that the migrations need not drop it.
login_attempts = Table(
    "login_attempts",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("username_key", String(64), nullable=False),
    Column("ip", String(64), nullable=False),
    Column("succeeded", Boolean, nullable=False),
    Column("at", Moment, nullable=False),
    Index("ix_login_attempts_username_at", "username_key", "at"),
    Index("ix_login_attempts_ip_at", "ip", "at"),
)

ACCOUNT_KINDS = ("mint", "wallet", "escrow", "reserve")

ledger_accounts = Table(
    "ledger_accounts",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    # Wallets belong to a user (one each); escrows are found through their participation.
    Column("user_id", ForeignKey("users.id"), nullable=True, unique=True),
    # Singletons: "mint", "bot_reserve".
    Column("name", String(32), nullable=True, unique=True),
    Column("balance", Chips, nullable=False, default=0),
    Column("created_at", Moment, nullable=False),
    CheckConstraint("kind IN ('mint', 'wallet', 'escrow', 'reserve')", name="kind"),
    CheckConstraint("balance >= 0 OR kind = 'mint'", name="no_overdraft"),
)

ledger_transactions = Table(
    "ledger_transactions",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("idempotency_key", String(128), nullable=False, unique=True),
    Column("kind", String(24), nullable=False),
    # SHA-256 of the operation's request: the same key with other content is refused.
    Column("request_hash", String(64), nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=True, index=True),
    Column("participation_id", ForeignKey("participations.id"), nullable=True, index=True),
    Column("amount", Chips, nullable=False),
    Column("reason", Text, nullable=True),
    Column("created_at", Moment, nullable=False),
)

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("transaction_id", ForeignKey("ledger_transactions.id"), nullable=False, index=True),
    Column("account_id", ForeignKey("ledger_accounts.id"), nullable=False, index=True),
    Column("amount", Chips, nullable=False),
)

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("config", JSON, nullable=False),
    Column("status", String(16), nullable=False, default="open"),
    Column("created_at", Moment, nullable=False),
    Column("updated_at", Moment, nullable=False),
    CheckConstraint("status IN ('open', 'closed')", name="status"),
)

participations = Table(
    "participations",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("room_id", ForeignKey("rooms.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    # A person's stay has a user; the Bot Ahiko's has none and player = 'bot_ahiko'.
    Column("player", String(16), nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=True, index=True),
    Column("escrow_account_id", ForeignKey("ledger_accounts.id"), nullable=False, unique=True),
    Column("status", String(16), nullable=False),
    Column("entry_amount", Chips, nullable=False),
    Column("reload_amount", Chips, nullable=False, default=0),
    Column("reload_count", Integer, nullable=False, default=0),
    Column("exit_amount", Chips, nullable=True),
    Column("opened_at", Moment, nullable=False),
    Column("closed_at", Moment, nullable=True),
    CheckConstraint("player IN ('person', 'bot_ahiko')", name="player"),
    CheckConstraint("status IN ('open', 'closed')", name="status"),
    CheckConstraint(
        "(player = 'person' AND user_id IS NOT NULL) OR (player = 'bot_ahiko' AND user_id IS NULL)",
        name="owner",
    ),
)

seats = Table(
    "seats",
    metadata,
    Column("room_id", ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    # 'person', 'bot' (a recreational room's bot) or 'bot_ahiko'.
    Column("occupant", String(16), nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=True),
    Column("participation_id", ForeignKey("participations.id"), nullable=True),
    Column("name", String(64), nullable=False),
    Column("stack", Chips, nullable=False),
    Column("extra", JSON, nullable=True),
    Column("updated_at", Moment, nullable=False),
    CheckConstraint("stack >= 0", name="stack_not_negative"),
)

hands = Table(
    "hands",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("room_id", ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("hand_no", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    # {seat: chips} at the hand's start: where chips return if the hand is cancelled.
    Column("start_stacks", JSON, nullable=False),
    Column("events", JSON, nullable=True),
    Column("schema_version", Integer, nullable=False, server_default="1"),  # of ``events``
    Column("cancel_reason", Text, nullable=True),
    Column("started_at", Moment, nullable=False),
    Column("ended_at", Moment, nullable=True),
    UniqueConstraint("room_id", "hand_no", name="uq_hands_room_id_hand_no"),
    CheckConstraint("status IN ('in_progress', 'finished', 'cancelled')", name="status"),
)
# The public count of hands cancelled after their cards (``ahiko.store.fair_counts``) reads
# only the cancelled ones, at every scrape.
Index("ix_hands_status", hands.c.status)

# The hand archive ("my hands"): every finished hand of every room kind, with what
# its downloads need later. ``deal`` holds server-side secrets (deck order, salts): they leave
# the server only through the fair deal's release policy. Recreational and tournament rooms
# are not in ``rooms``, so ``room_id`` is plain text here.
archived_hands = Table(
    "archived_hands",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("room_id", String(64), nullable=False),
    Column("room_kind", String(16), nullable=False),
    Column("room_name", String(100), nullable=False),
    Column("variant", String(8), nullable=False),
    Column("max_seats", Integer, nullable=False),
    Column("hand_no", Integer, nullable=False),
    # The public commitment as broadcast (with its signature, if any).
    Column("commitment", JSON, nullable=False),
    # The full private event log (``event_to_dict`` of every engine event).
    Column("events", JSON, nullable=False),
    # {deck, salts, draws, dealt, shown}: see ``ahiko.rooms.finished.archive``.
    Column("deal", JSON, nullable=False),
    Column("schema_version", Integer, nullable=False, server_default="1"),  # events and deal
    Column("started_at", Moment, nullable=False),
    Column("ended_at", Moment, nullable=False),
    UniqueConstraint("room_id", "hand_no", name="uq_archived_hands_room_id_hand_no"),
    CheckConstraint("variant IN ('holdem', 'draw', 'plo')", name="variant"),  # the games
)

# Who played an archived hand: one row per dealt seat. ``user_id`` is set for people (no
# foreign key: an archive row must never be refused because of an account's fate).
archived_hand_players = Table(
    "archived_hand_players",
    metadata,
    Column(
        "hand_id",
        ForeignKey("archived_hands.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(64), nullable=False),
    Column("user_id", BigInteger, nullable=True),
    Column("name", String(64), nullable=False),
    # 'person', 'bot' (a recreational room's bot) or 'bot_ahiko'.
    Column("occupant", String(16), nullable=False),
    Column("start_stack", Chips, nullable=False),
    Column("net", Chips, nullable=False),
    Column("showed", Boolean, nullable=False, default=False),
    Index("ix_archived_hand_players_user_id_hand_id", "user_id", "hand_id"),
    CheckConstraint("occupant IN ('person', 'bot', 'bot_ahiko')", name="occupant"),
)

# Table chat, kept for moderation for a bounded time (``CHAT_RETENTION_DAYS``,
# ``ahiko.store.chat``). ``room_id`` is plain text (recreational rooms are not in ``rooms``);
# ``msg_no`` is the room's own message number, what a report names.
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("room_id", String(64), nullable=False),
    Column("msg_no", Integer, nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # 'text', 'preset' or 'emote'
    Column("text", String(400), nullable=False),  # as sent, after the filter
    Column("at", Moment, nullable=False),
    Index("ix_chat_messages_room_id_msg_no", "room_id", "msg_no"),
    Index("ix_chat_messages_player_id_at", "player_id", "at"),
    Index("ix_chat_messages_at", "at"),
    CheckConstraint("kind IN ('text', 'preset', 'emote')", name="kind"),
)

# A player's report of a chat message, with the message as it was (it may be purged later).
chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("room_id", String(64), nullable=False),
    Column("msg_no", Integer, nullable=False),
    Column("reporter_id", String(64), nullable=False),
    Column("author_id", String(64), nullable=False),
    Column("author_name", String(64), nullable=False),
    Column("text", String(400), nullable=False),
    Column("reason", String(200), nullable=False),
    Column("at", Moment, nullable=False),
    UniqueConstraint("room_id", "msg_no", "reporter_id", name="uq_chat_reports_once"),
)

# The operator's site-wide chat mutes (``ahiko admin chat mute``): no ``until`` is for good.
chat_site_mutes = Table(
    "chat_site_mutes",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("until", Moment, nullable=True),
    Column("reason", String(200), nullable=False),
    Column("at", Moment, nullable=False),
)

# Per room, the fencing token of its newest owner in a cluster (``store/fences.py``):
# a write about the room by an older owner is refused. Empty on the embedded single server.
room_fences = Table(
    "room_fences",
    metadata,
    Column("room_id", String(64), primary_key=True),
    Column("token", BigInteger, nullable=False),
    Column("owner", String(128), nullable=False),
    Column("claimed_at", Moment, nullable=False),
    CheckConstraint("token > 0", name="token_positive"),
)

# A tournament's final ranking (R-TN-04/05), stored by the room's hook when it ends (issue
# 20: sit & go's), with the coins each place won; bots have no user.
tournament_places = Table(
    "tournament_places",
    metadata,
    Column("room_id", String(64), primary_key=True),
    Column("place", Integer, primary_key=True),
    Column("player_id", String(64), nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=True, index=True),
    Column("name", String(64), nullable=False),
    Column("prize", Chips, nullable=False, default=0),
    Column("sitgo", String(32), nullable=True),
    Column("entrants", Integer, nullable=False),
    Column("finished_at", Moment, nullable=False),
    CheckConstraint("place >= 1", name="place_positive"),
    CheckConstraint("prize >= 0", name="prize_not_negative"),
)

# A player's figures, kept up to date as each hand is archived (in the archive's own
# transaction) and rebuilt from the archive by ``ahiko admin rebuild-stats``: a profile is one
# read, however many hands the player has. Counts only; the figures are computed from them in
# ``ahiko.competition``.
player_stats = Table(
    "player_stats",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("hands", BigInteger, nullable=False),
    Column("vpip", BigInteger, nullable=False),  # hands with a voluntary first-round chip
    Column("pfr", BigInteger, nullable=False),  # hands with a first-round bet or raise
    Column("bets_raises", BigInteger, nullable=False),
    Column("calls", BigInteger, nullable=False),
    Column("showdowns", BigInteger, nullable=False),
    Column("showdowns_won", BigInteger, nullable=False),
)

# The result per tier (an Ahiko tier, or a room's stakes): one big unit per tier label.
player_tier_results = Table(
    "player_tier_results",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("tier", String(64), primary_key=True),
    Column("big_unit", Chips, nullable=False),
    Column("hands", BigInteger, nullable=False),
    Column("net", Chips, nullable=False),
)

# Ahiko-room coins won or lost per day (UTC date, ISO text).
player_daily_coins = Table(
    "player_daily_coins",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("net", Chips, nullable=False),
)

# The tournament rooms a player was dealt a hand in.
player_tournament_rooms = Table(
    "player_tournament_rooms",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("room_id", String(64), primary_key=True),
)

# Operators: accounts with the operator role, granted by `ahiko admin operator add`;
# the one-time code it printed (its hash) is asked once, at the first use of the console.
operators = Table(
    "operators",
    metadata,
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("added_at", Moment, nullable=False),
    Column("code_hash", String(128), nullable=True),  # None once the code was given
    Column("activated_at", Moment, nullable=True),
)

# Every operator action: who, what, on what, why, when. Append-only: no code updates or
# deletes a row, and the migration's triggers refuse it in the database as well.
operator_audit = Table(
    "operator_audit",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("at", Moment, nullable=False),
    Column("operator_id", ForeignKey("users.id"), nullable=False, index=True),
    Column("operator_name", String(64), nullable=False),
    Column("action", String(32), nullable=False),
    Column("target", String(128), nullable=False),
    Column("reason", String(400), nullable=False),
    Column("detail", JSON, nullable=True),
)

# A chat report an operator resolved, with the action taken (none, mute, suspend...).
chat_report_resolutions = Table(
    "chat_report_resolutions",
    metadata,
    Column("report_id", ForeignKey("chat_reports.id"), primary_key=True),
    Column("operator_id", ForeignKey("users.id"), nullable=False),
    Column("action", String(32), nullable=False),
    Column("note", String(400), nullable=False),
    Column("at", Moment, nullable=False),
)

# Accounts an operator suspended: they cannot sign in, and their sessions end, until lifted.
account_suspensions = Table(
    "account_suspensions",
    metadata,
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("reason", String(400), nullable=False),
    Column("operator_id", ForeignKey("users.id"), nullable=False),
    Column("at", Moment, nullable=False),
)

# Which network address each signed-in player's table socket came from, once per room (a hash
# of it: an operator compares them, never reads them), for the shared-address signal.
table_addresses = Table(
    "table_addresses",
    metadata,
    Column("room_id", String(64), primary_key=True),
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("address_hash", String(64), primary_key=True),
    Column("seen_at", Moment, nullable=False),
)

# How fast each account acts at tables: actions counted, and how many came sooner after the
# table showed the turn than a person reacts (the machine-speed signal), added up in batches.
reaction_times = Table(
    "reaction_times",
    metadata,
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("actions", BigInteger, nullable=False),
    Column("fast", BigInteger, nullable=False),
    Column("total_ms", BigInteger, nullable=False),
    Column("updated_at", Moment, nullable=False),
)

# pokerfair/2: how many times each account's browser committed a secret and did not reveal it
# before the cards (its public fallback stood in), counted as the hands are archived, for
# operators: withholding never cancels a hand, but a habit of it is worth a look.
fair_withholds = Table(
    "fair_withholds",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("withheld", BigInteger, nullable=False),
    Column("last_at", Moment, nullable=False),
)
