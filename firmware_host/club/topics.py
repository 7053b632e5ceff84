"""The club's topic tree and its versioned payloads (docs/club.md, "Topics and payloads").

::

    club/v1/boxes/<box>/status          retained   the box is online (its Last Will says offline)
    club/v1/boxes/<box>/tables/<game>   retained   a live table's public summary; empty: gone
    club/v1/boxes/<box>/results         QoS 1      each ended game's public record, in order
    club/v1/acks/<box>                  retained   the hub's acknowledgement of the box's records
    club/v1/hub/info                    retained   where the league's pages are

A box may publish only under ``club/v1/boxes/<its name>/`` (the broker's ACL); the hub reads
the box's name from the topic, never from the payload, and refuses a payload naming another box.
Every payload is one JSON object with ``v`` (the schema's version, 1) and ``kind``; the decoders
here check every field and raise :class:`BadMessage` naming the first one that is wrong — the
hub logs it and drops the message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from firmware_host.config import LABEL

VERSION = 1
ROOT = f"club/v{VERSION}"
HUB_INFO = f"{ROOT}/hub/info"
#: What the hub subscribes to.
HUB_SUBSCRIPTIONS = (f"{ROOT}/boxes/+/status", f"{ROOT}/boxes/+/tables/+",
                     f"{ROOT}/boxes/+/results")
#: The largest payload the hub reads (a long game's record is a few tens of KiB).
MAX_PAYLOAD = 512 * 1024
#: A record's key: 24 hex digits, drawn by the box's journal.
KEY = re.compile(r"[0-9a-f]{24}", re.ASCII)
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}", re.ASCII)
MAX_PLAYERS = 16
MAX_ACTIONS = 20_000
MAX_TEXT = 200

TopicKind = Literal["status", "table", "results"]


class BadMessage(ValueError):
    """A message the hub does not accept; the text says which part is wrong."""


def status_topic(box: str) -> str:
    return f"{ROOT}/boxes/{box}/status"


def table_topic(box: str, game_id: int) -> str:
    return f"{ROOT}/boxes/{box}/tables/{game_id}"


def tables_filter(box: str) -> str:
    """Every live table of one box (a box reads its own retained tables back on connect)."""
    return f"{ROOT}/boxes/{box}/tables/+"


def results_topic(box: str) -> str:
    return f"{ROOT}/boxes/{box}/results"


def ack_topic(box: str) -> str:
    return f"{ROOT}/acks/{box}"


@dataclass(frozen=True)
class Topic:
    """Where a box's message came from."""

    box: str
    kind: TopicKind
    game_id: int | None = None


def parse_topic(topic: str) -> Topic:
    """The box and kind of a topic under ``club/v1/boxes/``.

    >>> parse_topic("club/v1/boxes/table-2/tables/7")
    Topic(box='table-2', kind='table', game_id=7)
    """
    parts = topic.split("/")
    if parts[:3] != ["club", f"v{VERSION}", "boxes"] or len(parts) < 5:
        raise BadMessage(f"topic {topic[:80]!r} is not a box's topic")
    box = parts[3]
    if not LABEL.fullmatch(box):
        raise BadMessage(f"topic {topic[:80]!r}: {box[:40]!r} is not a box name")
    if parts[4:] == ["status"]:
        return Topic(box, "status")
    if parts[4:] == ["results"]:
        return Topic(box, "results")
    if len(parts) == 6 and parts[4] == "tables" and parts[5].isascii() and parts[5].isdigit():
        return Topic(box, "table", int(parts[5]))
    raise BadMessage(f"topic {topic[:80]!r} is not one the hub reads")


# --- payloads ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoxStatus:
    box: str
    online: bool
    #: The box's panel for phones (its mDNS name where it has one).
    panel: str | None
    since: str


@dataclass(frozen=True)
class TableSummary:
    """A live table as everyone may see it (built from the spectator's view only)."""

    box: str
    game_id: int
    game: str
    status: str
    players: tuple[str, ...]
    turn: int | None
    to_act: tuple[int, ...]
    scores: tuple[float | None, ...] | None
    updated: str


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    scores: tuple[float | None, ...] | None
    reason: str


@dataclass(frozen=True)
class PlayedAction:
    n: int
    seat: int
    action: str


