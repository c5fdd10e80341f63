"""The operators' console API, ``/api/admin/*``.

Every route is for an account with the operator role (``ahiko admin operator add``) that gave
its one-time code once (``POST /api/admin/activate``); anyone else gets 403, signed in or
not. Each action writes one line of the audit log, who, what, on what, why and when, which
no route changes. Nothing here acts on its own: the console lists and an operator decides.
"""

from __future__ import annotations

import hmac
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ahiko.history.abuse_signals import signals
from ahiko.rooms import commands as c
from ahiko.server.errors import ApiError
from ahiko.server.operator_cli import code_hash
from ahiko.server.services import Player, http_player, room_registry, services
from ahiko.store import operators as store
from ahiko.store.accounts import find_user
from ahiko.store.chat import clear_site_mute, reports, set_site_mute, site_mutes
from ahiko.store.fair_counts import crash_cancellations, most_withheld, withholds_of
from ahiko.wallet.check import check_ledger
from ahiko.wallet.statement import StatementLine, statement
from ahiko.wallet.stays import reserve_statement

# Not in the public API's schema: the console is the operators', documented in docs/deploy.md.
router = APIRouter(prefix="/api/admin", include_in_schema=False)
MAX_GRANT = 1_000_000  # coins one grant may give: a typo of a few zeros is refused
REPORT_ACTIONS = ("none", "warned", "muted", "suspended")


@dataclass(frozen=True)
class Operator:
    user_id: int
    name: str
    activated: bool

    @property
    def who(self) -> tuple[int, str]:
        return self.user_id, self.name


def any_operator(
    request: Request, player: Annotated[Player | None, Depends(http_player)]
) -> Operator:
    """The signed-in operator, whether or not it gave its code yet; 403 for anyone else."""
    if player is None:
        raise ApiError(403, "not_an_operator", "the console is for operators")
    found = store.operator_of(services(request).engine, int(player.player_id))
    if found is None:
        raise ApiError(403, "not_an_operator", "the console is for operators")
    return Operator(int(player.player_id), player.name, found.code_hash is None)


def operator(found: Annotated[Operator, Depends(any_operator)]) -> Operator:
    """An operator that gave its one-time code: every action needs one."""
    if not found.activated:
        raise ApiError(403, "code_needed", "give the one-time code of `ahiko admin operator add`")
    return found


AnyOperator = Annotated[Operator, Depends(any_operator)]
ActiveOperator = Annotated[Operator, Depends(operator)]
Reason = Annotated[str, Field(min_length=3, max_length=400)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, str_strip_whitespace=True)


class CodeBody(Strict):
    code: Annotated[str, Field(min_length=1, max_length=40)]


class ReasonBody(Strict):
    reason: Reason


class MuteBody(Strict):
    reason: Reason
    minutes: Annotated[int, Field(ge=1, le=60 * 24 * 365)] | None = None  # None: until lifted


class GrantBody(Strict):
    reason: Reason
    amount: Annotated[int, Field(ge=1, le=MAX_GRANT)]


class ResolveBody(Strict):
    action: Annotated[str, Field(pattern="^(none|warned|muted|suspended)$")]
    note: Annotated[str, Field(max_length=400)] = ""


def _audit(
    request: Request, who: Operator, action: str, target: str, reason: str, **detail: Any
) -> None:
    found = services(request)
    with found.engine.begin() as conn:
        store.append_audit(conn, found.clock(), who.who, action, target, reason, detail or None)


@router.get("/me")
def me(who: AnyOperator) -> dict[str, Any]:
    return {"id": who.user_id, "name": who.name, "activated": who.activated}


@router.post("/activate")
def activate(request: Request, who: AnyOperator, body: CodeBody) -> dict[str, Any]:
    """The one-time code printed by ``ahiko admin operator add``, once."""
    if who.activated:
        return {"activated": True}
    found = services(request)
    record = store.operator_of(found.engine, who.user_id)
    if record is None or record.code_hash is None:
        raise ApiError(403, "not_an_operator", "the console is for operators")
    if not hmac.compare_digest(record.code_hash, code_hash(body.code)):
        raise ApiError(400, "wrong_code", "that is not the one-time code printed for you")
    store.activate(found.engine, who.user_id, found.clock())
    _audit(request, who, "activate", f"operator:{who.user_id}", "first visit, one-time code given")
    return {"activated": True}


# --- rooms and tables ------------------------------------------------------------------------
@router.get("/rooms")
def rooms(request: Request, who: ActiveOperator) -> list[dict[str, Any]]:
    """Every room of this node, open or not yet closed, with a link to watch it."""
    listed = []
    for actor in room_registry(request.app).actors():
        summary = actor.summary(with_seats=False)
        listed.append(
            {
                key: summary.get(key)
                for key in (
                    "id",
                    "name",
                    "kind",
                    "variant",
                    "status",
                    "seats_taken",
                    "seats_total",
                    "hand_no",
                    "public",
                )
            }
            | {"watch": f"/#/room/{summary['id']}"}
        )
    return listed


