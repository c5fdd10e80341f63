"""The engine's API is importable from ``ahiko.poker``, and its doctested example runs."""

from __future__ import annotations

import doctest

import ahiko.poker


def test_R_HE_06_the_package_docstring_example_runs() -> None:
    """The python-chess-style walk-through in ``ahiko.poker``'s docstring: start a hand,
    read the legal actions, act, see an illegal action refused and a spectator's view."""
    result = doctest.testmod(ahiko.poker, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert result.attempted >= 10 and result.failed == 0


def test_every_name_in_all_is_exported() -> None:
    missing = [name for name in ahiko.poker.__all__ if not hasattr(ahiko.poker, name)]
    assert not missing and "HoldemHand" in ahiko.poker.__all__
