"""What the pad's lights show (docs/pad.md, "The lights"), worked out from what the pad is on.

- **Whose turn**: every key glows dimly in the colour of the seat the pad waits for (the
  panel's seat colours, :mod:`firmware_host.seat_colours`), OK brightly.
- **A game's own** (a pad controller's ``lights(state, table)``): UNLOCK's trail as a guesser
  draws it, the dots the level allows next, OK lit once the code can be sent.
- **The secret**: while the Lock draws it, the dots show how many have been drawn as a bar in
  reading order (1, then 1–2, …), never which; no dot is marked as allowed next, and a refusal
  flashes every key, not the one refused (it would give a used dot away).
- **A refusal** flashes the refused key red (:func:`flash_frame`), then the lights go back.
- **The results**: every key in the winner's colour (dark when nobody won).
- Dark on the start screen, in the games menu and while the box plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_host.seat_colours import rgb, seat_colour
from hardware.pad_lights import Colour, Frame
from hardware.pinmap import DOTS, KEYS, Key

#: A refusal's flash.
REFUSED: Colour = (255, 24, 0)
#: A dot the level allows next.
ALLOWED: Colour = (70, 70, 70)
#: How bright a key glows that only says whose turn it is, of its colour's full power.
GLOW = 0.22


@dataclass(frozen=True)
class Lighting:
    """A frame for the lights, and whether it is the secret's (a refusal then flashes every
    key)."""

    frame: Mapping[Key, Colour] = field(default_factory=dict)
    secret: bool = False


DARK = Lighting()


def dimmed(colour: Colour, level: float) -> Colour:
    """``colour`` at ``level`` (0–1) of its power."""
    r, g, b = colour
    return (round(r * level), round(g * level), round(b * level))


def colour_of(seat: int, view: Mapping[str, Any]) -> Colour:
    """The seat's colour on the lights (the colour the pages draw it in)."""
    return rgb(seat_colour(seat, view))


def whose_turn(seat: int, view: Mapping[str, Any]) -> Lighting:
    """Every key glowing in ``seat``'s colour, OK bright: the pad waits for that player."""
    colour = colour_of(seat, view)
    frame = {key: dimmed(colour, GLOW) for key in KEYS}
    frame["ok"] = colour
    return Lighting(frame)


def results(view: Mapping[str, Any]) -> Lighting:
    """An ended game: every key in the (first) winner's colour; dark without a winner."""
    winners = (view.get("outcome") or {}).get("winners") or []
    if not winners:
        return DARK
    return Lighting({key: colour_of(int(winners[0]), view) for key in KEYS})


def turn_of(view: Mapping[str, Any]) -> Lighting:
    """Any game: the results once it is over, else the one seat to act — or, while a die roll
    is due, the seat it is rolled for (the view's ``mover``); dark when several or none are."""
    if view.get("outcome"):
        return results(view)
    to_act = [int(seat) for seat in view.get("to_act") or []]
    seats = [seat for seat in to_act if seat >= 0]
    mover = view.get("mover")
    if to_act and not seats and isinstance(mover, int) and mover >= 0:
        return whose_turn(mover, view)
    return whose_turn(seats[0], view) if len(seats) == 1 and len(to_act) == 1 else DARK


def secret_progress(seat: int, drawn: int, view: Mapping[str, Any]) -> Lighting:
    """The Lock drawing the secret: ``drawn`` dots lit as a bar in reading order (positions
    never shown), OK bright once a code can be sent (two dots), Back glowing."""
    colour = colour_of(seat, view)
    frame: dict[Key, Colour] = {dot: colour for dot in DOTS[:drawn]}
    frame["ok"] = colour if drawn >= 2 else dimmed(colour, GLOW)
    frame["back"] = dimmed(colour, GLOW)
    return Lighting(frame, secret=True)


def trail(seat: int, dots: tuple[int, ...], allowed: set[int],
          view: Mapping[str, Any]) -> Lighting:
    """A guesser drawing a code: the trail in their colour (its last dot brightest), the dots
    the level allows next in white, OK bright once a code can be sent, Back glowing while
    there is something to take back."""
    colour = colour_of(seat, view)
    frame: dict[Key, Colour] = {dot: ALLOWED for dot in allowed}
    for index, dot in enumerate(dots):
        frame[dot] = colour if index == len(dots) - 1 else dimmed(colour, 0.55)
    frame["ok"] = colour if len(dots) >= 2 else dimmed(colour, GLOW)
    if dots:
        frame["back"] = dimmed(colour, GLOW)
    return Lighting(frame)


def flash_frame(lighting: Lighting, refused: Key | None) -> Frame:
    """The frame of a refusal's flash: the refused key red over the lighting (every key when
    the key is not one of the pad's, or while the secret is drawn)."""
    if refused is None or lighting.secret:
        return {key: REFUSED for key in KEYS}
    return {**lighting.frame, refused: REFUSED}
