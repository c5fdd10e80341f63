"""Table tournament_places: each tournament's final ranking and prizes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_places",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("prize", sa.BigInteger(), nullable=False),
        sa.Column("sitgo", sa.String(length=32), nullable=True),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("place >= 1", name=op.f("ck_tournament_places_place_positive")),
        sa.CheckConstraint("prize >= 0", name=op.f("ck_tournament_places_prize_not_negative")),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_tournament_places_user_id_users")
        ),
        sa.PrimaryKeyConstraint("room_id", "place", name=op.f("pk_tournament_places")),
    )
    op.create_index(
        op.f("ix_tournament_places_user_id"), "tournament_places", ["user_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_tournament_places_user_id"), table_name="tournament_places")
    op.drop_table("tournament_places")
