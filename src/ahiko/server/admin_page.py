"""The operators' console page, ``/admin``, and its script and style.

The page's files live beside this module, not in the public client's folder, which the
static mount serves to anyone. Each is answered only to an operator (an operator that has not
given its one-time code yet gets the page, which asks for it); anyone else gets the API's 403,
signed in or not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse

from ahiko.server.admin_console import Operator, any_operator

CONSOLE_DIR = Path(__file__).resolve().parent / "console"
FILES = {
    "/admin": ("console.html", "text/html; charset=utf-8"),
    "/admin/console.js": ("console.js", "text/javascript; charset=utf-8"),
    "/admin/console.css": ("console.css", "text/css; charset=utf-8"),
}
NO_STORE = {"Cache-Control": "no-store"}  # an operator's page is kept by no cache

router = APIRouter(include_in_schema=False)


def _file(name: str, media_type: str) -> Callable[[Operator], FileResponse]:
    def answer(who: Annotated[Operator, Depends(any_operator)]) -> FileResponse:
        return FileResponse(CONSOLE_DIR / name, media_type=media_type, headers=NO_STORE)

    return answer


for path, (name, media_type) in FILES.items():
    router.add_api_route(path, _file(name, media_type), methods=["GET"])
