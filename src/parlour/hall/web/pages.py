"""The hall's pages: the lobby, a room, a replay, the players' pages, each game's rules page and
the files of a game's package (its renderer). None of them is in the OpenAPI schema.

The pages themselves are the JS client in ``static/`` (served under ``/static/`` by the app).
"""

from __future__ import annotations

import html
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from ...core import Game
from .deps import HallDep

STATIC = Path(__file__).parent / "static"
PAGES = {"lobby": "index.html", "room": "room.html", "replay": "replay.html", "players": "players.html",
         "analysis": "analysis.html"}
RULES_MARK = "<!--rules-->"

router = APIRouter(include_in_schema=False)


def game_folder(game: Game[Any]) -> Path:
    """The folder of the package that defines ``game`` (its rules and renderer live there)."""
    return Path(sys.modules[type(game).__module__].__file__ or ".").parent


def rules_page(shell: str, game: Game[Any], text: str) -> str:
    """The hall's rules page (``static/rules.html``) around a game's rules written for players.

    The game's package holds them as ``rules.html``; its ``spec.html`` is the rules document the
    engine implements, kept as the specification and never shown to players.
    """
    return (shell.replace("<title>Parlour — rules</title>", f"<title>{html.escape(game.name)} rules — Parlour</title>")
            .replace('data-game=""', f'data-game="{html.escape(game.id)}"').replace(RULES_MARK, text))


def page(name: str) -> Response:
    path = STATIC / PAGES[name]
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(f"<!doctype html><title>Parlour</title><p>The {name} page is not built yet."
                        " The API is described at <a href=\"/docs\">/docs</a>.</p>")


@router.get("/")
def lobby() -> Response:
    return page("lobby")


def room_page_of(name: str, code: str, request: Request, after: str = "") -> Response:
    """A room's page, at its code in capitals: a code written otherwise is sent there (308),
    so that a link typed in lower case reaches, behind nginx, the hall its room hashes to
    (docs/scaling.md) and the page's calls use the code as the hall writes it."""
    if code != code.upper():
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/r/{quote(code.upper(), safe='')}{after}{query}", status_code=308)
    return page(name)


@router.get("/r/{code}")
def room_page(code: str, request: Request) -> Response:
    return room_page_of("room", code, request)


@router.get("/r/{code}/replay")
def room_replay_page(code: str, request: Request) -> Response:
    return room_page_of("replay", code, request, "/replay")


@router.get("/r/{code}/analysis")
def room_analysis_page(code: str, request: Request) -> Response:
    return room_page_of("analysis", code, request, "/analysis")


@router.get("/replay")
def replay_page() -> Response:
    return page("replay")


@router.get("/games/{game_id}/rules")
def rules(game_id: str, hall: HallDep) -> Response:
    document = game_file(hall.games.get(game_id), game_id, "", "rules.html")
    if not isinstance(document, FileResponse):
        return document
    shell = (STATIC / "rules.html").read_text(encoding="utf-8")
    return HTMLResponse(rules_page(shell, hall.games[game_id], Path(document.path).read_text(encoding="utf-8")))


@router.get("/games/{game_id}/static/{path:path}")
def game_static(game_id: str, path: str, hall: HallDep) -> Response:
    return game_file(hall.games.get(game_id), game_id, "static", path)


def game_file(game: Game[Any] | None, game_id: str, under: str, relative: str) -> Response:
    """A file of the game's package folder ``under``, never one outside it."""
    if game is not None:
        folder = (game_folder(game) / under).resolve()
        path = (folder / relative).resolve()
        if path.is_relative_to(folder) and path.is_file():
            return FileResponse(path)
    return JSONResponse({"detail": f"game {game_id!r} has no file {relative!r}"}, status_code=404)


# The players' pages: one page, players.js shows what the address asks for.
for _path in ("/signin", "/me", "/players/{name}", "/leaderboard", "/leaderboard/{game}"):
    router.add_api_route(_path, lambda: FileResponse(STATIC / PAGES["players"], media_type="text/html"))
