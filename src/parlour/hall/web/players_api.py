"""Players on the web: the REST endpoints of accounts, sessions, profiles, "My games" and
leaderboards (OpenAPI tag ``players``). Their pages are in :mod:`.pages`, the Origin check on
requests that carry a session in :mod:`.middleware`.

Everything here is optional for a visitor: a guest never needs an account, and every other page
and endpoint works the same without one.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Query, Request, Response

from ..accounts import SESSION_COOKIE, SESSION_DAYS, Account
from ..errors import HallError
from ..hall import Hall
from ..mygames import your_turn_first
from ..store import PlayedGame
from ..tokens import token_hash
from .deps import AccountsDep, ClientAddress, CurrentAccount, HallDep, ModerationDep, SignedIn, SocialDep
from .errors import responses
from .schemas import AccountOut, Credentials, LeaderOut, MyGamesOut, NewPassword, ProfileOut, SessionOut
from .signed_in import SignedInSockets

RECENT = 20  # games in a profile's and in "My games"' finished list
LEADERBOARD_MAX = 200
ERRORS = responses(401, 403, 404, 409, 422, 429)

router = APIRouter()


def with_session(response: Response, request: Request, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")


@router.post("/api/accounts", response_model=AccountOut, status_code=201, responses=ERRORS, tags=["players"])
async def sign_up(body: Credentials, request: Request, response: Response, accounts: AccountsDep,
                  address: ClientAddress, moderation: ModerationDep) -> dict[str, Any]:
    """A new account, signed in at once (the answer sets the session cookie)."""
    await moderation.check_sign_in(None, address)  # an address a moderator banned makes no account
    account = await accounts.sign_up(body.name, body.password, address)
    with_session(response, request, await accounts.new_session(account))
    return {"name": account.name, "kind": account.kind}


@router.post("/api/session", response_model=AccountOut, responses=ERRORS, tags=["players"])
async def sign_in(body: Credentials, request: Request, response: Response, accounts: AccountsDep,
                  address: ClientAddress, moderation: ModerationDep) -> dict[str, Any]:
    """Sign in: the answer sets the session cookie (HttpOnly). A wrong name and a wrong password
    get the same answer. Past 5 failures in a row for a name from one address, that address waits
    before its next try for that name (1 s, 2 s, 4 s... up to 15 minutes: 429 with Retry-After);
    past 20 from one address, whatever the names, the same; the owner's own address is never held
    back by others' failures. Each try costs a password hash, within the hall's budget (429).
    A banned player, once the password is right, is refused (403) with the reason and the end."""
    account, token = await accounts.sign_in(body.name, body.password, address)
    try:
        await moderation.check_sign_in(account, address)
    except HallError:
        await accounts.sign_out(token)  # the session just opened ends with the refusal
        raise
    with_session(response, request, token)
    return {"name": account.name, "kind": account.kind}


@router.delete("/api/session", status_code=204, tags=["players"])
async def sign_out(request: Request, accounts: AccountsDep) -> Response:
    """Sign out: the session ends in the store, the cookie is cleared, and the live sockets opened
    with it close (the seats they held for the player let go)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await accounts.sign_out(token)
        signed_in(request).end_session(token_hash(token))
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.get("/api/me", response_model=AccountOut, responses=ERRORS, tags=["players"])
def who_am_i(account: SignedIn) -> dict[str, Any]:
    """The signed-in player (401 for a guest)."""
    return {"name": account.name, "kind": account.kind}


@router.get("/api/session", response_model=SessionOut, tags=["players"])
def session(account: CurrentAccount) -> dict[str, Any]:
    """Who is signed in on this browser: the player, or null for a guest (never 401, so a guest's
    page asks without an error in its console)."""
    return {"player": None if account is None else {"name": account.name, "kind": account.kind}}


@router.put("/api/me/password", status_code=204, responses=ERRORS, tags=["players"])
async def change_password(body: NewPassword, request: Request, account: SignedIn, accounts: AccountsDep,
                          address: ClientAddress) -> Response:
    """A new password, given the current one; every other session of the account ends (and its sockets close)."""
    kept = request.cookies.get(SESSION_COOKIE, "")
    await accounts.change_password(account, body.password, body.new_password, address, kept)
    signed_in(request).end_account(account.id, token_hash(kept))
    return Response(status_code=204)


def signed_in(request: Request) -> SignedInSockets:
    sockets: SignedInSockets = request.app.state.signed_in
    return sockets


@router.get("/api/me/games", response_model=MyGamesOut, responses=ERRORS, tags=["players"])
async def my_games(account: SignedIn, hall: HallDep) -> dict[str, Any]:
    """My games: those in progress, where it is your turn first (soonest deadline first), then
    those waiting for others; and the last finished ones."""
    playing = your_turn_first([entry(hall, row, account) for row in await hall.store.games_of(account.id,
                                                                                                finished=False)])
    finished = await hall.store.games_of(account.id, finished=True, limit=RECENT)
    return {"playing": playing, "finished": [entry(hall, row) for row in finished]}


@router.get("/api/players/{name}", response_model=ProfileOut, responses=ERRORS, tags=["players"])
async def profile(name: str, hall: HallDep, accounts: AccountsDep, social: SocialDep) -> dict[str, Any]:
    """A player's profile: ratings per game, games played and won, recent games with replays.
    Built-in bots have profiles too (``bot:greedy``)."""
    found = await accounts.by_name(name)
    if found is None:
        raise HallError("unknown_player", f"there is no player {name[:40]!r}")
    account = found[0]
    if account.kind == "gone":  # a deleted account: its games keep a name that links to no one
        raise HallError("unknown_player", f"there is no player {name[:40]!r}")
    store = hall.store
    return {"name": account.name, "kind": account.kind, "reputation": await social.reputation(account.id),
            "ratings": [asdict(rating) for rating in await store.ratings_of(account.id)],
            "played": [asdict(played) for played in await store.played_by(account.id)],
            "recent": [entry(hall, row) for row in await store.games_of(account.id, finished=True, limit=RECENT)]}


@router.get("/api/games/{game}/leaderboard", response_model=list[LeaderOut], responses=ERRORS, tags=["players"])
async def leaderboard(game: str, hall: HallDep, limit: int = Query(50, ge=1, le=LEADERBOARD_MAX)
                      ) -> list[dict[str, Any]]:
    """Players ranked by their rating in ``game``, bots included, best first."""
    if game not in hall.games:
        raise HallError("unknown_game", f"there is no game {game[:40]!r} (the games: {', '.join(hall.games)})")
    return [asdict(leader) for leader in await hall.store.leaderboard(game, limit)]


def entry(hall: Hall, row: PlayedGame, viewer: Account | None = None) -> dict[str, Any]:
    """A game as listed; in progress, with whose turn it is (from the live room)."""
    names = [seat.get("name") or f"seat {i + 1}" for i, seat in enumerate(row.seats)]
    out = {"code": row.code, "game": row.game, "status": row.status, "seat": row.seat, "players": names,
           "created": row.created, "url": f"/r/{row.code}", "rank": row.rank, "change": row.change}
    if row.status == "over":
        out["replay_url"] = f"/r/{row.code}/replay"
    room = hall.rooms.get(row.code)
    if viewer is not None and room is not None and room.status == "playing":
        acting = sorted(room.to_act())
        out["to_act"] = [room.names()[seat] for seat in acting]
        out["your_turn"] = room.seat_of(viewer) in acting
        out["pace"], out["deadline"] = room.pace.pace, room.pace.deadline
    return out
