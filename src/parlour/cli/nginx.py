"""nginx for ``parlour cluster``: where its program is, and the configuration written at each start
and each change of the halls that are ready (cli/rolling.py).

    conf = nginx_conf(8000, [41001, 41002], proxy_secret, down={41002})

compose's ``deploy/nginx.conf`` follows the same routing for containers.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence


def nginx_program() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


CONNECTIONS_PER_ADDRESS = 64  # nginx's cap on one client address's connections at once (HTTP and WebSocket)


def nginx_conf(port: int, hall_ports: Sequence[int], proxy_secret: str,
               down: set[int] | frozenset[int] = frozenset(),
               per_address: int | None = CONNECTIONS_PER_ADDRESS) -> str:
    """nginx's configuration: one address in front of the halls, each room's URLs to one hall;
    ``proxy_secret``: what it proves itself to the halls with (X-Parlour-Proxy); ``down``: the
    ports of halls that get nothing (not ready, or being restarted: cli/rolling.py);
    ``per_address``: connections one client address may hold at once (None: no cap, for a load
    test whose thousand players all come from this machine)."""
    capped = (f"""limit_conn_zone $binary_remote_addr zone=per_address:10m;
    limit_conn per_address {per_address};
    limit_conn_status 429;
    limit_conn_log_level warn;""" if per_address is not None else
              "# no cap on one address's connections: a load test's players all come from this machine")
    halls = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s{' down' * (p in down)};"
                      for p in hall_ports)
    return f"""# Written by `parlour cluster` at each start: edits are lost. Paths are under the folder (nginx -p).
daemon off;
worker_processes 1;
pid nginx.pid;
error_log logs/error.log warn;
worker_rlimit_nofile 16384;
events {{
    worker_connections 8192;
}}
http {{
    access_log off;
    client_body_temp_path tmp/client_body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    client_max_body_size 5m;  # above the hall's largest body (a 4 MiB replay): the hall refuses in words
    # Half-sent requests (slowloris) are cut: headers within 10 s, a body's reads at most 10 s apart,
    # and no address holds more than its share of connections at once (429 past it).
    client_header_timeout 10s;
    client_body_timeout 10s;
    send_timeout 30s;
    keepalive_timeout 30s;
    {capped}

    # A room's REST calls and its live sockets (a bot account's too) go to one hall, chosen by a
    # consistent hash of the room's code (a hall added or gone moves only its share of the rooms);
    # the bots online and the challenges (held in one hall's memory: docs/bot-api.md) to one hall
    # for all (the next one when that hall fails); any other URL by the client's address, so that the
    # rooms one address creates count against one hall's quota.
    map $uri $parlour_route {{
        ~^/(?:api|ws)/rooms/(?<room>[^/]+) $room;
        ~^/ws/bot/rooms/(?<bot_room>[^/]+) $bot_room;
        ~^/(?:ws/bot$|api/bots$|api/challenges) challenges;
        default $remote_addr;
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" "";
    }}
    upstream halls {{
        hash $parlour_route consistent;
        # One failed connection takes a hall out for 2 s: a dead hall's rooms go to the next one at once
{halls}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;  # the hall compares Origin with Host
        # The client's address as nginx saw it, replacing whatever the client wrote there: the halls
        # (parlour serve --proxy 127.0.0.1) count their per-address quotas by it, believing it only
        # with this secret (another local process cannot pose as nginx)
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Parlour-Proxy "{proxy_secret}";
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_connect_timeout 2s;
        proxy_next_upstream error timeout;  # never a request already sent (a POST is not repeated)
        proxy_next_upstream_timeout 10s;
        location /internal/ {{  # between the halls only (hall/cluster/node.py), never from outside
            return 404;
        }}
        location = /metrics {{  # each hall's own, for a Prometheus on this machine (docs/operations.md)
            return 404;
        }}
        location / {{
            proxy_pass http://halls;
        }}
        location /api/challenges {{
            proxy_pass http://halls;
            proxy_read_timeout 90s;  # a challenge waits up to a minute for a person's answer
        }}
        location /ws/ {{
            proxy_pass http://halls;
            proxy_read_timeout 1h;  # a live socket may be quiet for long (the hall pings it)
            proxy_send_timeout 1h;
        }}
    }}
}}
"""
