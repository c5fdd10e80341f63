"""Wire schemas of the table WebSocket (``/ws/rooms/{room_id}``), documented in
``docs/protocol.md``.

Every frame is a JSON object ``{"t": type, ...}``. Client frames carry an ``id`` echoed by
the ``ack`` or ``error`` that answers them. Server frames carry ``seq``: numbered room events
(``room``, ``commitment``, ``fair_mix``, ``hand``, ``countdown``, ``hand_cancelled``,
``tournament_over``, ``closed``)
raise it by one; ``snapshot``, ``ack`` and ``error`` repeat the latest number.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.cards import CardError, parse_card

# --- client -> server -----------------------------------------------------------------------


class _ClientFrame(BaseModel):
    # strict: "150", 150.0 and true are not amounts or seats (nor hand numbers, nor flags)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    id: Annotated[str, Field(min_length=1, max_length=64)]


class ActFrame(_ClientFrame):
    """A decision at the table. ``amount`` is the street total for bet/raise ("raise to");
    ``cards`` the discards of a draw (0-3 cards, e.g. ["Ah", "7c"])."""

    t: Literal["act"]
    hand_no: Annotated[int, Field(ge=1)]
    action: Annotated[ActionKind, Field(strict=False)]  # the kind's name, as JSON has no enum
    amount: Annotated[int, Field(ge=0)] = 0
    cards: Annotated[list[str], Field(default_factory=list, max_length=5)]
    seat: Annotated[int, Field(ge=0, le=8)] | None = None

    def to_action(self) -> Action:
        """The engine's action; raises ValueError on a card that is not one."""
        try:
            cards = tuple(parse_card(text) for text in self.cards)
        except CardError as exc:
            raise ValueError(str(exc)) from None
        return Action(self.action, self.amount, cards)


class SitFrame(_ClientFrame):
    t: Literal["sit"]
    seat: Annotated[int, Field(ge=0, le=8)]


class LeaveFrame(_ClientFrame):
    t: Literal["leave"]


class ShowFrame(_ClientFrame):
    t: Literal["show"]
    hand_no: Annotated[int, Field(ge=1)]


HEX32 = r"^[0-9a-f]{64}$"


class FairCommitFrame(_ClientFrame):
    """pokerfair/2: the commitment to this browser's 32-byte secret for hand ``hand_no`` (the
    next hand to begin), as 64 lowercase hex digits (docs/fairness.md)."""

    t: Literal["fair_commit"]
    hand_no: Annotated[int, Field(ge=1)]
    commitment: Annotated[str, Field(pattern=HEX32)]


class FairRevealFrame(_ClientFrame):
    """pokerfair/2: the secret itself, after the hand's ``commitment`` frame and before its
    cards; the ``ack`` carries the server's signed ``receipt``."""

    t: Literal["fair_reveal"]
    hand_no: Annotated[int, Field(ge=1)]
    secret: Annotated[str, Field(pattern=HEX32)]


class NewEntryFrame(_ClientFrame):
    t: Literal["new_entry"]


class BuyInFrame(_ClientFrame):
    """Ahiko rooms: sit (or reserve during a hand) with ``amount`` coins the player confirmed;
    ``key`` makes a retry harmless (R-RM-12)."""

    t: Literal["buy_in"]
    seat: Annotated[int, Field(ge=0, le=8)]
    amount: Annotated[int, Field(ge=1)]
    key: Annotated[str, Field(min_length=1, max_length=64)]


class ReloadFrame(_ClientFrame):
    """Ahiko rooms: more coins to the stack, between hands (R-RM-13)."""

    t: Literal["reload"]
    amount: Annotated[int, Field(ge=1)]
    key: Annotated[str, Field(min_length=1, max_length=64)]


class LeaveAfterHandFrame(_ClientFrame):
    """ "Sair após esta mão" (R-RM-14); ``on`` false takes it back."""

    t: Literal["leave_after_hand"]
    on: bool = True


class SitOutFrame(_ClientFrame):
    """ "Ficar fora nas próximas mãos" (``on``), or come back (``on`` false)."""

    t: Literal["sit_out"]
    on: bool = True


class WaitListFrame(_ClientFrame):
    """Join (``on``) or leave a full recreational room's waiting list."""

    t: Literal["wait_list"]
    on: bool = True


class TimeBankFrame(_ClientFrame):
    """Start your time bank now, during your turn."""

    t: Literal["time_bank"]


