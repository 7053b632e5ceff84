"""The phones' web panel: pages, JSON API and live updates over the daemon's session API.

>>> from web_panel import create_app  # doctest: +SKIP
>>> app = create_app(session, simulator=None)  # served by waitress, never the dev server
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flask import Flask, Response
from jinja2 import FileSystemBytecodeCache

from firmware_host.session_api import SessionApi
from firmware_host.simulator import Simulator
from web_panel.games import PanelGames, builtin_panel_games
from web_panel.panel_state import EXTENSION, make_state
from web_panel.serving import RECOMMENDED_THREADS, WAITRESS_SETTINGS

if TYPE_CHECKING:
    from firmware_host.smart_dice import SmartDice
    from web_panel.club import ClubPanel

def create_app(
    session: SessionApi,
    *,
    simulator: Simulator | None = None,
    games: PanelGames | None = None,
    config: Mapping[str, Any] | None = None,
    club: ClubPanel | None = None,
    dice: SmartDice | None = None,
) -> Flask:
    """The panel for ``session`` (the session API); ``simulator`` adds the ``/device`` page;
    ``dice`` (the box's smart dice) the host page's pairing (docs/dice.md);
    ``games`` are the games' panel registrations (default: the built-in ones); ``club`` adds
    club mode's pages (``web_panel/club.py``; without it nothing of club mode is loaded).

    ``config`` may set ``PUBLIC_URL`` (the address the join QR encodes), ``MAX_STREAMS`` (live
    pages held at once: keep it below waitress's threads, default 64), ``SSE_KEEPALIVE``
    (seconds between keep-alive comments), ``SSE_LIFETIME`` (seconds a live stream lasts before
    the phone reconnects and resumes), ``PIN_TRIES`` and ``PIN_WINDOW`` (the host PIN's rate
    limit), ``HANDOVER_LIFETIME`` and ``CLOCK`` (tests).
    """
    from web_panel import analysis, api, device, events, host, host_dice, pages, table
    from web_panel.errors import register_error_handlers
    from web_panel.panel_app import PanelFlask
    from web_panel.rendering import install_template_helpers
    from web_panel.security import install_csrf_guard

    app = PanelFlask(__name__)
    # Scripts and styles are asked for with their content's hash (``asset_url``): a phone keeps
    # them a day and never asks again until they change.
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=64 * 1024,
                      SEND_FILE_MAX_AGE_DEFAULT=86400)
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    if app.config.get("TEMPLATE_BYTECODE_CACHE", True):
        # Compiled templates survive restarts (a Pi Zero takes seconds to compile them all):
        # Jinja's per-user cache directory, checked against each template's source.
        app.jinja_env.bytecode_cache = FileSystemBytecodeCache()
    registrations = games if games is not None else builtin_panel_games()
    app.extensions[EXTENSION] = make_state(session, registrations, simulator, app.config,
                                           dice=dice)

    install_csrf_guard(app)
    register_error_handlers(app)
    install_template_helpers(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(analysis.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(host.bp)
    app.register_blueprint(host_dice.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(device.bp)
    if club is not None:
        from web_panel import club as club_pages

        club_pages.install(app, club)

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "frame-ancestors 'none'",
        )
        if response.mimetype == "text/html":
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app


def close_app(app: Flask) -> None:
    """End the app's live streams (call before stopping the server)."""
    state = app.extensions[EXTENSION]
    state.closing.set()
    state.live.close()


__all__ = ["RECOMMENDED_THREADS", "WAITRESS_SETTINGS", "close_app", "create_app"]
