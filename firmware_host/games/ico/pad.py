"""ICO on the pad: dots 1, 2, 3 (or 4, 5, 6) choose the active face's first, second or third
edge; legal ones are marked on the OLED. A placement on an edge the balance rules forbid is
refused at once, naming the rule and the buttons of the edges that are allowed; a placement
(and in a move-only turn the roll) goes to the rules. With manual claims, OK rolls after a
placement and Back claims a win. Any other input is refused in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

import firmware_host.games.ico.screens as screens
from firmware_host.pad.inputs import Input, as_dot
from firmware_host.pad.steps import Act, PadEvent, Step, Table


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
            return Step(None, refusal=table.unused(event))
        phase = view.get("phase")
        if event.kind == "dot" and event.value is not None and 1 <= event.value <= 6:
            if phase == "roll":
                return Step(None, refusal=table.say("roll_now"))
            edges = screens.face_edges(view)
            button = (event.value - 1) % 3 + 1
            edge = str(edges[button - 1]["id"])
            refusal = _forbidden(view, edges, button, table) if phase == "place" else None
            if refusal is not None:
                return Step(None, refusal=refusal)
            verb = "place" if phase == "place" else "roll"
            return Step(None, (Act(int(mover), f"{verb} {edge}"),))
        if event.kind == "ok" and phase == "roll":
            return Step(None, (Act(int(mover), f"roll {view['placed']}"),))
        if event.kind == "back" and view.get("can_claim"):
            return Step(None, (Act(int(mover), "claim"),))
        if event.kind == "back":
            return Step(None, refusal=table.say("no_claim"))
        if event.kind == "ok" and phase == "move":
            return Step(None, refusal=table.say("no_place", rule=_rule(view, table)))
        if event.kind == "ok":
            return Step(None, refusal=table.say("edge_keys"))
        return Step(None, refusal=table.unused(event))

    def screen(self, state: None, table: Table) -> Image.Image:
        view = table.view()
        phase = str(view.get("phase"))
        prompt = table.say(f"prompt.{phase}") if f"prompt.{phase}" in table.words else ""
        return screens.board_screen(view, prompt=prompt, lang=table.lang)


def _rule(view: Mapping[str, Any], table: Table) -> str:
    """The balance rule deciding this turn, in the OLED's words."""
    rule = f"rule.{view.get('balance_rule')}"
    return table.say(rule) if rule in table.words else str(view.get("balance_rule") or "")


def _forbidden(view: Mapping[str, Any], edges: Sequence[Mapping[str, Any]], button: int,
               table: Table) -> str | None:
    """Why the balance rules forbid the edge under ``button`` (None when they allow it),
    naming the buttons of the edges they allow."""
    legal_ids = {str(e) for e in view.get("legal_edges") or []}
    if str(edges[button - 1]["id"]) in legal_ids:
        return None
    buttons = [str(n) for n, e in enumerate(edges, start=1) if str(e["id"]) in legal_ids]
    if not buttons:
        return table.say("no_place", rule=_rule(view, table))
    legal = buttons[0] if len(buttons) == 1 else table.say("edge_or", a=buttons[0], b=buttons[1])
    return table.say("edge_forbidden", rule=_rule(view, table), button=button, legal=legal)
