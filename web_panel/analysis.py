"""An ended game's post-game analysis (issue 34), never before the game ends
(``firmware_host.game_analyses``; docs/session-api.md, docs/analysis.md):

- ``GET /api/games/<id>/analysis``: the analysis as JSON, with its ``headline`` and a line per
  player in the asker's language (what a phone's results show);
- the replay page's analysis section (:func:`replay_analysis`), and
  ``GET /games/<id>/replay/analysis``, that section alone: what the replay page asks again for
  while the analysis is being computed (202 with ``Retry-After``; 204 when there is none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, url_for

from firmware_host.session_api import AnalysisAnswer
from web_panel.analysis_view import shown, summary
from web_panel.errors import ApiError
from web_panel.i18n import current_language
from web_panel.panel_state import panel

bp = Blueprint("analysis", __name__)

#: How long a client waits before asking again for an analysis being computed (seconds).
RETRY_AFTER = 2


def _answer(game_id: int) -> AnalysisAnswer:
    """The session's answer, with a game still being played refused (409)."""
    answer = panel().session.analysis(game_id)
    if answer["status"] == "not_over":
        raise ApiError(409, "game_not_over",
                       f"Game {game_id} is still being played: its analysis comes once it ends.")
    return answer


@bp.get("/api/games/<int:game_id>/analysis")
def analysis(game_id: int) -> tuple[Response, int]:
    answer = _answer(game_id)
    status = answer["status"]
    if status == "unavailable":
        game = panel().session.summary(game_id)["game"]
        raise ApiError(404, "no_analysis", f"There is no analysis of {game} games yet.")
    if status == "pending":
        response = jsonify({"status": "pending", "game_id": game_id,
                            "progress": answer.get("progress", 0.0)})
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response, 202
    data = answer["analysis"] or {}
    players = panel().session.summary(game_id)["seats"]
    said = summary(data, current_language(), players=players) or {"headline": "", "lines": []}
    return jsonify({"status": "ready", "game_id": game_id, "analysis": data, **said}), 200


def replay_analysis(game_id: int, view: Mapping[str, Any]) -> dict[str, Any]:
    """What ``analysis.html`` needs on the replay page of the ended game ``game_id`` (``view``:
    its final view, for the seats' names and colours): the analysis shown, or its state."""
    answer = panel().session.analysis(game_id)
    url = url_for("analysis.replay_part", game_id=game_id)
    if answer["status"] == "pending":
        return {"analysis": None, "analysis_state": "pending", "analysis_url": url,
                "analysis_progress": round(100 * float(answer.get("progress", 0.0)))}
    if answer["status"] != "ready" or answer["analysis"] is None:
        return {"analysis": None, "analysis_state": "none", "analysis_url": url}
    found = shown(answer["analysis"], current_language(), players=view.get("seats") or (),
                  view=view,
                  step_url=lambda n: url_for("pages.replay", game_id=game_id, step=n))
    return {"analysis": found, "analysis_state": "ready" if found else "none",
            "analysis_url": url}


@bp.get("/games/<int:game_id>/replay/analysis")
def replay_part(game_id: int) -> Response:
    """The replay page's analysis section alone: 200 when ready, 202 (``Retry-After``) while
    it is being computed, 204 when the game has none; 409 while the game is played."""
    _answer(game_id)
    view = panel().session.view(game_id, None)
    values = replay_analysis(game_id, view)
    if values["analysis_state"] == "none":
        return Response(status=204)
    response = Response(render_template("analysis.html", **values), mimetype="text/html")
    if values["analysis_state"] == "pending":
        response.status_code = 202
        response.headers["Retry-After"] = str(RETRY_AFTER)
    return response
