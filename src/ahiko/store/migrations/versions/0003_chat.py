"""Table chat: messages kept for moderation, reports, the operator's site-wide mutes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("msg_no", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.CheckConstraint(
            "kind IN ('text', 'preset', 'emote')", name=op.f("ck_chat_messages_kind")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index("ix_chat_messages_room_id_msg_no", "chat_messages", ["room_id", "msg_no"])
    op.create_index("ix_chat_messages_player_id_at", "chat_messages", ["player_id", "at"])
    op.create_index("ix_chat_messages_at", "chat_messages", ["at"])
    op.create_table(
        "chat_reports",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("msg_no", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.String(length=64), nullable=False),
        sa.Column("author_id", sa.String(length=64), nullable=False),
        sa.Column("author_name", sa.String(length=64), nullable=False),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
        sa.UniqueConstraint("room_id", "msg_no", "reporter_id", name="uq_chat_reports_once"),
    )
    op.create_table(
        "chat_site_mutes",
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("until", MOMENT, nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_chat_site_mutes")),
    )


def downgrade() -> None:
    op.drop_table("chat_site_mutes")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_player_id_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_room_id_msg_no", table_name="chat_messages")
    op.drop_table("chat_messages")
