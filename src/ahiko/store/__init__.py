"""Persistence: SQLAlchemy Core tables, Alembic migrations, engines and repositories."""
