"""The panel while the journal is damaged: every page says so and offers the newest sound backup.

``tabletop run`` serves this app in place of the panel once the journal is set aside
(``firmware_host/recovery.py``): every page answers 503 with the notice (what was found, where
the damaged file is kept, the backup's time, its games and what is lost since), every API call
a JSON ``journal_damaged`` error, and the host restores the backup (or, with none sound, starts
an empty journal) with the PIN. Nothing here reads the damaged journal.
"""

from __future__ import annotations

import io
import ipaddress
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Response, jsonify, render_template, request
from PIL import Image
from werkzeug.exceptions import HTTPException

from firmware_host.recovery import Damage
from web_panel.errors import ApiError
from web_panel.i18n import LANG_COOKIE, LANGUAGES, current_language, translate
from web_panel.panel_app import PanelFlask
from web_panel.panel_state import PinLimiter
from web_panel.security import install_csrf_guard, json_body, verify_pin

STATIC = Path(__file__).with_name("static")


def damage_notice(damage: Damage, lang: str) -> dict[str, str]:
    """The notice's sentences in ``lang``: what happened, what is kept, what can come back."""
    notice = {"problem": translate("journal_damaged_text", lang, problem=damage.problem)}
    if damage.aside is not None:
        notice["aside"] = translate("journal_kept_aside", lang, file=damage.aside.name)
    if damage.backup is not None:
        notice["offer"] = translate("journal_backup_offer", lang, taken=damage.taken(),
                                    games=damage.backup.games)
        notice["lost"] = (translate("journal_lost_games", lang, taken=damage.taken(),
                                    games=damage.lost_games)
                          if damage.lost_games else
                          translate("journal_lost_since", lang, taken=damage.taken()))
    else:
        notice["offer"] = translate("journal_no_backup", lang)
    return notice


def create_recovery_app(damage: Damage, *, pin: str, put_back: Callable[[], Any],
                        screen: Image.Image | None = None,
                        config: dict[str, Any] | None = None) -> PanelFlask:
    """The panel for a box whose journal is damaged; ``put_back()`` restores the backup (or
    makes room for an empty journal) and lets the box start again. ``screen``: what the
    simulated box's OLED shows, served to this computer only as ``/device/frame.png``."""
    app = PanelFlask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config.update(MAX_CONTENT_LENGTH=4 * 1024, **(config or {}))
    limiter = PinLimiter(5, 20, 60.0, app.config.get("CLOCK", time.monotonic))
    install_csrf_guard(app)
    done: list[bool] = []

    def answer(status: int, error: str, message: str) -> Response:
        if request.path.startswith("/api/") or request.method != "GET":
            response = jsonify({"error": error, "message": message,
                                "notice": damage_notice(damage, current_language())})
        else:
            lang = current_language()
            response = Response(render_template(
                "recovery.html", lang=lang, languages=LANGUAGES, t=translate,
                notice=damage_notice(damage, lang), has_backup=damage.backup is not None,
                restored=bool(done), status=status), mimetype="text/html")
        response.status_code = status
        response.headers["Retry-After"] = "30"
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.errorhandler(ApiError)
    def _refused(exc: ApiError) -> Response:
        response = jsonify({"error": exc.error, "message": translate(
            "error." + exc.error, current_language(), default=exc.message)})
        response.status_code = exc.status
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        if exc.code == 404 or exc.code == 405:  # every page answers with the notice
            return answer(503, "journal_damaged", translate("error.journal_damaged",
                                                             current_language()))
        response = jsonify({"error": (exc.name or "error").lower().replace(" ", "_"),
                            "message": exc.description or ""})
        response.status_code = exc.code or 400
        return response

    @app.get("/lang/<code>")
    def _language(code: str) -> Response:
        response = answer(503, "journal_damaged", "")
        if code in LANGUAGES:
            response = Response(status=303, headers={"Location": "/"})
            response.set_cookie(LANG_COOKIE, code, samesite="Strict", max_age=365 * 86400)
        return response

    if screen is not None:
        frame = io.BytesIO()
        screen.convert("1").save(frame, "PNG")

        @app.get("/device/frame.png")
        def _frame() -> Response:
            if not ipaddress.ip_address(request.remote_addr or "0.0.0.0").is_loopback:
                raise ApiError(403, "host_only", "The simulated screen is for this computer.")
            return Response(frame.getvalue(), mimetype="image/png")

    @app.post("/api/journal/restore")
    def _restore() -> Response:
        verify_pin(json_body().get("pin"), pin, limiter)
        if not done:
            done.append(True)
            put_back()
        return jsonify({"restored": damage.backup is not None,
                        "message": translate("journal_restored" if damage.backup is not None
                                             else "journal_started_empty",
                                             current_language())})

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
        return response

    return app
