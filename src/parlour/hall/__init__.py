"""The hall: the web server where people meet and play (lobby, rooms, live play, persistence).

``create_app(store, games, clock)`` builds the application; ``parlour serve`` runs it.
"""

from .web import create_app

__all__ = ["create_app"]
