"""The host's smart dice (docs/dice.md): scan for GoDice and Pixels dice nearby, pair each
with a seat or the table, move it to another seat, unpair it — JSON routes under
``/api/host/dice``, for the host only; the host page's "Smart dice" card uses them.

A box without Bluetooth (or with ``[dice] enabled = false``) has none: every route answers 404
``no_smart_dice`` in words.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from firmware_host.smart_dice import SmartDice
from web_panel.errors import ApiError
from web_panel.panel_state import panel
from web_panel.security import json_body, require_host

bp = Blueprint("dice", __name__)

#: A Bluetooth address (or a macOS UUID) is shorter than this.
MAX_ADDRESS = 64


def _dice() -> SmartDice:
    require_host()
    dice = panel().dice
    if dice is None:
        raise ApiError(404, "no_smart_dice", "This box has no smart dice: it has no Bluetooth, "
                                             "or [dice] is turned off in its config.")
    return dice


def _answer(dice: SmartDice) -> Response:
    return jsonify({"dice": dice.rows(), "game": dice.game(), "problem": dice.problem,
                    "scanning": dice.scanning,
                    "battery_warning": dice.config.battery_warning})


def _address(body: dict[str, Any]) -> str:
    address = body.get("address")
    if not isinstance(address, str) or not address or len(address) > MAX_ADDRESS:
        raise ApiError(400, "malformed", "address must be a die's Bluetooth address, as the "
                                         "scan listed it.")
    return address


def _whole_or_null(body: dict[str, Any], key: str, what: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, "malformed", f"{key} must be {what}.")
    return value


@bp.get("/api/host/dice")
def listing() -> Response:
    """The paired dice (owner, connection, battery), those heard in the last scan, and the
    pad's game the dice roll for."""
    return _answer(_dice())


@bp.post("/api/host/dice/scan")
def scan() -> Response:
    """Listen for dice nearby (a few seconds), then answer as :func:`listing`."""
    dice = _dice()
    dice.scan()
    return _answer(dice)


@bp.post("/api/host/dice/pair")
def pair() -> Response:
    """Pair a die heard in the scan, or give a paired one to another owner:
    ``{"address": ..., "owner": 0}`` (a seat from 0; ``null``: the table), and for a GoDice
    ``"faces"``, the shell it wears (4, 6, 8, 12 or 20; default 6)."""
    dice = _dice()
    body = json_body()
    address = _address(body)
    owner = _whole_or_null(body, "owner", "a seat number (from 0) or null for the table")
    faces = _whole_or_null(body, "faces", "the number of faces of the die's shell")
    dice.pair(address, owner, faces)
    return _answer(dice)


@bp.post("/api/host/dice/unpair")
def unpair() -> Response:
    """Forget a paired die (``{"address": ...}``): the box disconnects it."""
    dice = _dice()
    dice.unpair(_address(json_body()))
    return _answer(dice)
