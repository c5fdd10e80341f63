"""The ``page`` / ``per_page`` query parameters of the listing routes and the page fields
of their answers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from ahiko.store.paging import Page

# Far past any listing, and small enough that the page's SQL offset (at most 100 a page)
# stays a 64-bit integer: a larger page used to fail in the database (a 500).
MAX_PAGE = 2**31 - 1
PageNumber = Annotated[int, Query(ge=1, le=MAX_PAGE)]


def page_json(found: Page[Any], items_key: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """A page of a listing: where it stands in the whole, then its items under ``items_key``."""
    return {
        "page": found.page,
        "per_page": found.per_page,
        "total": found.total,
        "pages": found.pages,
        items_key: items,
    }
