"""Suite-wide settings. Under CI=true nothing may be skipped: a skip or xfail fails the run."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["pg", "redis_server"]

# A test stops its servers with SIGTERM while bots still play: a server then drains, letting the
# hands in progress end (AHIKO_DRAIN_S, a site's 60 s). Two seconds here, so every teardown does
# not wait out a hand; the drain tests give the bound they measure.
os.environ.setdefault("AHIKO_DRAIN_S", "2")
# Every frame a test's server sends is checked against its type (``ahiko.rooms.frame_types``)
# before it goes out; a site leaves the check off.
os.environ.setdefault("AHIKO_VALIDATE_FRAMES", "1")

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


# The long tests first: two workers share the suite, and a drill of a minute that starts last
# leaves the other worker idle while it plays. Order within each class stays as collected.
_LONG_FIRST = ("cluster", "slow", "browser")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        marks = {mark.name for mark in item.iter_markers()}
        return next((i for i, name in enumerate(_LONG_FIRST) if name in marks), len(_LONG_FIRST))

    items.sort(key=rank)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI") != "true":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    skipped = len(reporter.stats.get("skipped", [])) + len(reporter.stats.get("xfailed", []))
    if skipped:
        reporter.write_line(
            f"CI=true: {skipped} skipped/xfailed test(s) — failing the run", red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
