"""``view(hand, viewer)``: the one place hidden cards are filtered (DESIGN principle 3).

``viewer`` is a seat in the hand, or None for a spectator. The result is plain JSON-able data,
a ``HandView`` (``ahiko.poker.view_types``' ``TypedDict``s name every part: ``SeatView``,
``PotView``, ``LegalView``, ``ViewEvent``, ``HandResultDict``), so mypy checks the keys its
readers use: the bots first of all (``ahiko.bots.protocol``).

Who sees which cards: a seat always sees its own; anyone sees cards shown at showdown or
voluntarily; mucked cards stay private. In five-card draw a folded player sees no opponent's
cards at all, shown ones included, and neither does a spectator (R-DR-07 D): they get each
shown hand's category instead of its name. ``pots`` are the chips already gathered from
finished betting rounds (or the awarded pots once the hand is over); current bets are in
each seat's ``bet``. During five-card draw's draw every bet is gathered and a seat that has
drawn shows ``last_action`` {"kind": "discard", "amount": cards drawn}.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, cast

from .cards import format_card
from .events import CardsShown, Discarded, HoleDealt, PotAwarded, event_to_dict, public_event_dict
from .hand import AnyHand
from .house import HouseHand
from .pots import build_pots
from .view_types import HandView, LegalView, PotView, SeatView, ViewEvent


def _seat_entries(hand: AnyHand) -> tuple[list[int], list[SeatView]]:
    """The current round's bets and every seat's entry as a viewer who sees none of its cards
    gets it. A closed betting round's bets are in the pot: at five-card draw's draw the
    pre-draw round is over (its bets gathered, its last actions replaced by the draw), as
    hold'em's are when the next street is dealt."""
    drawing = hand.game.has_draw and hand.street == "draw"
    betting = None if drawing else hand.round
    round_bets = betting.bets if betting is not None else [0] * hand.n
    entries: list[SeatView] = []
    for i, seat in enumerate(hand.order):
        last = betting.last_action[i] if betting is not None else None
        if drawing and i in hand.discard_counts:
            last = ("discard", hand.discard_counts[i])
        status: Literal["active", "folded", "allin"]
        if hand.folded[i]:
            status = "folded"
        elif hand.chips[i] == 0:
            status = "allin"
        else:
            status = "active"
        entries.append(
            {
                "seat": seat,
                "stack": hand.chips[i],
                "bet": 0 if hand.is_over else round_bets[i],
                "total_bet": hand.total[i],
                "status": status,
                "last_action": None if last is None else {"kind": last[0], "amount": last[1]},
                "cards": None,
                "card_count": 0 if hand.folded[i] else len(hand.holes[i]),
                "discards": hand.discard_counts.get(i) if hand.game.has_draw else None,
            }
        )
    return round_bets, entries


def _legal_for(hand: AnyHand, viewer: int | None) -> LegalView | None:
    """The legal actions with their bounds, for the seat whose turn it is only."""
    if hand.to_act is None or hand.to_act != viewer:
        return None
    found = hand.legal_actions()
    return {
        "seat": found.seat,
        "can_fold": found.can_fold,
        "can_check": found.can_check,
        "call_cost": found.call_cost,
        "bet_kind": None if found.bet_kind is None else str(found.bet_kind),
        "min_to": found.min_to,
        "max_to": found.max_to,
        "committed": found.committed,
        "stack": found.stack,
        "max_discards": found.max_discards,
        "is_draw_phase": found.is_draw_phase,
    }


def view(hand: AnyHand, viewer: int | None, *, with_history: bool = True) -> HandView:
    """Everything ``viewer`` (a seat, or None for a spectator) may know about the hand now.

    ``with_history=False`` leaves out ``history`` (rebuilding it is most of the cost of a
    view); :func:`public_history` gives just the entries a caller has not sent yet."""
    me = _index_of(hand, viewer)
    blind_to_others = _blind_to_others(hand, me)
    round_bets, hidden = _seat_entries(hand)
    seats: list[SeatView] = [
        {**entry, "cards": [format_card(c) for c in hand.holes[i]]}
        if i == me or (i in hand.shown and not blind_to_others)
        else entry
        for i, entry in enumerate(hidden)
    ]
    to_act = hand.to_act
    legal = _legal_for(hand, viewer)
    result: HandView = {
        "variant": hand.variant,
        "viewer": viewer,
        "street": hand.street,
        "button": hand.button,
        "dealt_seats": list(hand.order),
        "stakes": hand.stakes(),
        "seats": seats,
        "board": [format_card(c) for c in hand.community],
        "pots": _pots(hand, round_bets),
        "to_act": to_act,
        "legal": legal,
        "result": None if hand.result is None else hand.result.to_dict(),
    }
    if with_history:
        result["history"] = public_history(hand, viewer)
    add_house_parts(hand, result)
    return result


def add_house_parts(hand: AnyHand, made: HandView) -> None:
    """Add what the house options show to a view, only where they show: the second board (a
    double board, or the second run-out with the cards both share) and the seats still to
    say whether to run it twice."""
    if not isinstance(hand, HouseHand):
        return
    if hand.second_board:
        made["second_board"] = [format_card(c) for c in hand.second_board]
    if hand.runs_pending:
        made["runs_pending"] = list(hand.runs_pending)


def views(hand: AnyHand, viewers: Iterable[int | None]) -> dict[int | None, HandView]:
    """``view(hand, v, with_history=False)`` for every viewer ``v`` (a change to ``view`` is
    a change here too: ``tests/poker/test_views_shared.py`` compares them), the parts that do not
    depend on the viewer built once: each viewer's dict is its own, but a seat entry that shows
    no card to it, the board, the pots, the stakes and the result are the same objects in
    every dict (so a broadcast builds them, and encodes them, once per change). The results
    are read-only: nothing may change them in place."""
    viewers = list(dict.fromkeys(viewers))
    if not viewers:
        return {}
    round_bets, hidden = _seat_entries(hand)
    shown: list[SeatView | None] = [None] * hand.n  # entries with cards, built on demand

    def visible_entry(i: int) -> SeatView:
        entry = shown[i]
        if entry is None:
            entry = shown[i] = {**hidden[i], "cards": [format_card(c) for c in hand.holes[i]]}
        return entry

    n = hand.n
    shown_at = [i for i in range(n) if i in hand.shown]  # seen by all but the blind
    blind_seats = list(hidden)  # a viewer who sees no card but its own: these, and its own
    seen_seats = list(hidden)  # everyone else: these (the shown cards), and its own
    for i in shown_at:
        seen_seats[i] = visible_entry(i)
    to_act = hand.to_act
    legal_of_to_act = _legal_for(hand, to_act) if to_act is not None else None
    template: HandView = {  # view's keys in view's order; each viewer's dict is a copy of it
        "variant": hand.variant,
        "viewer": None,
        "street": hand.street,
        "button": hand.button,
        "dealt_seats": list(hand.order),
        "stakes": hand.stakes(),
        "seats": seen_seats,
        "board": [format_card(c) for c in hand.community],
        "pots": _pots(hand, round_bets),
        "to_act": to_act,
        "legal": None,
        "result": None if hand.result is None else hand.result.to_dict(),
    }
    add_house_parts(hand, template)
    out: dict[int | None, HandView] = {}
    for viewer in viewers:
        me = _index_of(hand, viewer)
        found = template.copy()
        found["viewer"] = viewer
        # R-DR-07 D: a folded draw player or a spectator sees no shown card, only its own
        base = blind_seats if _blind_to_others(hand, me) else seen_seats
        if me is not None and base[me] is hidden[me]:  # its own cards, not shown to all
            seats = base.copy()
            seats[me] = visible_entry(me)
            found["seats"] = seats
        elif base is not seen_seats:
            found["seats"] = base
        if legal_of_to_act is not None and viewer == to_act:
            # _legal_for: the seat to act's only (a fresh dict each time, as ``view``'s)
            found["legal"] = legal_of_to_act.copy()
        out[viewer] = found
    return out


def public_history(hand: AnyHand, viewer: int | None, start: int = 0) -> list[ViewEvent]:
    """The public history entries from ``start`` on, as ``viewer`` may see them: the same
    entries as ``view(hand, viewer)["history"][start:]``. Cards are text."""
    return seat_history(hand, viewer, start, own_cards=False)


def seat_history(
    hand: AnyHand, viewer: int | None, start: int = 0, *, own_cards: bool = True
) -> list[ViewEvent]:
    """What ``viewer`` saw of the hand's events from ``start`` on: the public entries, and
    with ``own_cards`` the viewer's own private cards (its ``hole_dealt`` cards; in draw its
    own thrown and new cards), never anyone else's. The one answer to "what did this seat
    see", for live frames (``public_history``), the replayer and the exports. Cards are
    text ("Ah")."""
    me = _index_of(hand, viewer)
    blind_to_others = _blind_to_others(hand, me)
    my_seat = hand.order[me] if me is not None else None
    out = []
    for event in hand.log[start:]:
        if own_cards and isinstance(event, HoleDealt | Discarded) and event.seat == my_seat:
            entry = event_to_dict(event)
        else:
            entry = _public(event, blind_to_others, my_seat)
        out.append(_cards_as_text(entry))
    return out


_CARD_FIELDS = ("cards", "new_cards")


def _cards_as_text(entry: dict[str, Any]) -> ViewEvent:
    """An event's JSON form (``event_to_dict``) with its cards as text: a ``ViewEvent``."""
    for name in _CARD_FIELDS:
        cards = entry.get(name)
        if isinstance(cards, list):
            entry[name] = [format_card(card) for card in cards]
    return cast(ViewEvent, entry)


