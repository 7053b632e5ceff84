"""ICO on the pad: dots 1, 2, 3 (or 4, 5, 6) choose the active face's first, second or third
edge; legal ones are marked on the OLED. The placement (and in a move-only turn the roll) goes
to the rules, which refuse an edge the balance rules forbid with their reason. With manual
claims, OK rolls after a placement and Back claims a win.
"""

from __future__ import annotations

from PIL import Image

from firmware_host.pad.controller import Controller
from firmware_host.pad.inputs import Input, as_dot
from firmware_host.screens import ico as screens

PROMPTS = {"place": "1-3 place", "move": "1-3 roll", "roll": "OK roll"}


class IcoPad(Controller):
    """The ICO pad state machine (see the module docstring)."""

    def on_input(self, event: Input) -> None:
        event = as_dot(event)
        view = self.view()
        mover = view.get("mover")
        if view.get("outcome") or mover is None:
            return
        phase = view.get("phase")
        if event.kind == "dot" and event.value is not None and 1 <= event.value <= 6:
            edges = screens.face_edges(view)
            edge = str(edges[(event.value - 1) % 3]["id"])
            self.act(int(mover), f"{'place' if phase == 'place' else 'roll'} {edge}")
        elif event.kind == "ok" and phase == "roll":
            self.act(int(mover), f"roll {view['placed']}")
        elif event.kind == "back" and view.get("can_claim"):
            self.act(int(mover), "claim")

    def draw(self) -> Image.Image:
        view = self.view()
        return screens.board_screen(view, prompt=PROMPTS.get(str(view.get("phase")), ""))
