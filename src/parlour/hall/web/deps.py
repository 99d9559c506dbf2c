"""What a route asks FastAPI for, as ``Annotated`` aliases: the hall, the quotas, the accounts, who
is signed in, the client's address, the bearer token of the ``Authorization`` header.

    @router.get("/api/me")
    def who_am_i(account: SignedIn) -> dict[str, Any]: ...

Each reads what :func:`.app.create_app` put in ``app.state``; a route never builds one itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Header, Request, WebSocket
from starlette.requests import HTTPConnection

from ..accounts import SESSION_COOKIE, Account, Accounts
from ..errors import HallError
from ..hall import Hall
from ..moderation import Moderation
from ..quotas import Guard
from ..social import Social
from .middleware import client_address, cross_site

T = TypeVar("T")


def _app_state(name: str, kind: type[T]) -> Callable[[HTTPConnection], Awaitable[T]]:
    """A dependency that answers the ``kind`` :func:`.app.create_app` put at ``app.state.<name>``."""
    async def dependency(connection: HTTPConnection) -> T:
        value: T = getattr(connection.app.state, name)
        return value
    dependency.__name__ = f"the_{name}"
    return dependency


the_hall = _app_state("hall", Hall)
the_guard = _app_state("guard", Guard)
the_accounts = _app_state("accounts", Accounts)
the_social = _app_state("social", Social)
the_moderation = _app_state("moderation", Moderation)


async def the_address(connection: HTTPConnection) -> str:
    return client_address(connection.scope)


async def signed_in(request: Request, accounts: Annotated[Accounts, Depends(the_accounts)]) -> Account | None:
    """The account a request's session cookie signs in; None for a guest."""
    return _seen(request, await accounts.by_session(request.cookies.get(SESSION_COOKIE)))


def me(account: Annotated[Account | None, Depends(signed_in)]) -> Account:
    if account is None:
        raise HallError("signed_out", "you are not signed in (or your session has ended): sign in first")
    return account


async def socket_account(websocket: WebSocket, accounts: Annotated[Accounts, Depends(the_accounts)]
                         ) -> Account | None:
    """The player a WebSocket's session cookie signs in, unless it was opened by another site."""
    token = websocket.cookies.get(SESSION_COOKIE)
    if token is None or cross_site(websocket.headers):
        return None
    return _seen(websocket, await accounts.by_session(token))


def _seen(connection: HTTPConnection, account: Account | None) -> Account | None:
    """``account``, marked online for their friends' lists."""
    if account is not None and hasattr(connection.app.state, "social"):
        connection.app.state.social.saw(account.id)
    return account


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def host_token(authorization: Annotated[str | None, Header(description="Bearer <host token>")] = None
               ) -> str | None:
    return bearer(authorization)


def seat_token(authorization: Annotated[str | None, Header(description="Bearer <seat token>")] = None
               ) -> str | None:
    return bearer(authorization)


def kept_seat_token(authorization: Annotated[str | None, Header(
        description="Bearer <your seat token in the last game>, to take the seat a rematch keeps for you")] = None
                    ) -> str | None:
    return bearer(authorization)


HallDep = Annotated[Hall, Depends(the_hall)]
GuardDep = Annotated[Guard, Depends(the_guard)]
AccountsDep = Annotated[Accounts, Depends(the_accounts)]
ClientAddress = Annotated[str, Depends(the_address)]
CurrentAccount = Annotated[Account | None, Depends(signed_in)]  # None for a guest
SignedIn = Annotated[Account, Depends(me)]  # 401 signed_out for a guest
SocketAccount = Annotated[Account | None, Depends(socket_account)]
HostToken = Annotated[str | None, Depends(host_token)]  # the room's host token, from Authorization
SeatToken = Annotated[str | None, Depends(seat_token)]  # a seat's token, from Authorization
KeptSeatToken = Annotated[str | None, Depends(kept_seat_token)]  # the seat token of the game before a rematch
SocialDep = Annotated[Social, Depends(the_social)]  # friends, blocks, invitations, your data
ModerationDep = Annotated[Moderation, Depends(the_moderation)]  # reports, sanctions, moderators
