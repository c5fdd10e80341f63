"""Tables player_stats, player_tier_results, player_daily_coins, player_tournament_rooms: each
player's figures, kept as hands are archived. They start empty: `ahiko admin
rebuild-stats` fills them from the archive.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COUNTS = ("hands", "vpip", "pfr", "bets_raises", "calls", "showdowns", "showdowns_won")


def _user() -> sa.Column[int]:
    return sa.Column(
        "user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
    )


def _user_key(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["user_id"], ["users.id"], name=op.f(f"fk_{table}_user_id_users"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "player_stats",
        _user(),
        *(sa.Column(name, sa.BigInteger(), nullable=False) for name in COUNTS),
        _user_key("player_stats"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_stats")),
    )
    op.create_table(
        "player_tier_results",
        _user(),
        sa.Column("tier", sa.String(length=64), nullable=False),
        sa.Column("big_unit", sa.BigInteger(), nullable=False),
        sa.Column("hands", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        _user_key("player_tier_results"),
        sa.PrimaryKeyConstraint("user_id", "tier", name=op.f("pk_player_tier_results")),
    )
    op.create_table(
        "player_daily_coins",
        _user(),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        _user_key("player_daily_coins"),
        sa.PrimaryKeyConstraint("user_id", "day", name=op.f("pk_player_daily_coins")),
    )
    op.create_table(
        "player_tournament_rooms",
        _user(),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        _user_key("player_tournament_rooms"),
        sa.PrimaryKeyConstraint("user_id", "room_id", name=op.f("pk_player_tournament_rooms")),
    )


def downgrade() -> None:
    for table in (
        "player_tournament_rooms",
        "player_daily_coins",
        "player_tier_results",
        "player_stats",
    ):
        op.drop_table(table)
