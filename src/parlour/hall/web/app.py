"""The web application: REST for the lobby, the pages and static files, one WebSocket per room.

Everything it uses is passed in::

    app = create_app(SqlStore("sqlite:///var/parlour.sqlite3"), all_games(), SystemClock())
    uvicorn.run(app, host="127.0.0.1", port=8000)

This module only wires the app: the lifespan, the middleware, the exception handlers and the
routers, one module per resource (``rooms_api``, ``replays_api``, ``players_api``, ``pages``,
``socket``, ``internal``). The rooms' authority lives in :mod:`parlour.hall.hall`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware import Middleware

from ...core import Game
from .. import observe
from ..accounts import Accounts, hash_budget
from ..analyses import Analyses
from ..botaccounts import BotAccounts
from ..broadcast import Broadcast
from ..challenges import Challenges
from ..clock import Clock
from ..hall import Hall, Ownership
from ..moderation import Moderation
from ..notify import Notifications, NotifyConfig
from ..quotas import Guard, Limits
from ..room.leaving import ABANDONED_AFTER
from ..social import Social
from ..store import Store
from . import (
    analysis_api,
    bots_api,
    challenges_api,
    coach_api,
    friends_api,
    health,
    me_api,
    metrics,
    moderation_api,
    pace_api,
    pages,
    players_api,
    replays_api,
    rooms_api,
    socket,
    table_api,
)
from .errors import HANDLERS
from .middleware import BodyLimits, Proxies, RateLimit, SameOrigin, SecurityHeaders, TrustedProxy
from .signed_in import SignedInSockets


def create_app(store: Store, games: Mapping[str, Game[Any]], clock: Clock,
               broadcast: Broadcast | None = None, bot_time_limit: float = 1.0,
               on_ready: Callable[[], None] | None = None, limits: Limits | None = None,
               bot_workers: int = 1, password_hasher: PasswordHasher | None = None,
               seed: int | None = None, cluster: Ownership | None = None, proxies: Proxies | None = None,
               notify: NotifyConfig | None = None, metrics_from: Sequence[metrics.Network] = (),
               abandoned_after: float = ABANDONED_AFTER, host_away: float | None = None) -> FastAPI:
    """The hall's web app; ``on_ready`` runs once every stored room is back, before serving.
    ``limits``: the rates and quotas (default: a public hall's, :class:`Limits`); ``bot_workers``:
    the processes where bots that think choose, each move within ``bot_time_limit`` seconds;
    ``password_hasher``: Argon2id's (hall/accounts.py) unless given; ``seed``: deal every room and
    seed every bot from it (tests and demonstrations: whoever knows it knows every deal);
    ``cluster``: this process's part when several share the rooms (hall/cluster/node.py,
    docs/scaling.md); ``proxies``: those whose ``X-Forwarded-For`` is believed (none by default);
    ``notify``: e-mail and push (hall/notify/; default: no mail, push if pywebpush is installed, links
    to http://127.0.0.1:8000); ``metrics_from``: networks besides loopback that may read ``/metrics``
    (web/metrics.py); ``abandoned_after``: the seconds after which a game nobody plays any more
    ends, ``host_away`` those after which a waiting room's absent host lets any seated player start
    it (hall/room/leaving.py). ``app.state.drain()`` stops the hall applying rooms before a stop (SIGTERM)."""
    hall = Hall(store, games, clock, broadcast, bot_time_limit=bot_time_limit, bot_workers=bot_workers, seed=seed,
                ownership=cluster, abandoned_after=abandoned_after, host_away=host_away)
    guard = Guard(limits or Limits())
    analyses = Analyses(store, games, clock.now)
    notifications = Notifications(hall, notify or NotifyConfig("http://127.0.0.1:8000"))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hall.start()
        await app.state.moderation.load()  # the sanctions in force, before anyone is served
        notifications.start()
        if on_ready is not None:
            on_ready()
        observe.watch_collector()
        watching = asyncio.get_running_loop().create_task(observe.watch_loop())
        yield
        watching.cancel()
        await hall.stop()
        await analyses.close()

    app = FastAPI(title="Parlour hall", version="1",
                  description="The lobby's REST API. Live play goes over the WebSocket"
                              " `/ws/rooms/{code}`, documented in docs/protocol.md.",
                  lifespan=lifespan, exception_handlers=HANDLERS,
                  # outermost first; SameOrigin's refusal goes out before the security headers are added
                  middleware=[Middleware(TrustedProxy, proxies=proxies or Proxies()),
                              Middleware(SameOrigin), Middleware(SecurityHeaders), Middleware(RateLimit, guard=guard),
                              Middleware(BodyLimits)])
    app.state.hall = hall
    app.state.guard = guard
    app.state.accounts = Accounts(store, clock, password_hasher, hash_budget(guard))
    app.state.signed_in = SignedInSockets()  # the live sockets of each session, closed when it ends
    app.state.analyses = analyses
    app.state.notifications = notifications
    app.state.metrics, app.state.metrics_from = metrics.hall_registry(hall, guard, notifications.outbox,
                                                                            analyses), list(metrics_from)
    app.state.drain = hall.drain
    app.state.social = Social(hall, app.state.accounts, notifications.notifier)  # invitations by mail, push
    app.state.moderation = Moderation(hall, app.state.accounts)
    # a ban ends the player's sessions: their sockets here close at once (other processes' within RECHECK)
    app.state.moderation.on_banned.append(lambda account: app.state.signed_in.end_account(account, ""))
    app.state.bot_accounts = BotAccounts(store, clock)
    # whom a person may challenge: a friend, nobody who blocks them (hall/social.py)
    app.state.challenges = Challenges(hall, guard.limits.bot_games, may_challenge=app.state.social.may_challenge)
    for router in (table_api.router, rooms_api.router, replays_api.router, analysis_api.router, socket.router,
                   pages.router, players_api.router, me_api.router, pace_api.router, metrics.router, health.router,
                   friends_api.router, moderation_api.router, bots_api.router, challenges_api.router,
                   coach_api.router):
        app.include_router(router)
    if cluster is not None:
        from . import internal  # the cluster's modules need Redis's client, an optional dependency

        app.include_router(internal.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC, check_dir=False), name="static")
    return app
