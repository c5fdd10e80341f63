"""axe-core (axe-playwright-python) on a page as it stands: the tests call ``assert_accessible``
on every page and every open dialog; a serious or critical violation fails with what it is and
where (minor and moderate ones are listed by ``axe_report`` for a person to weigh)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

BLOCKING = {"serious", "critical"}
_AXE = Axe()


def violations(page: Any) -> list[dict[str, Any]]:
    results = _AXE.run(page)
    return list(results.response["violations"])


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for v in found:
        targets = [", ".join(map(str, node["target"])) for node in v["nodes"][:4]]
        lines.append(f"{v['impact']} {v['id']}: {v['help']} at {targets}")
    return "\n".join(lines)


def assert_accessible(page: Any, where: str) -> None:
    """No serious or critical axe-core violation on the page (and its open dialogs) now."""
    found = [v for v in violations(page) if v["impact"] in BLOCKING]
    assert found == [], f"{where}:\n{describe(found)}"
