"""``/device``: the simulated box in a browser — the live OLED image, the colour TFT the table
reads, the pad (its lights too), OK/Back and a die.

Only in simulator mode (404 otherwise), and only for the host: the box's screen shows the host
PIN and the hands of Hacktrick's virtual cards, and its buttons play any seat and set the
Lock's secret. The buttons drive the simulator, which drives gpiozero's mock pins and the serial
loop, so the real driver path runs; the requests are CSRF-guarded like every POST.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, url_for

from firmware_host.pad.inputs import KEYPAD_LAYOUT
from firmware_host.simulator import Simulator, smart_faces
from web_panel.errors import ApiError
from web_panel.panel_state import panel
from web_panel.security import is_host, json_body, require_host

bp = Blueprint("device", __name__)

#: How long an input waits for the pad to handle it and redraw before answering.
SETTLE_TIMEOUT = 2.0
KINDS = ("tap", "press", "release", "ok", "back", "menu", "hold_ok", "roll", "key",
         "smart_roll")
#: The serial keypad's keys row by row, as on the table (a 4×4 UNLOCK code is drawn on them).
KEYPAD = tuple("".join(KEYPAD_LAYOUT))


def _simulator() -> Simulator:
    simulator = panel().simulator
    if simulator is None:
        raise ApiError(404, "no_simulator", "There is no simulated device: this box has real "
                                            "hardware.")
    require_host()
    return simulator


def _dot(body: dict[str, Any], grid: int) -> int:
    dot = body.get("dot")
    if isinstance(dot, bool) or not isinstance(dot, int) or not 1 <= dot <= grid:
        raise ApiError(400, "bad_dot", f"dot must be a number from 1 to {grid}, not {dot!r}.")
    return dot


@bp.get("/device")
def page() -> Response | str:
    if panel().simulator is not None and not is_host():
        response = redirect(url_for("host.dashboard", next="/device"), code=303)
        return response  # type: ignore[return-value]
    simulator = _simulator()
    state = panel()
    smart = ([{"address": d.address, "name": d.name, "faces": smart_faces(d)}
              for d in simulator.smart_dice()] if state.dice is not None else [])
    return render_template("device.html", dots=9, keypad=KEYPAD,
                           frame_version=simulator.frame_version(), lights=simulator.lights(),
                           tft_version=simulator.tft_version(), smart_dice=smart)


@bp.get("/device/frame.png")
def frame() -> Response:
    response = Response(_simulator().frame_png(), mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/device/tft.png")
def tft() -> Response:
    png = _simulator().tft_png()
    if png is None:
        raise ApiError(404, "no_tft_frame", "The colour display has drawn nothing yet.")
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/device/state")
def state() -> Response:
    simulator = _simulator()
    return jsonify({"frame_version": simulator.frame_version(), "lights": simulator.lights(),
                    "tft_version": simulator.tft_version()})


@bp.post("/device/input")
def press() -> Response:
    simulator = _simulator()
    body = json_body()
    kind = body.get("kind")
    if kind not in KINDS:
        raise ApiError(400, "bad_input", f"kind must be one of {', '.join(KINDS)}, not {kind!r}.")
    grid = 16
    if kind in ("tap", "press", "release"):
        dot = _dot(body, grid)
        {"tap": simulator.tap, "press": simulator.press, "release": simulator.release}[kind](dot)
    elif kind == "roll":
        value = body.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= 20):
            raise ApiError(400, "bad_roll", f"value must be a die face 1–20, not {value!r}.")
        simulator.roll(value)
    elif kind == "smart_roll":
        address = body.get("address")
        if not isinstance(address, str) or len(address) > 64:
            raise ApiError(400, "bad_die", f"address must be a simulated smart die's, not "
                                           f"{address!r}.")
        simulator.roll_smart_die(address)
    elif kind == "key":
        key = body.get("key")
        if key not in KEYPAD:
            raise ApiError(400, "bad_key", f"key must be one of {' '.join(KEYPAD)}, not {key!r}.")
        simulator.key(key)
    elif kind == "ok":
        simulator.ok()
    elif kind == "menu":  # Back held: the games menu
        simulator.hold_back()
    elif kind == "hold_ok":  # OK held: UNLOCK's hint
        simulator.hold_ok()
    else:
        simulator.back()
    simulator.settle(SETTLE_TIMEOUT)  # answer with the frame the input led to
    return jsonify({"frame_version": simulator.frame_version(), "lights": simulator.lights(),
                    "tft_version": simulator.tft_version()})