class ChatFrame(_ClientFrame):
    """A line of table chat: ``text`` (plain, one line, 1-200 characters), or ``preset``, a
    quick-chat or emote id (``ahiko.rooms.chat.PRESETS``/``EMOTES``) instead."""

    t: Literal["chat"]
    text: Annotated[str, Field(max_length=200)] = ""
    preset: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class ChatMuteFrame(_ClientFrame):
    """Hide (``on``) or show again ``player_id``'s chat, for this player only."""

    t: Literal["chat_mute"]
    player_id: Annotated[str, Field(min_length=1, max_length=64)]
    on: bool = True


class ChatReportFrame(_ClientFrame):
    """Report message ``no`` to the operator, with an optional ``reason``."""

    t: Literal["chat_report"]
    no: Annotated[int, Field(ge=1)]
    reason: Annotated[str, Field(max_length=200)] = ""


class ChatSettingFrame(_ClientFrame):
    """The host: chat for ``everyone`` (spectators too), ``seated`` players, or ``off``."""

    t: Literal["chat_setting"]
    mode: Literal["everyone", "seated", "off"]


class SnapshotFrame(_ClientFrame):
    t: Literal["snapshot"]


class HostFrame(_ClientFrame):
    """The host's "Sala" menu; ``end_game`` closes a home game with its ledger final."""

    t: Literal["start", "pause", "resume", "close", "end_game"]


Chips = Annotated[int, Field(ge=0, le=10_000_000)]


class HostChangeFrame(_ClientFrame):
    """The host of a home game: settings for the next hand (only those given change)."""

    t: Literal["host_change"]
    small_blind: Chips | None = None
    big_blind: Chips | None = None
    ante: Chips | None = None
    action_deadline_s: Annotated[float, Field(gt=0, le=600, strict=False)] | None = None
    no_deadline: bool = False
    starting_chips: Chips | None = None
    max_rebuys: Annotated[int, Field(ge=0, le=1000)] | None = None
    no_rebuy_limit: bool = False
    options: dict[str, Any] | None = None  # hand options by name (``rooms.hand_options``)


class HostChipsFrame(_ClientFrame):
    """The host adds (``amount`` > 0) or removes chips from the stack at ``seat``."""

    t: Literal["host_chips"]
    seat: Annotated[int, Field(ge=0, le=8)]
    amount: Annotated[int, Field(ge=-10_000_000, le=10_000_000)]


class ApprovePlayersFrame(_ClientFrame):
    t: Literal["approve_players"]
    on: bool


class SeatAnswerFrame(_ClientFrame):
    """The host seats (``approve``) or turns away ``player_id``, who asked for a seat."""

    t: Literal["seat_answer"]
    player_id: Annotated[str, Field(min_length=1, max_length=64)]
    approve: bool


class HostSeatFrame(_ClientFrame):
    """The host removes the player at ``seat``, or hands them the host role."""

    t: Literal["remove_player", "hand_over_host"]
    seat: Annotated[int, Field(ge=0, le=8)]


class BombPotFrame(_ClientFrame):
    """The host's "Bomb pot": the next hand of a home game is a bomb pot."""

    t: Literal["bomb_pot"]


class ChooseRunsFrame(_ClientFrame):
    """An all-in player's answer to running it twice: 2 (twice) or 1 (once)."""

    t: Literal["choose_runs"]
    runs: Literal[1, 2]


class StraddleFrame(_ClientFrame):
    """The straddler seat's answer before the cards: post the straddle (``take``) or not."""

    t: Literal["straddle"]
    take: bool


class AddBotFrame(_ClientFrame):
    t: Literal["add_bot"]
    level: Literal["random", "easy", "normal", "hard"] = "easy"
    seat: Annotated[int, Field(ge=0, le=8)] | None = None


class RemoveBotFrame(_ClientFrame):
    t: Literal["remove_bot"]
    seat: Annotated[int, Field(ge=0, le=8)]


ClientFrame = Annotated[
    ActFrame
    | SitFrame
    | LeaveFrame
    | ShowFrame
    | FairCommitFrame
    | FairRevealFrame
    | NewEntryFrame
    | SnapshotFrame
    | HostFrame
    | AddBotFrame
    | RemoveBotFrame
    | BuyInFrame
    | ReloadFrame
    | LeaveAfterHandFrame
    | SitOutFrame
    | WaitListFrame
    | TimeBankFrame
    | ChatFrame
    | ChatMuteFrame
    | ChatReportFrame
    | ChatSettingFrame
    | HostChangeFrame
    | HostChipsFrame
    | ApprovePlayersFrame
    | SeatAnswerFrame
    | HostSeatFrame
    | BombPotFrame
    | ChooseRunsFrame
    | StraddleFrame,
    Field(discriminator="t"),
]
CLIENT_FRAME: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)

