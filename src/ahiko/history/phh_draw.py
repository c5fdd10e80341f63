"""Fixed-limit five-card draw to and from our engine, in our PHH-style code ``FD-AHIKO``.

The format is documented in docs/history-formats.md: PHH fields and grammar, with ``antes``,
``small_bet``, ``big_bet`` and ``raise_cap`` (R-DR-02..04), five cards dealt per player, one
draw written ``pj sd CARDS`` (``pj sd`` = stand pat) followed by ``d dh pj NEW``. Positions
map to seats as in ``phh_holdem``: p1 is the first seat after the button, pn the button.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ahiko.poker.cards import Card
from ahiko.poker.config import (
    DRAW_DEFAULT_RAISE_CAP,
    DRAW_MAX_PLAYERS,
    DRAW_MIN_PLAYERS,
    DrawConfig,
)
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import ActionTaken, BettingStopped, CardsShown, Discarded, Mucked

from .deck_rebuild import draw_deck
from .hand_log import HandLog, VisibleCards
from .phh import DRAW_VARIANT, PhhDocument, PhhError, PlayerMove, format_phh_cards, player_label
from .phh_moves import (
    BETTING_STOPPED_FIELD,
    apply_move,
    apply_voluntary_shows,
    betting_line,
    forfeit_line,
    per_player,
    seats_in_table_order,
    stop_if_stopped,
    table_seats,
    whole_chips,
)


@dataclass(frozen=True, slots=True)
class DrawSetup:
    config: DrawConfig
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int


def draw_setup(doc: PhhDocument) -> DrawSetup:
    if doc.variant != DRAW_VARIANT:
        raise PhhError(f"variant {doc.variant!r} is not Ahiko five-card draw ({DRAW_VARIANT!r})")
    n = doc.player_count
    if not DRAW_MIN_PLAYERS <= n <= DRAW_MAX_PLAYERS:
        raise PhhError(f"{n} players; five-card draw takes 2..6 (R-DR-01)")
    antes = per_player(doc.fields.get("antes", 0), n, "antes")
    if len(set(antes)) != 1:
        raise PhhError(f"antes {antes} differ between players; the ante is equal (R-DR-02)")
    if any(per_player(doc.fields.get("blinds_or_straddles", 0), n, "blinds_or_straddles")):
        raise PhhError("five-card draw has no blinds, only an ante (R-DR-02)")
    for name in ("small_bet", "big_bet"):
        if name not in doc.fields:
            raise PhhError(f"missing required field {name!r}")
    try:
        config = DrawConfig(
            ante=antes[0],
            small_bet=whole_chips(doc.fields["small_bet"], "small_bet"),
            big_bet=whole_chips(doc.fields["big_bet"], "big_bet"),
            raise_cap=whole_chips(doc.fields.get("raise_cap", DRAW_DEFAULT_RAISE_CAP), "raise_cap"),
        )
    except ValueError as exc:
        raise PhhError(f"stakes: {exc}") from exc
    stacks = tuple(whole_chips(v, "starting_stacks") for v in doc.starting_stacks)
    seats, button = table_seats(doc.fields, n)
    return DrawSetup(config, seats, stacks, button)


def draw_from_phh(doc: PhhDocument) -> DrawHand:
    """Replay an ``FD-AHIKO`` document through our engine; the returned hand is over."""
    setup = draw_setup(doc)
    actions = doc.parsed_actions()
    deck, unknown_positions = draw_deck(actions, doc.player_count)
    hand, _ = DrawHand.start(
        setup.config, *seats_in_table_order(setup.seats, setup.stacks), setup.button, deck
    )
    position_of = {card: p for p, card in enumerate(deck)}
    shows: list[PlayerMove] = []
    for index, action in enumerate(actions):
        if not isinstance(action, PlayerMove):
            continue
        line = doc.actions[index]
        if action.verb == "sm":
            shows.append(action)
            continue
        discard: tuple[Card, ...] = ()
        if action.verb == "sd":
            held = hand.hole_cards(setup.seats[action.player])
            discard = _resolve_discard(action.cards, held, position_of, unknown_positions, line)
        apply_move(hand, action, setup.seats, line, discard)
    stop_if_stopped(hand, doc.fields)
    if not hand.is_over:
        raise PhhError(f"the actions end before the hand does ({len(doc.actions)} actions)")
    apply_voluntary_shows(hand, shows, setup.seats)
    return hand


def draw_finishing_stacks(hand: DrawHand) -> list[int]:
    stacks = hand.stacks
    return [stacks[seat] for seat in hand.dealt_seats]


def draw_to_phh(
    hand: DrawHand,
    cards: VisibleCards,
    *,
    players: Sequence[str] | None = None,
    extra_fields: dict[str, object] | None = None,
) -> PhhDocument:
    """Export a hand as an ``FD-AHIKO`` document, private cards filtered by ``cards``."""
    log = HandLog(hand.events)
    config = log.draw_config
    order = log.dealt_seats
    label = {seat: player_label(j) for j, seat in enumerate(order)}
    actions = [f"d dh {label[seat]} {format_phh_cards(cards.hole(seat))}" for seat in order]
    forfeits = set(hand.forfeits)
    stopped: str | None = None
    for index, event in enumerate(hand.events):
        if isinstance(event, ActionTaken):
            line = betting_line(label[event.seat], event.action, event.amount)
            actions.append(forfeit_line(label[event.seat]) if index in forfeits else line)
        elif isinstance(event, BettingStopped):
            stopped = event.reason
        elif isinstance(event, Discarded):
            thrown, new = cards.discarded(event.seat)
            actions.append(f"{label[event.seat]} sd {format_phh_cards(thrown)}".rstrip())
            if event.count:
                actions.append(f"d dh {label[event.seat]} {format_phh_cards(new)}")
        elif isinstance(event, CardsShown):
            shown = cards.shown(event.seat) or (None,) * len(event.cards)
            actions.append(f"{label[event.seat]} sm {format_phh_cards(shown)}")
        elif isinstance(event, Mucked):
            actions.append(f"{label[event.seat]} sm")
    starting = [log.starting_stacks[s] for s in order]
    fields: dict[str, object] = {
        "variant": DRAW_VARIANT,
        "antes": [config.ante] * len(order),
        "small_bet": config.small_bet,
        "big_bet": config.big_bet,
        "raise_cap": config.raise_cap,
        "starting_stacks": starting,
        "actions": actions,
        "finishing_stacks": [hand.stacks[s] for s in order],
        "seats": [s + 1 for s in order],
    }
    if stopped is not None:
        fields[BETTING_STOPPED_FIELD] = stopped
    if players is not None:
        fields["players"] = list(players)
    fields.update(extra_fields or {})
    return PhhDocument(DRAW_VARIANT, list(starting), actions, fields)


def _resolve_discard(
    written: tuple[Card | None, ...],
    held: Sequence[Card],
    position_of: dict[Card, int],
    unknown_positions: frozenset[int],
    line: str,
) -> tuple[Card, ...]:
    """Known discards as written; each unknown one (``??``) is a held card that was unknown
    in the file, taken in deal order."""
    known = [c for c in written if c is not None]
    spare = [
        c
        for c in sorted(held, key=position_of.__getitem__)
        if position_of[c] in unknown_positions and c not in known
    ]
    missing = len(written) - len(known)
    if missing > len(spare):
        raise PhhError(
            f"{line!r}: {missing} unknown discards but only {len(spare)} unknown cards held"
        )
    return tuple(known) + tuple(spare[:missing])
