"""How long the store's durable writes take, for the operator's dashboard (``GET /metrics``).

The histogram is made here, beside the writers that time their jobs, and registered by the
server with the node's other metrics: the store knows nothing of who reads it."""

from __future__ import annotations

from prometheus_client import Histogram

# A ledger posting or an archived hand takes a few milliseconds; a locked SQLite file or a
# slow fsync makes seconds (the writer's retries included).
WRITE_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)

STORE_WRITE_SECONDS = Histogram(
    "ahiko_store_write_seconds",
    "Durable writes handed off the event loop (ledger, archive, chat): time from the start "
    "of the write to its end, retries included",
    buckets=WRITE_BUCKETS_S,
    registry=None,
)