# --- server -> client -----------------------------------------------------------------------


class _ServerFrame(BaseModel):
    model_config = ConfigDict(extra="allow")
    seq: Annotated[int, Field(ge=0)]
    # The room's run (``ahiko.rooms.outbox.new_epoch``): every frame of a room carries it;
    # null only in the gateway's answer when there is no room.
    epoch: Annotated[str, Field(min_length=1, max_length=32)] | None = None


# Cards are text everywhere on the wire ("Ah", "Td"), history events included: an integer
# card (the engine's own form) is refused by every card field below.
CARD_PATTERN = r"^[2-9TJQKA][cdhs]$"
CardText = Annotated[str, Field(pattern=CARD_PATTERN, strict=True)]


class _Open(BaseModel):
    """Part of a frame whose other fields the schema leaves open."""

    model_config = ConfigDict(extra="allow")


class EventOut(_Open):
    """One history entry (``ahiko.poker.view.seat_history``): hidden cards are absent or
    null, visible ones text."""

    kind: str
    cards: list[CardText] | None = None
    new_cards: list[CardText] | None = None


class SeatViewOut(_Open):
    seat: int
    cards: list[CardText] | None = None  # None: hidden from this viewer


class ViewOut(_Open):
    """``ahiko.poker.view.view``: what one viewer may know of the hand."""

    board: list[CardText] = []
    seats: list[SeatViewOut] = []
    history: list[EventOut] = []


class OpeningOut(_Open):
    """A card's opening (FAIRNESS.md): its position, card, salt and Merkle path."""

    card: CardText


class HandStateOut(_Open):
    """The hand in a snapshot (``ahiko.rooms.frames.hand_state``)."""

    hand_no: int
    view: ViewOut | None = None
    openings: list[OpeningOut] = []


class Ack(_ServerFrame):
    t: Literal["ack"] = "ack"
    id: str
    data: dict[str, Any] = {}


class ErrorFrame(_ServerFrame):
    """``code`` says what was wrong (malformed, stale_hand, out_of_turn, not_your_seat,
    illegal_action, ...), ``rule`` the SPEC rule when one applies; ``message`` is for people
    (no player, room or rule ids) and clients may show their own text for a known code."""

    t: Literal["error"] = "error"
    id: str | None = None
    code: str
    rule: str | None = None
    message: str


class SnapshotOut(_ServerFrame):
    t: Literal["snapshot"] = "snapshot"
    you: dict[str, Any]
    room: dict[str, Any]
    hand: HandStateOut | None
    last_hand: HandStateOut | None
    results: list[dict[str, Any]] | None = None
    chat: dict[str, Any] | None = None  # {mode, muted, messages}: the last messages


class TimeBankOut(_ServerFrame):
    """A numbered room event: the seat to act started its time bank (by itself when the
    deadline ran out, or by its button); ``deadline`` is the clock as in ``hand``."""

    t: Literal["time_bank"] = "time_bank"
    hand_no: int
    deadline: dict[str, Any] | None


class ChatOut(_ServerFrame):
    """One chat message (not a numbered room event: ``seq`` repeats the latest number).
    ``msg``: {no, at_ms, player_id, name, seat (null for a spectator), kind (text, preset or
    emote), text (the text, or the preset/emote id)}. Never sent to a viewer who muted its
    author."""

    t: Literal["chat"] = "chat"
    msg: dict[str, Any]


class RoomOut(_ServerFrame):
    t: Literal["room"] = "room"
    room: dict[str, Any]


class CommitmentOut(_ServerFrame):
    t: Literal["commitment"] = "commitment"
    hand_no: int
    commitment: dict[str, Any]
    cards_in_s: float
    stakes: dict[str, int]
    contributors: dict[str, Any] | None = None  # pokerfair/2: the signed contributor set
    # A home game's hand options in force for this hand (straddle, run_twice, boards,
    # bomb_pot, seven_deuce), only when one is on
    house: dict[str, int] | None = None


class FairMixOut(_ServerFrame):
    """pokerfair/2: the reveals closed at the deal: each contributor's secret or public
    fallback in seat order, the mix and the signed transcript (docs/fairness.md)."""

    t: Literal["fair_mix"] = "fair_mix"
    hand_no: int
    reveals: list[list[Any]]
    mix: str
    transcript: dict[str, str]


