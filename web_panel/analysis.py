"""``GET /api/games/<id>/analysis``: an ended game's post-game analysis (issue 34), never
before the game ends (``firmware_host.game_analyses``; docs/session-api.md)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web_panel.errors import ApiError
from web_panel.panel_state import panel

bp = Blueprint("analysis", __name__)

#: How long a client waits before asking again for an analysis being computed (seconds).
RETRY_AFTER = 2


@bp.get("/api/games/<int:game_id>/analysis")
def analysis(game_id: int) -> tuple[Response, int]:
    answer = panel().session.analysis(game_id)
    status = answer["status"]
    if status == "not_over":
        raise ApiError(409, "game_not_over",
                       f"Game {game_id} is still being played: its analysis comes once it ends.")
    if status == "unavailable":
        game = panel().session.summary(game_id)["game"]
        raise ApiError(404, "no_analysis", f"There is no analysis of {game} games yet.")
    if status == "pending":
        response = jsonify({"status": "pending", "game_id": game_id,
                            "progress": answer.get("progress", 0.0)})
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response, 202
    return jsonify({"status": "ready", "game_id": game_id, "analysis": answer["analysis"]}), 200
