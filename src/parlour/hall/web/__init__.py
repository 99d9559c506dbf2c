"""The hall on the web, and the only part of :mod:`parlour.hall` that imports FastAPI or Starlette
(an import contract in pyproject.toml keeps it so): the app's wiring (:mod:`.app`), what routes
depend on (:mod:`.deps`), refusals as HTTP (:mod:`.errors`), the models (:mod:`.schemas`), the
middleware (:mod:`.middleware`), one router per resource, the WebSocket (:mod:`.socket`) and the
JS client (``static/``).
"""

from .app import create_app

__all__ = ["create_app"]
