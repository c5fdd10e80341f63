"""The command line starts fast (issue 21): building the parser and ``ahiko --version`` load
none of the heavy libraries; a subcommand loads what it uses only."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("sqlalchemy", "alembic", "eval7", "numpy", "cryptography", "uvicorn", "starlette")


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nimport json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return {name.split(".")[0] for name in json.loads(out.strip().splitlines()[-1])}


def test_building_the_parser_imports_no_heavy_library() -> None:
    loaded = _loaded_after("from ahiko.cli import build_parser; build_parser()")
    # eval7 comes with the engine (``ahiko.poker`` loads it whole), which ``ahiko arena``'s
    # options name; nothing of the server, the database, numpy or the crypto library does.
    heavy = set(HEAVY) - {"eval7"}
    assert not loaded & heavy, sorted(loaded & heavy)
    assert "ahiko" in loaded


def test_version_prints_without_building_the_parser(capsys) -> None:
    loaded = _loaded_after("from ahiko.cli import main; main(['--version'])")
    assert not loaded & set(HEAVY)
    from ahiko import __version__
    from ahiko.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"ahiko {__version__}\n"


PHH = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cc", "p1 cc", "d db 2h3h4s", "p1 cc", "p2 cc",
  "d db 9d", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "p1 sm AcAd", "p2 sm KcKd"]
finishing_stacks = [202, 198]
"""


def test_hh_replay_loads_the_engine_but_no_server_library(tmp_path) -> None:
    (tmp_path / "one.phh").write_text(PHH)
    loaded = _loaded_after(
        f"from ahiko.cli import main\nmain(['hh', 'replay', '--json', {str(tmp_path)!r}])"
    )
    assert "eval7" in loaded  # showdowns need the evaluator
    assert not loaded & {"sqlalchemy", "alembic", "uvicorn", "starlette", "cryptography"}
