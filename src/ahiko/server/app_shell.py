"""The installable app's two answers plain static files cannot give: the service worker with
the shell's version written into it (a deploy that changes the client changes the worker's
bytes, so every browser replaces its cached shell), and the web app manifest with its own
media type. The version is the package's plus a digest of the client's files."""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import APIRouter, Request, Response

import ahiko

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
VERSION_MARK = "__AHIKO_SHELL_VERSION__"

router = APIRouter()


def shell_version(web_dir: Path = WEB_DIR) -> str:
    """``<package version>-<12 hex of the client's files>``: new whenever any of them is."""
    digest = hashlib.sha256()
    for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
        digest.update(path.relative_to(web_dir).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{ahiko.__version__}-{digest.hexdigest()[:12]}"


@router.get("/sw.js", include_in_schema=False)
def service_worker(request: Request) -> Response:
    version = getattr(request.app.state, "shell_version", None) or shell_version()
    script = (WEB_DIR / "sw.js").read_text(encoding="utf-8").replace(VERSION_MARK, version)
    # Checked on every visit (never answered from the HTTP cache), so a deploy is seen at once.
    headers = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}
    return Response(script, media_type="text/javascript", headers=headers)


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest() -> Response:
    body = (WEB_DIR / "manifest.webmanifest").read_bytes()
    return Response(
        body, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"}
    )
