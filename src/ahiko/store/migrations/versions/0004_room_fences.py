"""Table room_fences: the fencing token of each room's newest owner in a cluster.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_fences",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("owner", sa.String(length=128), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("token > 0", name=op.f("ck_room_fences_token_positive")),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_room_fences")),
    )


def downgrade() -> None:
    op.drop_table("room_fences")
