"""Every string key the client asks for exists in Portuguese, and English has no stray keys."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "ahiko" / "web" / "js"
KEY = re.compile(r'^\s*"([a-z0-9_.]+)":', re.M)


def keys(locale: str) -> set[str]:
    """The keys of a language: the table's, the other pages' and the forms' files together."""
    found: set[str] = set()
    for name in (f"{locale}.js", f"pages-{locale}.js", f"forms-{locale}.js", f"a11y-{locale}.js"):
        found |= set(KEY.findall((WEB / "locales" / name).read_text()))
    return found


def used_keys() -> set[str]:
    found: set[str] = set()
    for path in WEB.rglob("*.js"):
        found |= set(re.findall(r'\bt\("([a-z0-9_.]+)"', path.read_text()))
    return found


def test_every_key_the_client_uses_has_portuguese_text():
    assert used_keys() - keys("pt-BR") == set()


def test_english_only_translates_known_keys():
    assert keys("en") - keys("pt-BR") == set()


def test_dynamic_keys_cover_every_value_the_server_sends():
    pt = keys("pt-BR")
    dynamic = {
        "status": ["waiting", "running", "paused", "finished", "closed"],
        "level": ["easy", "normal", "hard"],
        "game": ["holdem", "draw"],
        "street": ["flop", "turn", "river", "draw", "postdraw"],
        "verify.role": ["hole", "board", "showdown", "draw"],
        "lobby.tab": ["ahiko", "public", "tournament"],
        "conn": ["connecting", "online", "offline", "gone"],
    }
    missing = {f"{p}.{v}" for p, values in dynamic.items() for v in values} - pt
    assert missing == set()