class HandOut(_ServerFrame):
    t: Literal["hand"] = "hand"
    hand_no: int
    events: list[EventOut]
    view: ViewOut  # {} before the engine exists
    openings: list[OpeningOut]
    deadline: dict[str, Any] | None  # the clock of the seat to act now, if it has one
    names: dict[str, str] = {}  # seat (as text) -> name at the deal, for every dealt seat
    # the room answered for this seat: {"seat", "action", "reason": timeout | away | limit}
    auto_action: dict[str, Any] | None = None


class CountdownOut(_ServerFrame):
    """What is left of the table's waits: ``next_hand`` (R-RM-11), ``bot_ahiko`` (R-BA-01),
    in seconds, as the server counts them; a wait not under way is absent."""

    t: Literal["countdown"] = "countdown"
    countdowns: dict[str, float]


class HandCancelledOut(_ServerFrame):
    t: Literal["hand_cancelled"] = "hand_cancelled"
    hand_no: int
    rule: str
    reason: str


class TournamentOverOut(_ServerFrame):
    t: Literal["tournament_over"] = "tournament_over"
    results: list[dict[str, Any]]


class ClosedOut(_ServerFrame):
    t: Literal["closed"] = "closed"
    reason: str
    stacks: dict[str, int]


class WalletOut(_ServerFrame):
    """To one player: coins went back to their wallet (``event`` ``cash_out``)."""

    t: Literal["wallet"] = "wallet"
    event: str
    amount: int
    participation_id: int


class NoticeOut(_ServerFrame):
    """To one player: something they should know (``bot_reserve_unavailable``, R-BA-02)."""

    t: Literal["notice"] = "notice"
    code: str
    rule: str | None = None
    message: str


class MovedOut(_ServerFrame):
    """To one player of a multi-table tournament, on the table they just left: they were
    moved (balancing, a table broken) to ``room_id``, table ``table``, seat ``seat``; the
    client opens that room."""

    t: Literal["moved"] = "moved"
    room_id: Annotated[str, Field(min_length=1, max_length=64)]
    table: Annotated[int, Field(ge=1)]
    seat: Annotated[int, Field(ge=0, le=9)]
    mtt: str


class RunsAskedOut(_ServerFrame):
    """A numbered room event: the all-in ``seats`` are asked whether to run it twice, with
    ``seconds`` to answer (``choose_runs``); a seat that does not answer runs it once."""

    t: Literal["runs_asked"] = "runs_asked"
    hand_no: int
    seats: list[int]
    seconds: float


class StraddleOfferOut(_ServerFrame):
    """A numbered room event: ``seat`` may straddle ``amount`` chips before the cards,
    with ``seconds`` to answer (``straddle``); no answer is no straddle."""

    t: Literal["straddle_offer"] = "straddle_offer"
    hand_no: int
    seat: int
    amount: int
    seconds: float


class StraddleAnswerOut(_ServerFrame):
    """A numbered room event: the straddler seat's answer (``take``)."""

    t: Literal["straddle_answer"] = "straddle_answer"
    hand_no: int
    seat: int
    take: bool


class HostOut(_ServerFrame):
    """To the table: what the host of a home game did (``action``: ``change_set``,
    ``change_applied``, ``chips_set``, ``chips_applied``, ``seat_request``,
    ``seat_approved``, ``seat_refused``, ``player_removed``, ``host_handed``,
    ``approve_players``, ``bomb_pot_next``), by whom, for which hand, with its details."""

    t: Literal["host"] = "host"
    action: str
    by: str | None = None
    hand_no: int


class PingOut(_ServerFrame):
    """A heartbeat (``ahiko.server.heartbeat``), to a socket that asked for them: the node is
    alive; ``every`` seconds until the next."""

    t: Literal["ping"] = "ping"
    every: Annotated[float, Field(gt=0)]


ServerFrame = Annotated[
    Ack
    | ErrorFrame
    | SnapshotOut
    | RoomOut
    | CommitmentOut
    | FairMixOut
    | HandOut
    | CountdownOut
    | HandCancelledOut
    | TournamentOverOut
    | ClosedOut
    | WalletOut
    | NoticeOut
    | MovedOut
    | TimeBankOut
    | ChatOut
    | HostOut
    | PingOut
    | RunsAskedOut
    | StraddleOfferOut
    | StraddleAnswerOut,
    Field(discriminator="t"),
]
SERVER_FRAME: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)
