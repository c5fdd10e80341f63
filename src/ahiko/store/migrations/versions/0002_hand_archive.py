"""The hand archive: every finished hand of every room kind, and who played it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "archived_hands",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("room_kind", sa.String(length=16), nullable=False),
        sa.Column("room_name", sa.String(length=100), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("max_seats", sa.Integer(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("deal", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("variant IN ('holdem', 'draw')", name=op.f("ck_archived_hands_variant")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_archived_hands")),
        sa.UniqueConstraint("room_id", "hand_no", name="uq_archived_hands_room_id_hand_no"),
    )
    op.create_table(
        "archived_hand_players",
        sa.Column("hand_id", BIG_ID, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("occupant", sa.String(length=16), nullable=False),
        sa.Column("start_stack", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("showed", sa.Boolean(), nullable=False),
        sa.CheckConstraint(
            "occupant IN ('person', 'bot', 'bot_ahiko')",
            name=op.f("ck_archived_hand_players_occupant"),
        ),
        sa.ForeignKeyConstraint(
            ["hand_id"],
            ["archived_hands.id"],
            name=op.f("fk_archived_hand_players_hand_id_archived_hands"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("hand_id", "seat", name=op.f("pk_archived_hand_players")),
    )
    with op.batch_alter_table("archived_hand_players", schema=None) as batch_op:
        batch_op.create_index(
            "ix_archived_hand_players_user_id_hand_id", ["user_id", "hand_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("archived_hand_players", schema=None) as batch_op:
        batch_op.drop_index("ix_archived_hand_players_user_id_hand_id")
    op.drop_table("archived_hand_players")
    op.drop_table("archived_hands")
