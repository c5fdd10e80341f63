"""The installable app's server side: the shell version follows the client's files, the
service worker carries it and is never taken from the HTTP cache, the manifest has its type."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

import ahiko
from ahiko.server import app_shell


def test_the_shell_version_changes_with_any_client_file(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("console.log(1);\n")
    before = app_shell.shell_version(tmp_path)
    assert before.startswith(f"{ahiko.__version__}-")
    assert app_shell.shell_version(tmp_path) == before  # the same files, the same version
    (tmp_path / "js" / "app.js").write_text("console.log(2);\n")
    assert app_shell.shell_version(tmp_path) != before


def test_the_worker_carries_the_version_and_the_manifest_its_type() -> None:
    app = FastAPI()
    app.include_router(app_shell.router)
    app.state.shell_version = "9.9.9-abc"
    client = TestClient(app)
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    assert 'const VERSION = "9.9.9-abc";' in worker.text
    assert app_shell.VERSION_MARK not in worker.text
    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    assert manifest.json()["short_name"] == "Ahiko"