@router.post("/rooms/{room_id}/close")
async def close_room(
    request: Request, who: ActiveOperator, room_id: str, body: ReasonBody
) -> dict[str, Any]:
    """On the event loop: the room is told to close through its inbox, on its own thread."""
    registry = room_registry(request.app)
    if registry.get(room_id) is None:
        raise ApiError(404, "no_room", f"there is no open room {room_id!r} on this node")
    registry.retire(room_id, "operator")
    await run_in_threadpool(_audit, request, who, "close_room", f"room:{room_id}", body.reason)
    return {"closed": room_id}


class NoticeBody(Strict):
    text: Annotated[str, Field(min_length=1, max_length=200)]
    room_id: Annotated[str, Field(min_length=1, max_length=64)] | None = None  # None: all


@router.post("/notice")
async def notice(request: Request, who: ActiveOperator, body: NoticeBody) -> dict[str, Any]:
    """A notice to one room, or to every room of this node, shown to each player and
    spectator at once (a ``notice`` frame, docs/protocol.md)."""
    registry = room_registry(request.app)
    if body.room_id is None:
        actors = [actor for actor in registry.actors() if actor.is_open]
    else:
        found = registry.get(body.room_id)
        if found is None:
            raise ApiError(404, "no_room", f"there is no open room {body.room_id!r} on this node")
        actors = [found]
    for actor in actors:
        actor.tell(c.Announce(body.text))
    target = "everyone" if body.room_id is None else f"room:{body.room_id}"
    await run_in_threadpool(_audit, request, who, "notice", target, body.text, rooms=len(actors))
    return {"rooms": len(actors)}


# --- accounts --------------------------------------------------------------------------------
@router.get("/accounts")
def search(
    request: Request, who: ActiveOperator, q: Annotated[str, Query(min_length=1, max_length=40)]
) -> list[dict[str, Any]]:
    return store.search_users(services(request).engine, q)


def _account(request: Request, user_id: int) -> Any:
    user = find_user(services(request).engine, user_id)
    if user is None:
        raise ApiError(404, "no_account", f"there is no account {user_id}")
    return user


@router.get("/accounts/{user_id}")
def profile(request: Request, who: ActiveOperator, user_id: int) -> dict[str, Any]:
    found = services(request)
    user = _account(request, user_id)
    holdings = found.wallet.holdings(user_id)
    lines = statement(found.engine, user_id, 1, 50).items
    mute = site_mutes(found.engine, found.clock()).get(str(user_id))
    return {
        "id": user.id,
        "username": user.username,
        "created_at": user.created_at.isoformat(),
        "balance": holdings.wallet,
        "in_seats": holdings.in_seats,
        "muted": None
        if mute is None
        else {"until": mute.until and mute.until.isoformat(), "reason": mute.reason},
        "suspended": store.suspension_of(found.engine, user_id),
        "fair_withholds": withholds_of(found.engine, user_id),
        "statement": [_statement_line(line) for line in lines],
    }


def _statement_line(line: StatementLine) -> dict[str, Any]:
    """A line of the account's statement, as the console's table shows it."""
    summary = line.participation
    room = None if summary is None else summary.room_name
    moment = line.created_at.isoformat()
    return dict(
        id=line.transaction_id, kind=line.kind, amount=line.amount, at=moment,
        reason=line.reason, balance=line.balance_after, room=room,
    )  # fmt: skip


@router.post("/accounts/{user_id}/mute")
def mute(request: Request, who: ActiveOperator, user_id: int, body: MuteBody) -> dict[str, Any]:
    found = services(request)
    _account(request, user_id)
    now = found.clock()
    until = None if body.minutes is None else now + timedelta(minutes=body.minutes)
    set_site_mute(found.engine, str(user_id), until, body.reason, now)
    _audit(request, who, "mute", f"account:{user_id}", body.reason, minutes=body.minutes)
    return {"muted": user_id, "until": until and until.isoformat()}


@router.post("/accounts/{user_id}/unmute")
def unmute(request: Request, who: ActiveOperator, user_id: int, body: ReasonBody) -> dict[str, Any]:
    _account(request, user_id)
    if not clear_site_mute(services(request).engine, str(user_id)):
        raise ApiError(409, "not_muted", "this account's chat is not muted")
    _audit(request, who, "unmute", f"account:{user_id}", body.reason)
    return {"unmuted": user_id}


@router.post("/accounts/{user_id}/suspend")
def suspend(
    request: Request, who: ActiveOperator, user_id: int, body: ReasonBody
) -> dict[str, Any]:
    found = services(request)
    _account(request, user_id)
    if user_id == who.user_id:
        raise ApiError(400, "own_account", "an operator cannot suspend its own account")
    with found.engine.begin() as conn:
        if not store.suspend(conn, user_id, body.reason, who.user_id, found.clock()):
            raise ApiError(409, "already_suspended", "this account is already suspended")
        store.append_audit(
            conn, found.clock(), who.who, "suspend", f"account:{user_id}", body.reason
        )
    return {"suspended": user_id}


