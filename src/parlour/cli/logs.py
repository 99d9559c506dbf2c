"""What ``parlour serve`` writes to its log, and how: text for a person at a terminal (uvicorn's),
or ``--log-format json``: one JSON object a line for a log shipper::

    {"time": "2026-11-28T15:04:05.123Z", "level": "info", "event": "move acknowledged",
     "logger": "parlour.moves", "room": "KMXTAP", "seat": 0, "turn": 12, "latency": 0.0041}

No secret ever reaches a line, in either format: every line passes :func:`redact` (seat, host and
session tokens, passwords and password hashes, cookies, ``Authorization`` headers, a database
URL's password, SQL statements' parameters), and the hall never logs a seat's view (where hidden
cards are). One line per acknowledged move is written in the JSON format only (at info level).
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

SECRET = "[secret]"
PATTERNS = [  # what a secret looks like wherever it turns up
    (re.compile(r"(?i)\b(bearer)\s+[^\s\"',;]+"), r"\1 " + SECRET),
    (re.compile(r"(?i)\b((?:[a-z_]*token|password|passwd|secret|session|cookie|set-cookie|authorization)"
                r"[\"']?\s*[=:]\s*[\"']?)[^\s\"'&,;)}\]]+"), r"\1" + SECRET),
    (re.compile(r"(://[^:/@\s]*:)[^@/\s]+@"), r"\1" + SECRET + "@"),  # a URL's password
    (re.compile(r"\[parameters: .*?\](?=\s*(?:\(|$))", re.S), "[parameters: " + SECRET + "]"),  # SQLAlchemy's
    (re.compile(r"\$argon2[a-z]*\$[^\s\"',]+"), SECRET),  # a password's hash
    (re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])"), SECRET),  # a token (tokens.py: 24 bytes)
    (re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])"), SECRET),  # a token's hash
]
FIELDS = ("room", "seat", "turn", "latency", "game", "client", "method", "path", "status")


def redact(text: str) -> str:
    """``text`` with every secret in it replaced by ``[secret]``."""
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _access(record: logging.LogRecord) -> dict[str, Any] | None:
    """uvicorn's access line as fields, its path redacted; None for any other record."""
    if record.name != "uvicorn.access" or not isinstance(record.args, tuple) or len(record.args) != 5:
        return None
    client, method, path, version, status = record.args
    return {"event": "request", "client": client, "method": method, "path": redact(str(path)),
            "http": version, "status": status}


class Redact(logging.Filter):
    """Takes the secrets out of a record before any handler formats it (the text format's guard)."""

    def filter(self, record: logging.LogRecord) -> bool:
        access = _access(record)
        if access is not None:
            record.args = (access["client"], access["method"], access["path"], access["http"], access["status"])
        else:
            record.msg, record.args = redact(record.getMessage()), None
        if record.exc_info:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, event and, where the record has them, the room,
    the seat, the turn, the latency, the request; then ``error``, a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower()}
        access = _access(record)
        if access is not None:
            entry.update(access)
        else:
            entry["event"] = redact(record.getMessage())
        entry["logger"] = record.name
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None and name not in entry:
                entry[name] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            entry["error"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["error"] = redact(record.exc_text)
        return json.dumps(entry, ensure_ascii=False, default=str)


def log_config(form: str, quiet: bool) -> dict[str, Any]:
    """uvicorn's ``log_config`` for ``--log-format`` ``form`` (text or json); ``quiet``: warnings
    and errors only, no access log."""
    level = "WARNING" if quiet else "INFO"
    filters = {"redact": {"()": f"{__name__}.Redact"}}
    if form == "json":
        handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "json",
                   "filters": ["redact"]}
        return {"version": 1, "disable_existing_loggers": False, "filters": filters,
                "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
                "handlers": {"json": handler},
                "root": {"handlers": ["json"], "level": level},
                "loggers": {"uvicorn": {"level": level}, "uvicorn.error": {"level": level},
                            "uvicorn.access": {"level": level}, "parlour.moves": {"level": level}}}
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = json.loads(json.dumps(LOGGING_CONFIG))
    config["filters"] = filters
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    config["root"] = {"handlers": ["default"], "level": "WARNING"}  # the hall's own warnings, redacted too
    config["loggers"]["parlour.moves"] = {"level": "WARNING"}  # a line a move is for log shippers (json)
    for name in ("uvicorn", "uvicorn.access"):
        config["loggers"][name]["level"] = level
    return config


def announce(text: str, form: str) -> None:
    """A line for the person who started the hall: printed, or logged as JSON."""
    if form == "json":
        logging.getLogger("parlour").warning(redact(text))
    else:
        print(redact(text), flush=True)
