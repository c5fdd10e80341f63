"""Many nodes, one owner per room: leases and fencing tokens in Redis, the database's
fence on every write about a room, cluster-wide policies. Used only with ``--redis-url``."""
