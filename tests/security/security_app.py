"""Helpers for the security tests: an Ahiko app on a fresh SQLite database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi import FastAPI

from ahiko.server.app import create_app
from ahiko.server.settings import Settings

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse"


def make_app(sqlite_url: str, tmp_path: Path, **settings: Any) -> FastAPI:
    return create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url, **settings),
        password_hasher=FAST_HASHER,
    )