@dataclass(frozen=True)
class GameRecord:
    """An ended game's public record: what its replay shows, and the club codes its players
    entered (read by the hub alone)."""

    id: int
    game: str
    status: Literal["finished", "abandoned"]
    players: tuple[str, ...]
    options: Mapping[str, Any]
    created: str
    ended: str
    outcome: Outcome | None
    tournament: int | None
    club_codes: tuple[str | None, ...]
    #: Per seat, the level of the bot the box played it with (``None``: a person).
    bots: tuple[str | None, ...]
    #: The seats that competed for places (UNLOCK's Lock does not); the others are not rated.
    competitors: tuple[int, ...]
    actions: tuple[PlayedAction, ...]
    #: The game's post-game analysis as the box computed it (docs/analysis.md), when it was
    #: ready in time; ``None``: none sent (an optional field of version 1).
    analysis: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class ResultRecord:
    """One row of a box's outbox: a record, its key and the key of the box's record before."""

    box: str
    key: str
    prev: str | None
    seq: int
    game: GameRecord


@dataclass(frozen=True)
class Ack:
    """The hub holds the box's record ``key`` (and so every record before it)."""

    key: str
    seq: int


def encode(payload: Mapping[str, Any]) -> bytes:
    """A payload as the wire carries it: compact UTF-8 JSON."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def _document(data: bytes, kind: str) -> _Fields:
    if len(data) > MAX_PAYLOAD:
        raise BadMessage(f"payload of {len(data)} bytes is over {MAX_PAYLOAD}")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise BadMessage(f"payload is not UTF-8 JSON: {error}") from None
    fields = _Fields(document, "payload")
    version = fields.integer("v", 1)
    if version != VERSION:
        raise BadMessage(f"v: version {version} is not one this hub reads ({VERSION})")
    if fields.text("kind") != kind:
        raise BadMessage(f"kind: expected {kind!r}, got {document.get('kind')!r}")
    return fields


def _same_box(fields: _Fields, box: str) -> None:
    named = fields.text("box")
    if named != box:
        raise BadMessage(f"box: the payload names {named[:40]!r} but came from box {box!r}")


def decode_status(box: str, data: bytes) -> BoxStatus:
    fields = _document(data, "status")
    _same_box(fields, box)
    panel = fields.optional_text("panel")
    if panel is not None and not panel.startswith(("http://", "https://")):
        raise BadMessage("panel: expected an http:// or https:// address")
    return BoxStatus(box, fields.boolean("online"), panel, fields.text("since"))


def decode_table(box: str, game_id: int, data: bytes) -> TableSummary | None:
    """A live table's summary; ``None`` for an empty payload (the table is gone)."""
    if not data:
        return None
    fields = _document(data, "table")
    _same_box(fields, box)
    if fields.integer("game_id", 1) != game_id:
        raise BadMessage(f"game_id: the payload is not about table {game_id}")
    players = fields.names("players")
    scores = fields.get("scores")
    return TableSummary(
        box=box, game_id=game_id, game=fields.game_id("game"), status=fields.text("status"),
        players=players, turn=fields.optional_integer("turn"),
        to_act=tuple(fields.integers("to_act", -1, len(players) - 1)),
        scores=None if scores is None else _scores(scores, len(players), "scores"),
        updated=fields.text("updated"),
    )


def decode_result(box: str, data: bytes) -> ResultRecord:
    fields = _document(data, "result")
    _same_box(fields, box)
    prev = fields.get("prev")
    return ResultRecord(box=box, key=fields.key("key"),
                        prev=None if prev is None else fields.key("prev"),
                        seq=fields.integer("seq", 1), game=_game(fields.section("game")))


def decode_ack(data: bytes) -> Ack:
    fields = _document(data, "ack")
    return Ack(fields.key("key"), fields.integer("seq", 1))


