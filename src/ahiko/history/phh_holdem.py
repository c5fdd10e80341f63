"""The board games, No-Limit Hold'em (PHH variant ``NT``) and Pot-Limit Omaha (``PO``), to
and from our engine. A straddle is the third entry of ``blinds_or_straddles`` (pokerkit's
notation), every later entry zero.

Position mapping: PHH names players ``p1..pn`` in position order, p1 first after the button
and pn on the button (heads-up p1 is the big blind, p2 the button and small blind). That is
exactly our ``dealt_seats`` order, so ``p(j+1)`` is ``dealt_seats[j]``. On import the players
sit at the file's ``seats`` (1-based, written by our export) or else at seats ``0..n-1`` with
the button on seat ``n-1``.

Import rebuilds the deck from the dealt cards at their ``holdem-noburn-v1`` (Omaha:
``omaha4-noburn-v1``) positions; unknown
cards (``????``) and undealt positions are filled with the unused cards in ascending order,
so a replay is deterministic. Player moves are then fed to the engine one by one; the engine
deals the board and runs the showdown itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from ahiko.poker.cards import DECK_SIZE, FULL_DECK, Card
from ahiko.poker.config import HOLDEM_MAX_PLAYERS, HoldemConfig
from ahiko.poker.events import (
    ActionTaken,
    BettingStopped,
    CardsShown,
    Mucked,
    SecondBoardDealt,
    StreetDealt,
)
from ahiko.poker.fast_init import fast_constructor, fast_init
from ahiko.poker.games import HOLDEM, POT_LIMIT_OMAHA
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.layout import HOLDEM_BOARD_CARDS, HOLDEM_HOLE_CARDS

from .deck_rebuild import HoldemDealing
from .hand_log import HandLog, VisibleCards
from .phh import (
    HOLE_LINE_PREFIXES,
    KNOWN_CARD_CODES,
    PLAYER_INDEX,
    DealBoard,
    DealHole,
    PhhDocument,
    PhhError,
    PlayerMove,
    betting_lines,
    format_phh_cards,
    parse_action,
    player_label,
    usual_bet,
)
from .phh_moves import (
    BETTING_STOPPED_FIELD,
    apply_holdem_moves,
    apply_voluntary_shows,
    betting_line,
    chip_counts,
    forfeit_line,
    per_player,
    seats_in_table_order,
    stop_if_stopped,
    table_seats,
)
from .phh_options import (
    answer_runs,
    blinds_or_straddles,
    option_fields,
    option_values,
    read_straddle,
    second_board_kind,
)


@fast_init
@dataclass(frozen=True, slots=True)
class HoldemSetup:
    """What ``HoldemHand.start`` (or ``OmahaHand.start``: ``plays``) needs, read from a PHH
    document."""

    config: HoldemConfig
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int
    plays: type[HoldemHand] = HoldemHand


_new_holdem_setup = fast_constructor(HoldemSetup)  # HoldemSetup(...), built for less
# PHH code -> the hand class that plays it
BOARD_HANDS: dict[str, type[HoldemHand]] = {
    HOLDEM.phh_code: HoldemHand,
    POT_LIMIT_OMAHA.phh_code: OmahaHand,
}
_ONLY_INT = {int}
_DEFAULT_SEATS = [tuple(range(n)) for n in range(HOLDEM_MAX_PLAYERS + 1)]
_new_player_move = fast_constructor(PlayerMove)


def holdem_setup(doc: PhhDocument) -> HoldemSetup:
    """Stakes and seating of an ``NT`` or ``PO`` document; refuses what our rules cannot play."""
    plays = BOARD_HANDS.get(doc.variant)
    if plays is None:
        codes = " or ".join(repr(code) for code in BOARD_HANDS)
        raise PhhError(f"variant {doc.variant!r} is not a board game we play ({codes})")
    starting = doc.starting_stacks
    n = len(starting)
    if not plays.min_players <= n <= plays.max_players:
        raise PhhError(
            f"{n} players; {plays.game.pokerstars_name} takes "
            f"{plays.min_players}..{plays.max_players} (R-HE-01)"
        )
    stacks: tuple[int, ...]
    if set(map(type, starting)) == _ONLY_INT and min(starting) >= 0:  # the usual: whole chips
        stacks = tuple(starting)  # type: ignore[arg-type]  # ints, checked just above
    else:  # chip_counts names the first value that is not a whole number of chips
        stacks = tuple(chip_counts(list(starting), "starting_stacks"))
    fields = doc.fields
    antes = fields.get("antes", 0)
    blinds = fields.get("blinds_or_straddles", [])
    if (  # the usual: whole chips, one equal ante and two blinds for everyone, no straddle
        type(antes) is list
        and type(blinds) is list
        and len(antes) == n
        and len(blinds) == n
        and set(map(type, antes + blinds)) == _ONLY_INT
        and min(antes) >= 0
        and min(blinds) >= 0
        and antes.count(antes[0]) == n
        and blinds.count(0) >= n - 2 + (not blinds[0]) + (not blinds[1])
    ):
        small_blind, big_blind, ante, straddle, on_button = blinds[0], blinds[1], antes[0], 0, 0
    else:  # per_player names the first value that is wrong, and each rule its own case
        antes = per_player(antes, n, "antes")
        if len(set(antes)) != 1:
            raise PhhError(f"antes {antes} differ between players; only an equal ante is supported")
        blinds = per_player(blinds, n, "blinds_or_straddles")
        small_blind, big_blind, *rest = blinds
        straddle, on_button = read_straddle(rest)
        ante = antes[0]
    options, ante = option_values(fields, ante)
    try:
        if options or on_button:
            config = HoldemConfig(
                small_blind, big_blind, ante, straddle, straddle_button=on_button, **options
            )
        else:
            config = _holdem_config(small_blind, big_blind, ante, straddle)
    except ValueError as exc:
        raise PhhError(f"blinds_or_straddles {blinds}: {exc}") from exc
    min_bet = fields.get("min_bet", big_blind)
    if min_bet != big_blind:
        raise PhhError(f"min_bet {min_bet} differs from the big blind {big_blind} (R-HE-07)")
    if "seats" in fields:
        seats, button = table_seats(fields, n)
    else:  # table_seats without the field: p(j+1) at seat j, the button on the last
        seats, button = _DEFAULT_SEATS[n], n - 1
    return _new_holdem_setup(config, seats, stacks, button, plays)


@lru_cache(maxsize=64)
def _holdem_config(small_blind: int, big_blind: int, ante: int, straddle: int) -> HoldemConfig:
    """Configs are frozen: files with the same stakes share one."""
    return HoldemConfig(small_blind, big_blind, ante, straddle)


def holdem_from_phh(doc: PhhDocument) -> HoldemHand:
    """Replay an ``NT`` or ``PO`` document through our engine; the returned hand is over."""
    setup = holdem_setup(doc)
    n = doc.player_count
    plays = setup.plays
    hole_cards = plays.game.hole_cards
    config = setup.config
    # A second board or a run-out's count only where the file's fields set the option.
    second = second_board_kind(doc.fields) if config.boards == 2 or config.run_twice else ""
    plain = hole_cards == HOLDEM_HOLE_CARDS and not second
    usual = _read_usual_lines(doc.actions, n) if plain else None
    if usual is not None:  # its deck is a checked one: each of the 52 cards once, plain ints
        deck, moves, shows = usual
        start = plays._start_checked
    else:
        deck, moves, shows = _read_lines(doc.actions, n, hole_cards, second)
        start = plays.start_hand
    seats, stacks, button = setup.seats, setup.stacks, setup.button
    # Seats ascend already when the button is the highest (always without a ``seats`` field).
    if button == max(seats):
        hand = start(config, seats, stacks, button, deck)
    else:
        ordered_seats, ordered_stacks = seats_in_table_order(seats, stacks)
        hand = start(config, ordered_seats, ordered_stacks, button, deck)
    apply_holdem_moves(hand, moves, seats)
    if config.run_twice:
        answer_runs(hand, doc.fields, seats)
    stop_if_stopped(hand, doc.fields)
    if not hand.is_over:
        raise PhhError(f"the actions end before the hand does ({len(doc.actions)} actions)")
    apply_voluntary_shows(hand, shows, seats)
    return hand


_Lines = tuple[tuple[Card, ...], list[tuple[PlayerMove, str]], list[PlayerMove]]
_FULL_DECK_BYTES = bytes(FULL_DECK)
_CARD = "([2-9TJQKA][cdhs])"


@lru_cache(maxsize=16)
def _usual_hole_lines(n: int) -> re.Pattern[str]:
    """``d dh p1 XxYy`` .. ``d dh pn XxYy`` on consecutive lines, as most files begin."""
    return re.compile("\n".join(f"d dh {player_label(j)} {_CARD}{_CARD}" for j in range(n)))


def _read_usual_lines(actions: list[str], n: int) -> _Lines | None:
    """The deck, the moves and the shows of the usual file: every hole card known and dealt
    first in position order, the board in known cards. Anything else (an unknown or repeated
    card, another spelling, an error) gives None, and ``_read_lines`` reads it all again."""
    first_lines = "\n".join(actions[:n])
    if len(actions) < n or first_lines.count("\n") != n - 1:  # a line holding a newline
        return None
    holes = _usual_hole_lines(n).fullmatch(first_lines)
    if holes is None:
        return None
    codes = KNOWN_CARD_CODES
    dealt = list(map(codes.__getitem__, holes.groups()))
    known = dealt[0::2] + dealt[1::2]  # holdem-noburn-v1: first cards round the table, then seconds
    moves: list[tuple[PlayerMove, str]] = []
    shows: list[PlayerMove] = []
    betting = betting_lines(n)
    for line in islice(actions, n, None):
        entry = betting.get(line)
        if entry is not None:
            moves.append(entry)
            continue
        if line[2:7] == " cbr ":
            move = usual_bet(line, n)
            if move is not None:
                moves.append((move, line))
                continue
        elif line[:5] == "d db ":  # "d db 7dAcAd" (the flop), "d db 9h"; known cards only
            size = len(line)
            if size == 11:
                first, second, third = (
                    codes.get(line[5:7]),
                    codes.get(line[7:9]),
                    codes.get(line[9:]),
                )
                if first is None or second is None or third is None:
                    return None
                known += first, second, third
                continue
            if size == 7:
                card = codes.get(line[5:])
                if card is None:
                    return None
                known.append(card)
                continue
        elif line[2:6] == " sm " and len(line) == 10:  # "p1 sm AcAs": a shown hand
            player = PLAYER_INDEX.get(line[:2], n)
            first, second = codes.get(line[6:8], -1), codes.get(line[8:10], -1)
            if player < n and first >= 0 and second >= 0:
                shows.append(_new_player_move(player, "sm", None, (first, second)))
                continue
        try:
            action = parse_action(line, n)
        except PhhError:
            return None
        if type(action) is not PlayerMove or action.verb == "sd":
            return None
        if action.verb == "sm":
            shows.append(action)
        else:
            moves.append((action, line))
    if len(known) > 2 * n + HOLDEM_BOARD_CARDS:
        return None
    # The cards no line deals, ascending (every known card is one of the 52: a byte); as many
    # as the deck lacks unless a card is dealt twice.
    unused = _FULL_DECK_BYTES.translate(None, bytes(known))
    if len(unused) + len(known) != DECK_SIZE:
        return None
    return (*known, *unused), moves, shows


def _read_lines(
    actions: list[str], n: int, hole_cards: int = HOLDEM_HOLE_CARDS, second_board: str = ""
) -> _Lines:
    """The deck, the moves and the shows of any file, naming the first line that is wrong."""
    # One pass over the lines: dealt cards go straight to their deck positions, player
    # moves wait for the deck to be complete.
    dealing = HoldemDealing(n, hole_cards, second_board)
    moves: list[tuple[PlayerMove, str]] = []
    shows: list[PlayerMove] = []
    betting, hole_prefixes, cards = betting_lines(n), HOLE_LINE_PREFIXES, KNOWN_CARD_CODES
    for line in actions:
        # The most frequent lines ("p3 f", "p1 cc") are looked up whole, without a call.
        entry = betting.get(line)
        if entry is not None:
            moves.append(entry)
            continue
        if line[2:7] == " cbr ":  # "p5 cbr 225"
            move = usual_bet(line, n)
            if move is not None:
                moves.append((move, line))
                continue
        j = hole_prefixes.get(line[:8], n)  # "d dh p1 AcKd"
        if j < n and len(line) == 12:
            # "??" and other spellings take the full parser
            first, second = cards.get(line[8:10], -1), cards.get(line[10:12], -1)
            if first >= 0 and second >= 0:
                dealing.hole_pair(j, first, second)
                continue
        action = parse_action(line, n)
        if type(action) is PlayerMove:
            verb = action.verb
            if verb == "sm":
                shows.append(action)
            elif verb == "sd":
                raise PhhError(f"{line!r}: there is no draw in a board game")
            else:
                moves.append((action, line))
        elif type(action) is DealHole:
            dealing.hole(action)
        else:
            assert isinstance(action, DealBoard)
            dealing.board(action)
    return dealing.deck(), moves, shows


def holdem_finishing_stacks(hand: HoldemHand) -> list[int]:
    """Stacks in PHH position order (p1..pn): the hand's chips, which are held in that very
    order (``dealt_seats``, first seat after the button first)."""
    return list(hand.chips)


def holdem_to_phh(
    hand: HoldemHand,
    cards: VisibleCards,
    *,
    players: Sequence[str] | None = None,
    extra_fields: dict[str, object] | None = None,
) -> PhhDocument:
    """Export a hand as an ``NT`` or ``PO`` document (its game's PHH code). ``cards`` says which private cards may be written
    (``VisibleCards.for_viewer`` or ``.all_cards`` for a private archive); hidden ones are
    written ``??``."""
    log = HandLog(hand.events)
    config = log.holdem_config
    order = log.dealt_seats
    label = {seat: player_label(j) for j, seat in enumerate(order)}
    n = len(order)
    actions = [f"d dh {label[seat]} {format_phh_cards(cards.hole(seat))}" for seat in order]
    forfeits = set(hand.forfeits)
    stopped: str | None = None
    # A hand mucked at the showdown and shown after it is written once, shown, where it was
    # mucked: PHH has one showdown line a player (pokerkit refuses a second).
    shown_later = {
        e.seat: e for e in hand.events if isinstance(e, CardsShown) and e.reason == "voluntary"
    }
    mucked = {e.seat for e in hand.events if isinstance(e, Mucked)}
    for index, event in enumerate(hand.events):
        if isinstance(event, StreetDealt | SecondBoardDealt):
            actions.append(f"d db {format_phh_cards(event.cards)}")
        elif isinstance(event, ActionTaken):
            line = betting_line(label[event.seat], event.action, event.amount)
            actions.append(forfeit_line(label[event.seat]) if index in forfeits else line)
        elif isinstance(event, BettingStopped):
            stopped = event.reason
        elif isinstance(event, CardsShown):
            if event.reason != "voluntary" or event.seat not in mucked:
                actions.append(_show_line(label[event.seat], event, cards))
        elif isinstance(event, Mucked):
            later = shown_later.get(event.seat)
            if later is None:
                actions.append(f"{label[event.seat]} sm")
            else:
                actions.append(_show_line(label[event.seat], later, cards))
    starting = log.starting_stacks
    fields: dict[str, object] = {
        "variant": hand.game.phh_code,
        "ante_trimming_status": True,
        "antes": [config.bomb_pot or config.ante] * n,
        "blinds_or_straddles": blinds_or_straddles(config, n),
        "min_bet": config.big_blind,
        "starting_stacks": [starting[s] for s in order],
        "actions": actions,
        "finishing_stacks": [hand.stacks[s] for s in order],
        "seats": [s + 1 for s in order],  # table seats, 1-based, in position order
    }
    fields.update(option_fields(config, hand.events, order))
    if stopped is not None:
        fields[BETTING_STOPPED_FIELD] = stopped
    if players is not None:
        fields["players"] = list(players)
    fields.update(extra_fields or {})
    return PhhDocument(hand.game.phh_code, [starting[s] for s in order], actions, fields)


def _show_line(label: str, event: CardsShown, cards: VisibleCards) -> str:
    shown = cards.shown(event.seat) or (None,) * len(event.cards)
    return f"{label} sm {format_phh_cards(shown)}"