def history_is_public_for(hand: AnyHand, viewer: int | None) -> bool:
    """Whether ``public_history(hand, viewer)`` is the spectator's (it differs only for a
    folded player of five-card draw, R-DR-07)."""
    return not _blind_to_others(hand, _index_of(hand, viewer))


def _index_of(hand: AnyHand, viewer: int | None) -> int | None:
    me = hand.index.get(viewer) if viewer is not None else None
    if viewer is not None and me is None:
        raise ValueError(f"seat {viewer} is not in this hand")
    return me


def sees_shown_cards(hand: AnyHand, viewer: int | None) -> bool:
    """Whether ``viewer`` (a seat, or None for a spectator) may see the cards other seats
    show. Hold'em: everyone. Five-card draw (R-DR-07 D): only the players who reached the
    showdown; a folded player and a spectator learn the winners, the pots and each shown
    hand's category, never its cards. The one rule for frames, snapshots, histories, the
    replayer and the fair deal's openings and proofs (``ahiko.fairness.release.Viewer``)."""
    return not _blind_to_others(hand, _index_of(hand, viewer))


def _blind_to_others(hand: AnyHand, me: int | None) -> bool:
    return hand.game.has_draw and (me is None or hand.folded[me])


def _pots(hand: AnyHand, round_bets: list[int]) -> list[PotView]:
    if hand.result is not None:
        return [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.result.pots]
    gathered = [
        t - (b if not hand.is_over else 0) for t, b in zip(hand.total, round_bets, strict=True)
    ]
    return [
        {"amount": p.amount, "eligible": list(p.eligible)}
        for p in build_pots(hand.order, gathered, [not f for f in hand.folded])
    ]


def _public(event: Any, blind_to_others: bool, my_seat: int | None) -> dict[str, Any]:
    out = public_event_dict(event)
    if blind_to_others:  # R-DR-07 D: not the cards, only each shown hand's category
        if isinstance(event, CardsShown) and event.seat != my_seat:
            out["cards"] = None
        elif isinstance(event, PotAwarded):
            out["hands"] = {  # others' hands: the category, not the ranks that decide it
                k: v if k == str(my_seat) else {"category": v["category"], "ranks": []}
                for k, v in out["hands"].items()
            }
    return out
