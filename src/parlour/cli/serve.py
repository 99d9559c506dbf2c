"""``parlour serve``: run the hall, the web server where people meet and play."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..hall.notify import NotifyConfig

DEFAULT_DB = "sqlite:///var/parlour.sqlite3"
PROXY_SECRET_ENV = "PARLOUR_PROXY_SECRET"
WS_MAX_SIZE = 1024 * 1024  # the hall refuses messages over 64 KiB in words; past this the socket closes


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("serve", help="run the hall (web server)",
                            description="Run the hall: the lobby, the rooms and live play in the browser. A request's"
                                        " headers must arrive within 10 s and its body within 30 s, and one address"
                                        " holds at most --limit connections=N (default 64) connections at once.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--db", default=DEFAULT_DB,
                        help=f"the store's SQLAlchemy URL (default {DEFAULT_DB}, a file under ./var/);"
                             " PostgreSQL: postgresql+psycopg://user:pass@host/db")
    parser.add_argument("--redis", metavar="URL",
                        help="one of several hall processes sharing every room (docs/scaling.md): Redis's URL,"
                             " e.g. redis://127.0.0.1:6379/0, with a PostgreSQL --db shared by all of them;"
                             " the others reach this one at --host:--port (or $PARLOUR_HALL_ADDRESS)")
    parser.add_argument("--no-upgrade", dest="upgrade", action="store_false",
                        help="refuse to start on a store whose schema is older, rather than bring it up to date")
    parser.add_argument("--quiet", action="store_true", help="no access log: warnings and errors only")
    parser.add_argument("--log-format", choices=("text", "json"), default="text",
                        help="text (default) for a terminal; json: one JSON object a line (time, level, event, room,"
                             " seat, latency; a line per acknowledged move) for a log shipper. No secret in either")
    parser.add_argument("--metrics-from", action="append", default=[], metavar="NETWORK",
                        help="also answer GET /metrics to this address or network, e.g. 10.0.0.0/8 for a Prometheus"
                             " elsewhere (repeatable; by default only to this machine, never through a proxy)")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                        help="change one rate or quota, e.g. --limit rooms=20/minute --limit sockets=64"
                             " (the names and defaults: docs/protocol.md, Limits)")
    parser.add_argument("--bot-workers", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                        help="worker processes where search bots think, off the server's event loop"
                             " (default: one fewer than the cores, at least 1)")
    parser.add_argument("--bot-budget", type=float, default=1.0, metavar="SECONDS",
                        help="how long a bot may think on one move in the hall (default 1)")
    parser.add_argument("--proxy", action="append", default=[], metavar="ADDRESS",
                        help="a proxy in front of the hall whose X-Forwarded-For (the client's address, for the"
                             " quotas) is believed; from any other address it is ignored. With $PARLOUR_PROXY_SECRET"
                             " set, only requests carrying it in X-Parlour-Proxy count (parlour cluster's nginx)")
    parser.add_argument("--no-client-quotas", action="store_true",
                        help="no quota per client address (for load tests from one machine); sizes,"
                             " per-connection rates and outgoing queues stay bounded")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="deal the rooms and seed the bots from N, so that the same rooms created in the"
                             " same order get the same deals (for tests and demonstrations; never on a public"
                             " hall: whoever knows N knows every deal)")
    parser.add_argument("--smtp", metavar="URL",
                        help="send e-mail alerts (confirmed addresses only) through this SMTP server:"
                             " smtp://HOST:PORT, smtp+starttls://USER:PASSWORD@HOST:587 (STARTTLS, then login),"
                             " smtps://... (TLS); ?verify=false accepts a self-signed certificate. Without it the"
                             " hall sends no mail (Web Push still works)")
    parser.add_argument("--mail-from", metavar="ADDRESS", default=None,
                        help="the address the hall's mail comes from (with --smtp)")
    parser.add_argument("--public-url", metavar="URL", default=None,
                        help="the hall's address as players reach it, for the links in mail and push"
                             " (default http://HOST:PORT)")
    parser.add_argument("--abandoned-after", type=float, default=None, metavar="SECONDS",
                        help="end a game nobody plays any more (no person connected to any hall, and no move)"
                             " after this long: its people forfeit (default 3600, an hour; docs/architecture.md)")
    parser.add_argument("--host-away", type=float, default=None, metavar="SECONDS",
                        help="let any seated player start a waiting room whose host has been gone this long"
                             " (default 60, a minute; docs/architecture.md)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    young_objects()  # a mistyped PARLOUR_GC stops the hall before it starts, in words

    from ..games import all_games
    from ..hall import create_app
    from ..hall.clock import SystemClock
    from ..hall.quotas import Limits
    from ..hall.room.leaving import ABANDONED_AFTER
    from ..hall.store import SqlStore
    from ..hall.web.metrics import networks
    from ..hall.web.middleware import Proxies
    from .draining import DrainingServer
    from .edge import LOOPBACK, raise_descriptor_limit, server_config
    from .logs import announce, log_config

    try:
        limits = (Limits.lifted() if args.no_client_quotas else Limits()).with_settings(args.limit)
        metrics_from = networks(args.metrics_from)
    except ValueError as problem:
        raise SystemExit(f"parlour serve: {problem}") from None
    notify = notify_config(args)
    abandoned_after = ABANDONED_AFTER if args.abandoned_after is None else args.abandoned_after
    if not 0 < abandoned_after <= 30 * 86400:
        raise SystemExit("parlour serve: --abandoned-after is between 0 and 30 days, in seconds")
    if args.host_away is not None and not 0 < args.host_away <= 86400:
        raise SystemExit("parlour serve: --host-away is between 0 and a day, in seconds")
    logging_config = log_config(args.log_format, args.quiet)
    if args.log_format == "json":
        import logging.config

        logging.config.dictConfig(logging_config)  # the lines before uvicorn starts are JSON too
    ensure_folder(args.db)
    store = SqlStore(args.db, upgrade=args.upgrade)
    if store.upgraded:
        announce(f"the store's schema was brought up to date: revision(s) {', '.join(store.upgraded)}",
                 args.log_format)
    cluster = None
    if args.redis:
        from ..hall.cluster.node import Node

        cluster = Node(store, args.redis, os.environ.get("PARLOUR_HALL_ADDRESS") or reachable(args.host, args.port))
    app = create_app(store, all_games(), SystemClock(), on_ready=settle_collector, limits=limits,
                     bot_time_limit=args.bot_budget, bot_workers=args.bot_workers, seed=args.seed,
                     cluster=cluster, proxies=Proxies(frozenset(args.proxy), os.environ.get(PROXY_SECRET_ENV) or None),
                     notify=notify, metrics_from=metrics_from, abandoned_after=abandoned_after,
                     host_away=args.host_away)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    among = f"; one of the halls on Redis {args.redis}, reached at {cluster.address}" if cluster else ""
    announce(f"Parlour is open at http://{shown}:{args.port}/  (store: {args.db}{among}; Ctrl-C stops it,"
             " SIGTERM drains it first)", args.log_format)
    try:
        # No per-message deflate: it costs the server more CPU per message than the wire it saves
        # on a local network (docs/benchmarks.md).
        # Deadlines on headers and bodies, connections per address capped (a hall of a cluster
        # leaves that to nginx in front of it, whose connections all come from this machine).
        # proxy_headers off: uvicorn would believe X-Forwarded-For from any local process; the hall's
        # own TrustedProxy believes only --proxy (hall/web/middleware.py)
        raise_descriptor_limit()
        exempt = {a.strip() for a in limits.exempt.split(",") if a.strip()} | (LOOPBACK if args.redis else set())
        config = server_config(app, args.host, args.port, limits.connections, exempt, ws_max_size=WS_MAX_SIZE,
                               ws_per_message_deflate=False, proxy_headers=False, access_log=not args.quiet,
                               log_config=logging_config, log_level="warning" if args.quiet else "info",
                               timeout_graceful_shutdown=10)
        DrainingServer(config, app.state.drain).run()
    finally:
        store.close()
    return 0


def notify_config(args: argparse.Namespace) -> NotifyConfig:
    """The hall's e-mail and push settings from ``--smtp``, ``--mail-from``, ``--public-url``."""
    from ..hall.notify import NotifyConfig, SmtpConfig

    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    public = args.public_url or f"http://{shown}:{args.port}"
    if not public.startswith(("http://", "https://")) or len(public) > 200:
        raise SystemExit(f"parlour serve: --public-url {public!r} is not an http(s) URL")
    smtp = None
    if args.smtp:
        try:
            import aiosmtplib  # noqa: F401 - present, or said now rather than at the first mail
            smtp = SmtpConfig.parse(args.smtp, args.mail_from or "")
        except ImportError:
            raise SystemExit("parlour serve: --smtp needs the notify extra: pip install 'parlour[notify]'") from None
        except ValueError as problem:
            raise SystemExit(f"parlour serve: {problem}") from None
    elif args.mail_from:
        raise SystemExit("parlour serve: --mail-from goes with --smtp")
    return NotifyConfig(public, smtp)


