"""Table fair_withholds: per account, the pokerfair/2 secrets committed and not revealed
before the cards (the public fallback stood in), for the operators' console; an index on
hands.status, for the public count of hands cancelled after their cards.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "fair_withholds",
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("withheld", sa.BigInteger(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_fair_withholds_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_fair_withholds")),
    )
    op.create_index("ix_hands_status", "hands", ["status"])


def downgrade() -> None:
    op.drop_index("ix_hands_status", table_name="hands")
    op.drop_table("fair_withholds")
