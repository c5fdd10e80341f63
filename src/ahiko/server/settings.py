"""Server settings: each a command-line option and an environment variable."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ahiko.store.engine import default_database_url
from ahiko.store.migrate import DEFAULT_BOT_RESERVE

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DATA_DIR = Path("./data")


@dataclass(frozen=True)
class Settings:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str | None = None  # None: the SQLite file in data_dir
    # Secure cookies: on when served over HTTPS (AHIKO_SECURE_COOKIES=1 behind a TLS proxy).
    secure_cookies: bool = False
    bot_reserve: int = DEFAULT_BOT_RESERVE
    chat_words_file: Path | None = None  # more words for the chat filter, one a line
    # A cluster of nodes shares one Redis (ownership, fan-out, shared counters) and one
    # PostgreSQL; None: the embedded single process, exactly as without it.
    redis_url: str | None = None
    # The path at which the site's balancer reaches this node alone ("/n/a": docs/deploy.md).
    # A socket that reached another node is sent here when this node owns its table, so a
    # player's frames need no relay; None: this node's tables are always served through it.
    node_route: str | None = None
    # The site's scheduled multi-table tournament: the next one starts this long after the
    # last started.
    mtt_every_minutes: float = 30.0
    # Minutes of each blind level at every table of an MTT (R-TN-03 by time; whole minutes,
    # at least one): 10 on the site; a bench or a rehearsal shortens them.
    mtt_level_minutes: int = 10
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or default_database_url(self.data_dir)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Environment first, then explicit overrides (command-line options) that are not None."""
        env = os.environ if env is None else env
        values: dict[str, object] = {
            "host": env.get("AHIKO_HOST", DEFAULT_HOST),
            "port": int(env.get("AHIKO_PORT", DEFAULT_PORT)),
            "data_dir": Path(env.get("AHIKO_DATA_DIR", str(DEFAULT_DATA_DIR))),
            "database_url": env.get("AHIKO_DATABASE_URL") or None,
            "secure_cookies": env.get("AHIKO_SECURE_COOKIES", "") in ("1", "true", "yes"),
            "bot_reserve": int(env.get("AHIKO_BOT_RESERVE", DEFAULT_BOT_RESERVE)),
            "chat_words_file": Path(env["AHIKO_CHAT_WORDS"])
            if env.get("AHIKO_CHAT_WORDS")
            else None,
            "redis_url": env.get("AHIKO_REDIS_URL") or None,
            "node_route": env.get("AHIKO_NODE_ROUTE") or None,
            "mtt_every_minutes": float(env.get("AHIKO_MTT_EVERY_MINUTES", "30")),
            "mtt_level_minutes": max(1, int(env.get("AHIKO_MTT_LEVEL_MINUTES", "10"))),
        }
        for name, value in overrides.items():
            if value is not None:
                values[name] = Path(str(value)) if name == "data_dir" else value
        return cls(**values)  # type: ignore[arg-type]