YOUNG_OBJECTS = 50_000  # new objects between two passes of the collector over the young ones


def young_objects() -> int | None:
    """What PARLOUR_GC asks for: None for Python's own settings, else the young generation's size;
    :class:`SystemExit` in words for anything else."""
    setting = os.environ.get("PARLOUR_GC", "").strip()
    if setting == "default":
        return None
    if not setting:
        return YOUNG_OBJECTS
    if not setting.isdigit() or int(setting) < 1:
        raise SystemExit(f"PARLOUR_GC is 'default' or a whole number of new objects (e.g. 50000), not {setting!r}")
    return int(setting)


def settle_collector() -> None:
    """Tune Python's garbage collector for a long-running server, once the rooms are back.

    What is loaded by then (modules, the rebuilt rooms: hundreds of thousands of objects that live
    as long as the process) is moved out of the collector's sight, and young objects are looked
    at after 50,000 new ones rather than 700: almost everything a move makes is freed by reference
    counting, and without this the collector's full passes over the whole heap stalled every room
    for up to a second under load (docs/benchmarks.md). PARLOUR_GC=default keeps Python's own;
    PARLOUR_GC=N, a whole number, looks at young objects after N new ones instead of 50,000 (a
    young pass takes time in proportion: parlour_gc_pause_seconds in /metrics)."""
    import gc

    young = young_objects()
    if young is None:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, 20, 100)


def reachable(host: str, port: int) -> str:
    """``host:port`` as the other hall processes can reach it: a wildcard address stands for the
    machine's own name."""
    import socket

    if host in ("0.0.0.0", "::", ""):
        host = socket.getfqdn()
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def ensure_folder(url: str) -> None:
    """Create the folder of a SQLite file URL (``sqlite:///var/x.sqlite3``)."""
    from pathlib import Path

    prefix = "sqlite:///"
    if url.startswith(prefix) and url != prefix + ":memory:":
        Path(url[len(prefix):]).parent.mkdir(parents=True, exist_ok=True)
