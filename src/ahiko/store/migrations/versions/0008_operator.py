"""Operators, their append-only audit log, chat report resolutions, account suspensions,
the addresses players sat at tables from, how fast accounts act.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

USER_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
MOMENT = sa.DateTime(timezone=True)
# The audit log is append-only in the database too: an UPDATE or a DELETE is refused.
SQLITE_GUARDS = [
    f"CREATE TRIGGER operator_audit_no_{verb.lower()} BEFORE {verb} ON operator_audit "
    "BEGIN SELECT RAISE(ABORT, 'the operator audit log is append-only'); END"
    for verb in ("UPDATE", "DELETE")
]
POSTGRES_GUARD = """
CREATE FUNCTION operator_audit_append_only() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'the operator audit log is append-only'; END
$$ LANGUAGE plpgsql;
CREATE TRIGGER operator_audit_append_only BEFORE UPDATE OR DELETE ON operator_audit
FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();
"""


def upgrade() -> None:
    op.create_table(
        "operators",
        sa.Column("user_id", USER_ID, nullable=False),
        sa.Column("added_at", MOMENT, nullable=False),
        sa.Column("code_hash", sa.String(length=128), nullable=True),
        sa.Column("activated_at", MOMENT, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_operators_user_id_users")),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_operators")),
    )
    op.create_table(
        "operator_audit",
        sa.Column("id", USER_ID, autoincrement=True, nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.Column("operator_id", USER_ID, nullable=False),
        sa.Column("operator_name", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("target", sa.String(length=128), nullable=False),
        sa.Column("reason", sa.String(length=400), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["operator_id"], ["users.id"], name=op.f("fk_operator_audit_operator_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_audit")),
    )
    op.create_index(
        op.f("ix_operator_audit_operator_id"), "operator_audit", ["operator_id"], unique=False
    )
    op.create_table(
        "chat_report_resolutions",
        sa.Column("report_id", USER_ID, nullable=False),
        sa.Column("operator_id", USER_ID, nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("note", sa.String(length=400), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"],
            ["chat_reports.id"],
            name=op.f("fk_chat_report_resolutions_report_id_chat_reports"),
        ),
        sa.ForeignKeyConstraint(
            ["operator_id"], ["users.id"], name=op.f("fk_chat_report_resolutions_operator_id_users")
        ),
        sa.PrimaryKeyConstraint("report_id", name=op.f("pk_chat_report_resolutions")),
    )
    op.create_table(
        "account_suspensions",
        sa.Column("user_id", USER_ID, nullable=False),
        sa.Column("reason", sa.String(length=400), nullable=False),
        sa.Column("operator_id", USER_ID, nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_account_suspensions_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["operator_id"], ["users.id"], name=op.f("fk_account_suspensions_operator_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_account_suspensions")),
    )
    op.create_table(
        "table_addresses",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", USER_ID, nullable=False),
        sa.Column("address_hash", sa.String(length=64), nullable=False),
        sa.Column("seen_at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_table_addresses_user_id_users")
        ),
        sa.PrimaryKeyConstraint(
            "room_id", "user_id", "address_hash", name=op.f("pk_table_addresses")
        ),
    )
    op.create_table(
        "reaction_times",
        sa.Column("user_id", USER_ID, nullable=False),
        sa.Column("actions", sa.BigInteger(), nullable=False),
        sa.Column("fast", sa.BigInteger(), nullable=False),
        sa.Column("total_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_reaction_times_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_reaction_times")),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(POSTGRES_GUARD)
    else:
        for guard in SQLITE_GUARDS:
            op.execute(guard)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER operator_audit_append_only ON operator_audit")
        op.execute("DROP FUNCTION operator_audit_append_only()")
    op.drop_table("reaction_times")
    op.drop_table("table_addresses")
    op.drop_table("account_suspensions")
    op.drop_table("chat_report_resolutions")
    op.drop_index(op.f("ix_operator_audit_operator_id"), table_name="operator_audit")
    op.drop_table("operator_audit")
    op.drop_table("operators")
