"""A player's notifications on the web (OpenAPI tag ``notifications``): their e-mail address and
alerts, the browsers that get push, the links every mail holds (confirm, unsubscribe: they work
without signing in), the service worker and the settings page. The decisions are
:mod:`parlour.hall.notify`'s; this only translates HTTP to them and back.
"""

from __future__ import annotations

import html
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import BaseModel, Field, StrictBool
from starlette.requests import HTTPConnection

from ..errors import HallError
from ..notify import Notifications, Notifier
from .deps import SignedIn
from .errors import responses
from .pages import STATIC
from .schemas import Wire

ERRORS = responses(401, 403, 404, 409, 422, 429)
router = APIRouter()


async def the_notifier(connection: HTTPConnection) -> Notifier:
    notifications: Notifications = connection.app.state.notifications
    return notifications.notifier


NotifierDep = Annotated[Notifier, Depends(the_notifier)]


class NotifyIn(Wire):
    email: str | None = Field(None, max_length=320, description="the address alerts go to (null: none); a new"
                              " one is sent a confirmation link and gets nothing else until it is followed")
    turns: StrictBool | None = Field(None, description="\"your turn\" (and \"their time ran out\") in turn-based games")
    daily: StrictBool | None = Field(None, description="one mail a day listing the games waiting for you")
    invites: StrictBool | None = Field(None, description="a friend's invitation to their table, by mail and push"
                                       " (on unless turned off)")


class NotifyOut(BaseModel):
    email: str | None
    confirmed: bool
    turns: bool
    daily: bool
    invites: bool
    push: int = Field(description="browsers of yours that get push alerts")
    mail_available: bool = Field(description="whether this hall sends e-mail at all")
    push_key: str | None = Field(description="the hall's VAPID public key, for pushManager.subscribe (null: no push)")


class PushKeys(Wire):
    p256dh: str = Field(max_length=128)
    auth: str = Field(max_length=64)


class PushIn(Wire):
    endpoint: str = Field(max_length=2048)
    keys: PushKeys
    expirationTime: float | None = None  # noqa: N815 - as the browser's PushSubscription.toJSON() names it


class PushGone(Wire):
    endpoint: str | None = Field(None, max_length=2048, description="null: every browser of yours")


@router.get("/api/me/notifications", response_model=NotifyOut, responses=ERRORS, tags=["notifications"])
async def settings(account: SignedIn, notifier: NotifierDep) -> dict[str, Any]:
    """Your notification settings (your address is shown to nobody else)."""
    return await notifier.describe(account.id)


@router.put("/api/me/notifications", response_model=NotifyOut, responses=ERRORS, tags=["notifications"])
async def change_settings(body: NotifyIn, account: SignedIn, notifier: NotifierDep) -> dict[str, Any]:
    """Change your address or alerts (only the fields given). A new address is sent a link to
    confirm it; until then nothing else goes to it."""
    return await notifier.update(account.id, {name: getattr(body, name) for name in body.model_fields_set})


@router.post("/api/me/notifications/test", responses=ERRORS, tags=["notifications"])
async def test_alert(account: SignedIn, notifier: NotifierDep) -> dict[str, Any]:
    """Send yourself a test alert, to your confirmed address and your browsers."""
    settings = await notifier.settings(account.id)
    if settings.email is not None and not settings.confirmed:
        raise HallError("conflict", f"{settings.email} is not confirmed yet: follow the link sent to it first")
    channels = await notifier.notify(account.id, "test", "A test alert from Parlour: alerts reach you here.", "/me")
    if not channels:
        raise HallError("conflict", "nothing could be sent: give an address and confirm it, or turn on push in a"
                        " browser (or you have had many alerts in the last hour)")
    return {"queued": channels}


@router.post("/api/me/push", response_model=NotifyOut, responses=ERRORS, tags=["notifications"])
async def subscribe(body: PushIn, account: SignedIn, notifier: NotifierDep) -> dict[str, Any]:
    """This browser's push subscription (``PushSubscription.toJSON()``): it gets your alerts."""
    return await notifier.subscribe(account.id, body.endpoint, body.keys.p256dh, body.keys.auth)


@router.delete("/api/me/push", response_model=NotifyOut, responses=ERRORS, tags=["notifications"])
async def unsubscribe_push(body: PushGone, account: SignedIn, notifier: NotifierDep) -> dict[str, Any]:
    """A browser of yours (or all of them) gets no more push alerts."""
    return await notifier.unsubscribe_push(account.id, body.endpoint)


# -- the links in the mail: no sign-in, plain pages -------------------------------------------------
def little_page(title: str, text: str, status: int = 200, form: str = "") -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width,"
        f" initial-scale=1'><title>{html.escape(title)} — Parlour</title><link rel=stylesheet"
        f" href=/static/style.css><body class=page-players><main class=players-page><section class=card>"
        f"<h1>{html.escape(title)}</h1><p id=outcome>{html.escape(text)}</p>{form}"
        f"<p><a href=/me/notifications>Your notification settings</a></p></section></main>", status_code=status)


@router.get("/confirm", include_in_schema=False)
async def confirm(notifier: NotifierDep, t: str = Query("", max_length=100)) -> Response:
    try:
        settings = await notifier.confirm(t)
    except HallError as error:
        return little_page("Not confirmed", str(error), 403)
    return little_page("Address confirmed", f"Parlour may now send alerts to {settings.email}.")


@router.get("/unsubscribe", include_in_schema=False)
def unsubscribe_page(a: int = Query(0), t: str = Query("", max_length=100)) -> Response:
    action = html.escape(f"/unsubscribe?a={a}&t={t}", quote=True)
    return little_page("Unsubscribe", "Send no more mail from Parlour to this address?",
                       form=f"<form method=post action='{action}'><button class='btn btn-primary'"
                            " id=unsubscribe type=submit>Unsubscribe</button></form>")


@router.post("/unsubscribe", include_in_schema=False)
async def unsubscribe(notifier: NotifierDep, a: int = Query(0), t: str = Query("", max_length=100)) -> Response:
    """The page's button, and a mail program's one-click unsubscribe (RFC 8058) alike."""
    try:
        email = await notifier.unsubscribe(a, t)
    except HallError as error:
        return little_page("Not unsubscribed", str(error), 403)
    return little_page("Unsubscribed", f"Parlour sends nothing more to {email}.")


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> Response:
    """The service worker that shows push alerts, served at the root so that its scope is the hall."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/me/notifications", include_in_schema=False)
def settings_page() -> Response:
    return FileResponse(STATIC / "me.html", media_type="text/html")
