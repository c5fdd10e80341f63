"""Issue 14: the cluster's settings. ``--redis-url`` / ``AHIKO_REDIS_URL`` (none by default:
the embedded single server, unchanged)."""

from __future__ import annotations

from ahiko.cli import build_parser
from ahiko.server.cli import _settings
from ahiko.server.settings import Settings


def test_no_redis_by_default_the_embedded_server_is_unchanged() -> None:
    assert Settings.from_env({}).redis_url is None
    assert Settings.from_env({"AHIKO_REDIS_URL": ""}).redis_url is None


def test_redis_url_from_the_environment_and_the_command_line_which_wins() -> None:
    env = {"AHIKO_REDIS_URL": "redis://10.0.0.5:6379/0"}
    assert Settings.from_env(env).redis_url == "redis://10.0.0.5:6379/0"
    args = build_parser().parse_args(["serve", "--redis-url", "redis://127.0.0.1:6380/1"])
    assert _settings(args).redis_url == "redis://127.0.0.1:6380/1"
