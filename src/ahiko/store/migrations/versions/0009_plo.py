"""Archived hands of Pot-Limit Omaha: the variant check admits ``plo``.

SQLite cannot alter a CHECK constraint, so its table is rebuilt (batch mode); rebuilding
drops the old table, and the foreign key from ``archived_hand_players`` (ON DELETE CASCADE)
would take every player row with it, so those rows are kept aside and put back.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "ck_archived_hands_variant"
WITH_PLO = "variant IN ('holdem', 'draw', 'plo')"
WITHOUT_PLO = "variant IN ('holdem', 'draw')"


def _replace_check(condition: str) -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute(
            "CREATE TEMPORARY TABLE kept_hand_players AS SELECT * FROM archived_hand_players"
        )
    with op.batch_alter_table("archived_hands", recreate="always" if sqlite else "never") as batch:
        batch.drop_constraint(op.f(CHECK), type_="check")
        batch.create_check_constraint(op.f(CHECK), condition)
    if sqlite:
        op.execute("DELETE FROM archived_hand_players")  # none left, unless cascades were off
        op.execute("INSERT INTO archived_hand_players SELECT * FROM kept_hand_players")
        op.execute("DROP TABLE kept_hand_players")


def upgrade() -> None:
    _replace_check(WITH_PLO)


def downgrade() -> None:
    op.execute("DELETE FROM archived_hands WHERE variant = 'plo'")
    _replace_check(WITHOUT_PLO)