@router.post("/accounts/{user_id}/lift")
def lift(request: Request, who: ActiveOperator, user_id: int, body: ReasonBody) -> dict[str, Any]:
    found = services(request)
    _account(request, user_id)
    with found.engine.begin() as conn:
        if not store.lift(conn, user_id):
            raise ApiError(409, "not_suspended", "this account is not suspended")
        store.append_audit(conn, found.clock(), who.who, "lift", f"account:{user_id}", body.reason)
    return {"lifted": user_id}


@router.post("/accounts/{user_id}/grant")
def grant(request: Request, who: ActiveOperator, user_id: int, body: GrantBody) -> dict[str, Any]:
    """Coins from the mint to the account's wallet: a ledger posting whose reason names the
    operator, as ``ahiko admin grant`` does from the command line."""
    found = services(request)
    _account(request, user_id)
    key = f"operator-grant:{uuid.uuid4().hex}"
    receipt = found.wallet.grant(user_id, body.amount, f"{body.reason} ({who.name})", key)
    _audit(
        request,
        who,
        "grant",
        f"account:{user_id}",
        body.reason,
        amount=body.amount,
        transaction=receipt.transaction_id,
    )
    return {"granted": body.amount, "balance": found.wallet.holdings(user_id).wallet}


# --- chat reports ----------------------------------------------------------------------------
@router.get("/reports")
def chat_reports(request: Request, who: ActiveOperator) -> list[dict[str, Any]]:
    """The latest reports, unresolved first, each with the lines around the reported one."""
    engine = services(request).engine
    found = reports(engine, limit=100)
    resolved = store.resolutions(engine, [r.id for r in found])
    listed = [
        {
            "id": r.id,
            "room_id": r.room_id,
            "no": r.msg_no,
            "reporter_id": r.reporter_id,
            "author_id": r.author_id,
            "author_name": r.author_name,
            "text": r.text,
            "reason": r.reason,
            "at": r.at.isoformat(),
            "around": store.lines_around(engine, r.room_id, r.msg_no),
            "resolution": resolved.get(r.id),
        }
        for r in found
    ]
    return sorted(listed, key=lambda r: r["resolution"] is not None)


@router.post("/reports/{report_id}/resolve")
def resolve(
    request: Request, who: ActiveOperator, report_id: int, body: ResolveBody
) -> dict[str, Any]:
    found = services(request)
    if report_id not in {r.id for r in reports(found.engine, limit=1000)}:
        raise ApiError(404, "no_report", f"there is no report {report_id}")
    with found.engine.begin() as conn:
        if not store.resolve_report(
            conn, report_id, who.user_id, body.action, body.note, found.clock()
        ):
            raise ApiError(409, "already_resolved", "this report was already resolved")
        store.append_audit(
            conn,
            found.clock(),
            who.who,
            "resolve_report",
            f"report:{report_id}",
            body.note or body.action,
            {"action": body.action},
        )
    return {"resolved": report_id, "action": body.action}


# --- the house: the Bot Ahiko's reserve, the ledger, the audit log --------------------------
@router.get("/bot-ahiko")
def bot_ahiko(request: Request, who: ActiveOperator) -> dict[str, Any]:
    balance, lines = reserve_statement(services(request).engine)
    return {
        "reserve": balance,
        "statement": [
            {
                "id": line.transaction_id,
                "kind": line.kind,
                "amount": line.amount,
                "participation": line.participation_id,
                "reason": line.reason,
                "at": line.created_at.isoformat(),
            }
            for line in reversed(lines[-200:])
        ],
    }


@router.get("/signals")
def abuse_signals(request: Request, who: ActiveOperator) -> list[dict[str, Any]]:
    """Chip flow, soft play, shared addresses, account bursts: listed, never acted on."""
    return [signal.as_dict() for signal in signals(services(request).engine)]


@router.get("/fairness")
def fairness(request: Request, who: ActiveOperator) -> dict[str, Any]:
    """pokerfair/2: the accounts whose browsers committed a secret and withheld it (the
    fallback stood in; the hand went on), most first, and the hands cancelled after their
    cards by a node's crash (also public, ``/api/fairness/figures``)."""
    engine = services(request).engine
    return {"withholds": most_withheld(engine), "crash_cancellations": crash_cancellations(engine)}


@router.get("/ledger")
def ledger(request: Request, who: ActiveOperator) -> dict[str, Any]:
    problems = check_ledger(services(request).engine)
    return {"ok": not problems, "problems": problems}


@router.get("/audit")
def audit(request: Request, who: ActiveOperator) -> list[dict[str, Any]]:
    return [entry.as_dict() for entry in store.audit_log(services(request).engine)]