def _game(fields: _Fields) -> GameRecord:
    players = fields.names("players")
    status = fields.text("status")
    if status not in ("finished", "abandoned"):
        raise BadMessage(f"game.status: expected finished or abandoned, got {status[:20]!r}")
    outcome_data = fields.get("outcome")
    outcome = None
    if status == "finished":
        if not isinstance(outcome_data, dict):
            raise BadMessage("game.outcome: a finished game has an outcome")
        outcome = _outcome(_Fields(outcome_data, "game.outcome"), len(players))
    codes = fields.get("club_codes")
    if not isinstance(codes, list) or len(codes) != len(players) or not all(
            c is None or (isinstance(c, str) and len(c) <= 16) for c in codes):
        raise BadMessage("game.club_codes: expected one code or null per player")
    bots = fields.get("bots")
    if bots is None:  # optional: a record without bot seats may leave it out
        bots = [None] * len(players)
    if not isinstance(bots, list) or len(bots) != len(players) or not all(
            b is None or (isinstance(b, str) and GAME_ID.fullmatch(b)) for b in bots):
        raise BadMessage("game.bots: expected one bot level (such as 'easy') or null per "
                         "player")
    competitors = (tuple(range(len(players))) if fields.get("competitors") is None
                   else tuple(fields.integers("competitors", 0, len(players) - 1)))
    if len(set(competitors)) != len(competitors):
        raise BadMessage("game.competitors: a seat is named twice")
    if outcome is not None and not set(outcome.winners) <= set(competitors):
        raise BadMessage("game.competitors: a winner is not among them")
    actions = fields.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise BadMessage(f"game.actions: expected a list of at most {MAX_ACTIONS} actions")
    played = []
    for index, item in enumerate(actions):
        action = _Fields(item, f"game.actions[{index}]")
        played.append(PlayedAction(action.integer("n", 1), action.integer("seat", -1),
                                   action.text("action")))
    options = fields.get("options")
    if not isinstance(options, dict):
        raise BadMessage("game.options: expected an object")
    analysis = fields.get("analysis")
    if analysis is not None and not (isinstance(analysis, dict) and isinstance(
            analysis.get("kind", "codes"), str)):
        raise BadMessage("game.analysis: expected an object (the game's analysis) or null")
    tournament = fields.optional_integer("tournament")
    return GameRecord(
        id=fields.integer("id", 1), game=fields.game_id("game"),
        status="finished" if status == "finished" else "abandoned", players=players,
        options=options, created=fields.text("created"), ended=fields.text("ended"),
        outcome=outcome, tournament=tournament, club_codes=tuple(codes), bots=tuple(bots),
        competitors=competitors, actions=tuple(played), analysis=analysis,
    )


def _outcome(fields: _Fields, seats: int) -> Outcome:
    winners = fields.integers("winners", 0, seats - 1)
    if len(set(winners)) != len(winners):
        raise BadMessage("game.outcome.winners: a seat is named twice")
    scores = fields.get("scores")
    return Outcome(tuple(winners),
                   None if scores is None else _scores(scores, seats, "game.outcome.scores"),
                   fields.text("reason"))


def _scores(value: object, seats: int, where: str) -> tuple[float | None, ...]:
    if not isinstance(value, list) or len(value) != seats or not all(
            v is None or (isinstance(v, int | float) and not isinstance(v, bool)
                          and abs(v) < 1e9) for v in value):
        raise BadMessage(f"{where}: expected one number (or null) per player")
    return tuple(value)


class _Fields:
    """Typed reads of one JSON object; a wrong field raises :class:`BadMessage` naming it."""

    def __init__(self, document: object, where: str) -> None:
        if not isinstance(document, dict):
            raise BadMessage(f"{where}: expected a JSON object")
        self.document: dict[str, Any] = document
        self.where = where

    def name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where != "payload" else key

    def get(self, key: str) -> Any:
        return self.document.get(key)

    def section(self, key: str) -> _Fields:
        return _Fields(self.document.get(key), self.name(key))

    def text(self, key: str, limit: int = MAX_TEXT) -> str:
        value = self.document.get(key)
        if not isinstance(value, str) or not value or len(value) > limit:
            raise BadMessage(f"{self.name(key)}: expected a text of 1–{limit} characters")
        return value

    def optional_text(self, key: str) -> str | None:
        return None if self.document.get(key) is None else self.text(key)

    def boolean(self, key: str) -> bool:
        value = self.document.get(key)
        if not isinstance(value, bool):
            raise BadMessage(f"{self.name(key)}: expected true or false")
        return value

    def integer(self, key: str, low: int, high: int = 2**53) -> int:
        value = self.document.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadMessage(f"{self.name(key)}: expected a whole number {low}–{high}")
        return value

    def optional_integer(self, key: str) -> int | None:
        return None if self.document.get(key) is None else self.integer(key, 0)

    def integers(self, key: str, low: int, high: int) -> list[int]:
        value = self.document.get(key)
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and low <= v <= high
                for v in value):
            raise BadMessage(f"{self.name(key)}: expected a list of seats {low}–{high}")
        return list(value)

    def names(self, key: str) -> tuple[str, ...]:
        value = self.document.get(key)
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS or not all(
                isinstance(v, str) and 0 < len(v) <= 40 for v in value):
            raise BadMessage(f"{self.name(key)}: expected 1–{MAX_PLAYERS} player names")
        if len(set(value)) != len(value):
            raise BadMessage(f"{self.name(key)}: a player's name is there twice")
        return tuple(value)

    def key(self, key: str) -> str:
        value = self.document.get(key)
        if not isinstance(value, str) or not KEY.fullmatch(value):
            raise BadMessage(f"{self.name(key)}: expected a record key (24 hex digits)")
        return value

    def game_id(self, key: str) -> str:
        value = self.document.get(key)
        if not isinstance(value, str) or not GAME_ID.fullmatch(value):
            raise BadMessage(f"{self.name(key)}: expected a game id such as 'unlock'")
        return value
