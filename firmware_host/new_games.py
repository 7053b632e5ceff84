"""New games: checked and started in memory, then recorded inside a command's transaction.

Shared by the games' and the tournaments' commands (a tournament's next game starts in the
transaction that ends the last one).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.errors import NotAllowed
from firmware_host.game_log import add_game
from firmware_host.games import BoxGame
from firmware_host.journal_rows import GameRow
from firmware_host.session_state import Live, Session

MAX_NAME_LENGTH = 40


@dataclass(frozen=True)
class NewGame:
    """A checked game, started in memory, not yet journaled."""

    box: BoxGame
    names: list[str]
    options: dict[str, Any]
    seed: int
    state: Any
    bots: tuple[str | None, ...]


def prepare(session: Session, game: str, players: list[str],
            options: Mapping[str, object] | None, seed: int | None,
            bots: Mapping[int, str] | None = None) -> NewGame:
    """Check a new game and start it in memory; nothing is written yet."""
    box = session.games.find(game)
    names = check_players(box, players)
    levels = check_bots(box, bots, len(names))
    if options is not None and not isinstance(options, Mapping):
        raise NotAllowed("options must be a mapping of option names to values")
    resolved = box.rules.resolve_options(options, len(names))
    if seed is None:
        seed = secrets.randbits(62)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise NotAllowed(f"a seed must be a whole number from 0 to 2^63−1, got {seed!r}")
    state = box.rules.start(names, resolved, seed=seed)
    return NewGame(box, names, dict(resolved), seed, state, levels)


def record(session: Session, new: NewGame, version: int, tournament: int | None) -> Live:
    """Write a prepared game inside the caller's transaction; returns it (not yet live)."""
    journal = session.journal
    created = journal.stamp()
    game_id = add_game(journal, new.box.id, new.options, new.names, new.seed, version,
                       tournament, created=created, bots=new.bots)
    row = GameRow(game_id, new.box.id, new.options, new.names, new.seed, created.at, None,
                  "active", None, tournament, version, bots=new.bots,
                  created_clock_set=created.clock_set)
    return Live(row, new.box, new.state, [], None, {}, hints_used=(0,) * len(new.names))


def levels(bots: tuple[str | None, ...]) -> dict[int, str]:
    """Seat → bot level, from a bot level (or ``None``) per seat."""
    return {seat: level for seat, level in enumerate(bots) if level is not None}


def check_bots(box: BoxGame, bots: object, seats: int) -> tuple[str | None, ...]:
    """Per seat, the level of the bot the box plays it with: ``bots`` maps seats to levels."""
    if bots is None or (isinstance(bots, Mapping) and not bots):
        return ()
    if not isinstance(bots, Mapping):
        raise NotAllowed("bots must map seat numbers to bot levels, e.g. {1: 'hard'}")
    if box.bots is None:
        raise NotAllowed(f"{box.rules.name} has no bots")
    found: list[str | None] = [None] * seats
    for seat, level in bots.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise NotAllowed(f"a bot's seat is a number from 0 to {seats - 1}, got {seat!r}")
        if level not in box.bots:
            raise NotAllowed(f"unknown bot level {level!r} (levels: {', '.join(box.bots)})")
        found[seat] = level
    return tuple(found)


def check_players(box: BoxGame, players: object) -> list[str]:
    """Player names: a list of distinct, non-empty, short texts, as many as the game takes."""
    rules = box.rules
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise NotAllowed("players must be a list of names")
    names = [p.strip() for p in players]
    if any(not name for name in names):
        raise NotAllowed("every player needs a name")
    long = [n for n in names if len(n) > MAX_NAME_LENGTH]
    if long:
        raise NotAllowed(f"the name {long[0][:20]!r}… is longer than {MAX_NAME_LENGTH} characters")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise NotAllowed(f"two players are called {twice!r}; give each a different name")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise NotAllowed(
            f"{rules.name} takes {rules.min_players}–{rules.max_players} players, "
            f"got {len(names)}"
        )
    return names
