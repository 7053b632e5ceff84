"""ICO on the pad: dots 1, 2, 3 (or 4, 5, 6) choose the active face's first, second or third
edge; legal ones are marked on the OLED. The placement (and in a move-only turn the roll) goes
to the rules, which refuse an edge the balance rules forbid with their reason. With manual
claims, OK rolls after a placement and Back claims a win.
"""

from __future__ import annotations

from PIL import Image

from firmware_host.games.ico import screens
from firmware_host.pad.inputs import Input, as_dot
from firmware_host.pad.steps import Act, PadEvent, Step, Table

PROMPTS = {"place": "1-3 place", "move": "1-3 roll", "roll": "OK roll"}


class IcoPad:
    """The ICO pad (see the module docstring) as pure steps; it keeps no state of its own."""

    def start(self, table: Table) -> None:
        return None

    def final_screen_shown(self, state: None, table: Table) -> bool:
        return True

    def step(self, state: None, event: PadEvent, table: Table) -> Step[None]:
        if not isinstance(event, Input):
            return Step(None)
        event = as_dot(event)
        view = table.view()
        mover = view.get("mover")
        if view.get("outcome") or mover is None:
            return Step(None)
        phase = view.get("phase")
        if event.kind == "dot" and event.value is not None and 1 <= event.value <= 6:
            edges = screens.face_edges(view)
            edge = str(edges[(event.value - 1) % 3]["id"])
            verb = "place" if phase == "place" else "roll"
            return Step(None, (Act(int(mover), f"{verb} {edge}"),))
        if event.kind == "ok" and phase == "roll":
            return Step(None, (Act(int(mover), f"roll {view['placed']}"),))
        if event.kind == "back" and view.get("can_claim"):
            return Step(None, (Act(int(mover), "claim"),))
        return Step(None)

    def screen(self, state: None, table: Table) -> Image.Image:
        view = table.view()
        return screens.board_screen(view, prompt=PROMPTS.get(str(view.get("phase")), ""))
