"""Players and each other, on the web (OpenAPI tag ``friends``): friends to follow and where
they play, blocks (private: only the blocker sees them), invitations to one's table,
reputation, and a player's own data (download it all, delete the account).

    PUT /api/me/friends/Bo      -> Bo is followed; GET /api/me/friends says whether he is online, and where
    PUT /api/me/blocks/Cy       -> Cy's chat never reaches me; he cannot sit at my table
    POST /api/me/invitations    {"player": "Bo", "room": "KXMTRA"} -> Bo sees it on his next page
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import Field, StringConstraints

from ..errors import HallError
from ..wire import dumps
from .deps import AccountsDep, ClientAddress, ModerationDep, SignedIn, SocialDep
from .errors import responses
from .schemas import Wire
from .signed_in import SignedInSockets

ERRORS = responses(401, 403, 404, 409, 422, 429)
router = APIRouter(tags=["friends"])
PlayerName = Annotated[str, StringConstraints(max_length=64)]


class InvitationIn(Wire):
    player: PlayerName = Field(description="the friend's name")
    room: Annotated[str, StringConstraints(max_length=16)] = Field(description="the code of your room")


class Confirm(Wire):
    password: Annotated[str, StringConstraints(max_length=256)] = Field(description="your password, again")


@router.get("/api/me/friends", responses=ERRORS)
async def friends(me: SignedIn, social: SocialDep) -> list[dict[str, Any]]:
    """The players I follow: whether each is online, and the room they sit in (a link to watch)."""
    return await social.friends(me)


@router.put("/api/me/friends/{name}", responses=ERRORS)
async def follow(name: str, me: SignedIn, social: SocialDep) -> dict[str, Any]:
    """Follow a player (their name, any case). Rate-limited; at most a few hundred."""
    friend = await social.follow(me, name)
    return {"done": f"you follow {friend.name}"}


@router.delete("/api/me/friends/{name}", status_code=204, responses=ERRORS)
async def unfollow(name: str, me: SignedIn, social: SocialDep) -> Response:
    await social.unfollow(me, name)
    return Response(status_code=204)


@router.get("/api/me/blocks", responses=ERRORS)
async def blocks(me: SignedIn, social: SocialDep) -> list[dict[str, Any]]:
    """The players I block: only I see this list."""
    return [{"name": n.name, "since": n.since} for n in await social.blocks(me)]


@router.put("/api/me/blocks/{name}", responses=ERRORS)
async def block(name: str, me: SignedIn, social: SocialDep) -> dict[str, Any]:
    """Block a player: their chat lines never reach me, in any room, live or after a reload; they
    cannot take a seat at a table where I sit, nor invite me. They are not told."""
    other = await social.block(me, name)
    return {"done": f"you block {other.name}: you will not see their chat, and they cannot join your table"}


@router.delete("/api/me/blocks/{name}", status_code=204, responses=ERRORS)
async def unblock(name: str, me: SignedIn, social: SocialDep) -> Response:
    await social.unblock(me, name)
    return Response(status_code=204)


@router.post("/api/me/invitations", status_code=201, responses=ERRORS)
async def invite(body: InvitationIn, me: SignedIn, social: SocialDep) -> dict[str, Any]:
    """Invite a friend to the room where I sit (a seat must be open): they see it on their next page."""
    friend = await social.invite(me, body.player, body.room)
    return {"done": f"{friend.name} will see your invitation on their next page"}


@router.get("/api/me/notices", responses=ERRORS)
async def notices(me: SignedIn, social: SocialDep, moderation: ModerationDep) -> dict[str, Any]:
    """What waits for me, each shown once (the pages show it): invitations to friends' tables and
    a moderator's warnings."""
    return {"invitations": await social.invitations(me), "warnings": await moderation.warnings(me)}


@router.get("/api/players/{name}/reputation", responses=ERRORS)
async def reputation(name: str, accounts: AccountsDep, social: SocialDep) -> dict[str, Any]:
    """The share of a player's games they played to the end, and how they left the others:
    ``resigned``, ``away`` (gone too long, or out of time in a turn-based game: their seat given
    to a bot), ``abandoned`` (nobody played for an hour and the hall ended the game)."""
    found = await accounts.by_name(name) if len(name) <= 64 else None
    if found is None or found[0].kind == "gone":
        raise HallError("unknown_player", f"there is no player {name[:40]!r}")
    return {"name": found[0].name, **await social.reputation(found[0].id)}


@router.get("/api/me/data", responses=ERRORS)
async def my_data(me: SignedIn, social: SocialDep) -> Response:
    """Everything the hall keeps about me, as a JSON file to download (no password, no session)."""
    return Response(dumps(await social.everything(me)), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="parlour-{me.id}.json"'})


@router.delete("/api/me", responses=ERRORS)
async def delete_me(body: Confirm, request: Request, me: SignedIn, social: SocialDep, address: ClientAddress
                    ) -> dict[str, Any]:
    """Delete my account, given my password again: my games stay, under a name that links to no one;
    everything else about me goes (sessions, friends, blocks, invitations, reports I made, ratings)."""
    anonymous = await social.forget(me, body.password, address)
    sockets: SignedInSockets = request.app.state.signed_in
    sockets.end_account(me.id, "")  # its live sockets close, as its sessions ended
    return {"done": f"your account is deleted: your games stay under the name {anonymous}"}
