"""What every cluster fault drill runs in: a throwaway PostgreSQL (migrated) and
``redis-server``, a temporary folder, and the drill's JSON report (its wall time added);
exit 1 when a round failed."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "cluster"))

from ahiko.store.engine import make_engine  # noqa: E402
from ahiko.store.migrate import upgrade  # noqa: E402
from pg import PostgresCluster  # noqa: E402
from redis_server import RedisServer  # noqa: E402

Drill = Callable[[Path, RedisServer, str], Awaitable[dict[str, Any]]]


def run_drill(prefix: str, one_line: bool, drill: Drill) -> int:
    """``drill(folder, redis, database_url)`` in a fresh environment; prints its report."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    postgres, redis = PostgresCluster(), RedisServer()
    began = time.monotonic()
    try:
        db = postgres.create_database("ahiko")
        engine = make_engine(db)
        upgrade(engine)
        engine.dispose()
        result = asyncio.run(drill(root, redis, db))
    finally:
        redis.stop()
        postgres.stop()
        shutil.rmtree(root, ignore_errors=True)
    result["seconds"] = round(time.monotonic() - began, 1)
    print(json.dumps(result) if one_line else json.dumps(result, indent=2))
    return 1 if result["failed_rounds"] else 0
