"""Stored event logs and hand records carry the version of their format.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every row written before this revision is version 1 (the format has not changed yet).
    for table in ("hands", "archived_hands"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("schema_version", sa.Integer(), nullable=False, server_default="1")
            )


def downgrade() -> None:
    for table in ("archived_hands", "hands"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("schema_version")
