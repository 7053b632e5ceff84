"""Hacktrick actions as small values with a text form that parses and prints back.

>>> str(Action.parse("play 3 x2 declare=guard"))
'play 3 x2 declare=guard'
>>> Action.parse("  PLAY 4  ")
Action(verb='play', card=4, x2=False, declare=None)
>>> Action.parse("draw declare=play").declare
'play'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.errors import IllegalAction
from rules.hacktrick.cards import VALUES

Verb = Literal["lead", "ask", "play", "draw"]
Declare = Literal["play", "guard"]

_FORMS = "lead N, ask, play N [x2] [declare=play|guard], draw [declare=play|guard]"


@dataclass(frozen=True)
class Action:
    """One action: ``lead N``, ``ask``, ``play N [x2] [declare=…]`` or ``draw [declare=…]``."""

    verb: Verb
    card: int | None = None
    x2: bool = False
    declare: Declare | None = None

    def __str__(self) -> str:
        parts: list[str] = [self.verb]
        if self.card is not None:
            parts.append(str(self.card))
        if self.x2:
            parts.append("x2")
        if self.declare is not None:
            parts.append(f"declare={self.declare}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse an action's text; raises :class:`rules.IllegalAction` on bad syntax."""
        if not isinstance(text, str):
            raise IllegalAction(f"an action is text ({_FORMS}), not {text!r}")
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction(f"empty action; the actions are: {_FORMS}")
        verb, rest = words[0], words[1:]
        if verb == "ask":
            if rest:
                raise IllegalAction(f"'ask' takes nothing after it, got {text.strip()!r}")
            return cls("ask")
        if verb == "lead":
            if len(rest) != 1:
                raise IllegalAction(f"write the lead as 'lead N' (N a card 0–5), got {text!r}")
            return cls("lead", _card(rest[0], text))
        if verb == "play":
            if not rest:
                raise IllegalAction(f"name the card to play: 'play N' (N 0–5), got {text!r}")
            card = _card(rest[0], text)
            rest = rest[1:]
            x2 = bool(rest) and rest[0] == "x2"
            if x2:
                rest = rest[1:]
            return cls("play", card, x2, _declare(rest, text))
        if verb == "draw":
            return cls("draw", declare=_declare(rest, text))
        raise IllegalAction(f"unknown action {text.strip()[:40]!r}; the actions are: {_FORMS}")


def _card(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or int(word) not in VALUES:
        raise IllegalAction(
            f"{word[:10]!r} is not a card: cards are 0–5 (in {text.strip()[:40]!r})"
        )
    return int(word)


def _declare(rest: list[str], text: str) -> Declare | None:
    if not rest:
        return None
    if len(rest) == 1 and rest[0] == "declare=play":
        return "play"
    if len(rest) == 1 and rest[0] == "declare=guard":
        return "guard"
    raise IllegalAction(
        f"cannot read {' '.join(rest)[:40]!r} in {text.strip()[:60]!r}: "
        "after the card come an optional 'x2' and an optional 'declare=play' or 'declare=guard'"
    )


def all_action_texts() -> list[str]:
    """Every well-formed action text (a few dozen), in canonical form."""
    texts = [f"lead {v}" for v in VALUES] + ["ask"]
    suffixes = ["", " declare=play", " declare=guard"]
    for v in VALUES:
        for marker in ("", " x2"):
            texts.extend(f"play {v}{marker}{s}" for s in suffixes)
    texts.extend(f"draw{s}" for s in suffixes)
    return texts
