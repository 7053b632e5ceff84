"""The box's side of club mode: its live tables and its outbox, published to the club's broker.

The session thread never waits for the network: its listener only marks the game that changed
and wakes this module's thread, which reads the spectator's view (the read side) and the
journal's outbox (its own read-only connection) and hands messages to paho, whose own thread
talks to the broker. Records go out in the outbox's order on one topic at QoS 1; a record stays
in the outbox until the hub acknowledges it (``club/v1/acks/<box>``) — not merely the broker — and
records not acknowledged within ``resend_seconds`` are sent again (the hub ignores a record it
has). So Wi-Fi, the broker or the hub can be away for any time: nothing recorded meanwhile is
lost, and nothing counts twice.

A record carries its game's post-game analysis (docs/analysis.md) when the box has it: a game
whose analysis is still being computed holds its record, and the ones after it, until the
analysis is kept or :data:`ANALYSIS_WAIT` seconds have passed (then it goes without).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from firmware_host.club import outbox
from firmware_host.club.connection import Endpoint, connect, make_client, refused
from firmware_host.club.topics import (
    HUB_INFO,
    MAX_PAYLOAD,
    VERSION,
    BadMessage,
    ack_topic,
    decode_ack,
    encode,
    parse_topic,
    results_topic,
    status_topic,
    table_topic,
    tables_filter,
)
from firmware_host.errors import JournalError, SessionError
from firmware_host.journal_schema import read_only
from firmware_host.session_api import AnalysisAnswer, GameStatus, GameSummary, Listener, View

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from firmware_host.games import Registry

log = logging.getLogger(__name__)

#: Records handed to paho at once (the rest follow as acknowledgements come).
BATCH = 200
#: How long a record waits for its game's analysis being computed (seconds).
ANALYSIS_WAIT = 30.0
#: A record waiting for its analysis (:meth:`Publisher._analysis_of`).
_HOLD = object()


class ClubSession(Protocol):
    """What the publisher needs of the companion."""

    def summary(self, game_id: int) -> GameSummary: ...
    def view(self, game_id: int, seat: int | None) -> View: ...
    def games(self, status: GameStatus | None = None) -> list[GameSummary]: ...
    def add_listener(self, listener: Listener) -> None: ...
    def club_delivered(self, through_seq: int) -> int: ...
    def analysis(self, game_id: int) -> AnalysisAnswer: ...

    @property
    def registry(self) -> Registry:
        """The box's games (which seats of a game compete, for the records)."""


class ClubStatus(TypedDict):
    """The club connection as the box's host page shows it."""

    box: str
    broker: str | None
    connected: bool
    waiting: int
    league: str | None


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Publisher:
    """See the module docstring. ``endpoint`` finds the broker (it may look it up by mDNS and
    answer ``None`` while it is not found); ``panel_url`` is the box's address for phones."""

    def __init__(self, session: ClubSession, journal_path: Path, box: str,
                 endpoint: Callable[[], Endpoint | None], *, retry_seconds: int = 10,
                 resend_seconds: int = 30,
                 panel_url: Callable[[], str | None] | None = None) -> None:
        self.session = session
        self.journal_path = journal_path
        self.box = box
        self.retry_seconds = retry_seconds
        self.resend_seconds = resend_seconds
        self._find = endpoint
        self._panel_url = panel_url
        self._wake = threading.Condition()
        self._dirty: set[int] = set()
        self._acks: list[bytes] = []
        self._stale: set[int] = set()
        self._just_connected = False
        self._connected = False
        self._closed = False
        self._client: mqtt.Client | None = None
        self._endpoint: Endpoint | None = None
        self._sent_through = 0
        self._resend_at = 0.0
        self._waiting = 0
        self._league: str | None = None
        #: Outbox rows waiting for their game's analysis → since when (monotonic).
        self._held: dict[int, float] = {}
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)

    def start(self) -> None:
        """Listen to the session and start the thread."""
        self.session.add_listener(self._changed)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Say goodbye to the broker (the box is offline) and stop (idempotent)."""
        with self._wake:
            if self._closed:
                return
            self._closed = True
            self._wake.notify_all()
        self._thread.join(timeout)
        client = self._client
        if client is not None:
            if self._connected:
                info = client.publish(status_topic(self.box), self._status(False), qos=1,
                                      retain=True)
                with contextlib.suppress(RuntimeError, ValueError):
                    info.wait_for_publish(2.0)
            client.disconnect()
            client.loop_stop()

    def status(self) -> ClubStatus:
        endpoint = self._endpoint
        return {"box": self.box, "connected": self._connected, "waiting": self._waiting,
                "broker": f"{endpoint.host}:{endpoint.port}" if endpoint else None,
                "league": self._league}

    # --- any thread -----------------------------------------------------------------------
    def _changed(self, game_id: int | None, version: int) -> None:
        """The session's listener (on the session thread): mark and wake, nothing more."""
        with self._wake:
            if game_id is not None:
                self._dirty.add(game_id)
            self._wake.notify_all()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        problem = refused(reason)
        if problem is not None:
            log.error("club: the broker refused box %s: %s", self.box, problem)
            return
        from paho.mqtt.subscribeoptions import SubscribeOptions

        client.subscribe([(ack_topic(self.box), SubscribeOptions(qos=1)),
                          (HUB_INFO, SubscribeOptions(qos=1)),
                          (tables_filter(self.box), SubscribeOptions(qos=1, noLocal=True))])
        with self._wake:
            self._connected = self._just_connected = True
            self._wake.notify_all()
        log.info("club: box %s connected to the broker", self.box)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        with self._wake:
            self._connected = False
        if not self._closed:
            log.warning("club: box %s lost the broker (%s); results wait in the journal",
                        self.box, reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._wake:
            if message.topic == ack_topic(self.box):
                self._acks.append(bytes(message.payload))
            elif message.topic == HUB_INFO:
                self._hub_info(bytes(message.payload))
            else:
                try:
                    where = parse_topic(message.topic)
                except BadMessage:
                    return
                if where.kind == "table" and where.game_id is not None and message.payload:
                    self._stale.add(where.game_id)
            self._wake.notify_all()

    def _hub_info(self, payload: bytes) -> None:
        import json

        try:
            info = json.loads(payload)
            league = info.get("league") if isinstance(info, dict) else None
            self._league = league if isinstance(league, str) and league.startswith(
                ("http://", "https://")) and len(league) < 300 else None
        except (ValueError, UnicodeDecodeError):
            self._league = None

    # --- the publisher's thread -----------------------------------------------------------
    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        try:
            while not self._closed:
                if self._client is None and not self._open():
                    with self._wake:
                        self._wake.wait_for(lambda: self._closed, self.retry_seconds)
                    continue
                with self._wake:
                    # a record waiting for its analysis is looked at again sooner
                    self._wake.wait_for(self._has_work, timeout=0.2 if self._held else 1.0)
                    if self._closed:
                        break
                    connected, fresh = self._connected, self._just_connected
                    self._just_connected = False
                    dirty, self._dirty = self._dirty, set()
                    acks, self._acks = self._acks, []
                    stale, self._stale = self._stale, set()
                if db is None:
                    db = read_only(self.journal_path)
                self._take_acks(db, acks)
                if not connected:
                    self._count_waiting(db)
                    continue
                if fresh:
                    self._greet()
                    dirty |= {g["id"] for g in self.session.games(status="active")}
                    self._sent_through = 0
                self._publish_tables(dirty | stale)
                self._publish_results(db)
        except (sqlite3.Error, JournalError) as error:
            log.error("club: the outbox cannot be read (%s); club publishing stops", error)
        except Exception:
            log.exception("club: the publisher stopped")
        finally:
            if db is not None:
                db.close()

    def _has_work(self) -> bool:
        return (self._closed or self._just_connected or bool(self._dirty) or bool(self._acks)
                or bool(self._stale) or (self._connected and time.monotonic() >= self._resend_at
                                         and self._waiting > 0))

    def _open(self) -> bool:
        """Find the broker and start connecting; ``False`` while it cannot be found."""
        try:
            endpoint = self._find()
        except Exception as error:  # a lookup that fails is tried again later
            log.warning("club: looking for the hub failed: %s", error)
            endpoint = None
        if endpoint is None:
            log.info("club: the hub's broker is not found yet; trying again in %d s",
                     self.retry_seconds)
            return False
        self._endpoint = endpoint
        client = make_client(f"tabletop-box-{self.box}", endpoint,
                             retry_seconds=self.retry_seconds,
                             will=(status_topic(self.box), self._status(False)))
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        connect(client, endpoint)
        log.info("club: box %s connecting to %s:%d", self.box, endpoint.host, endpoint.port)
        return True

    def _status(self, online: bool) -> bytes:
        panel = self._panel_url() if self._panel_url is not None else None
        return encode({"v": VERSION, "kind": "status", "box": self.box, "online": online,
                       "panel": panel, "since": utc_now()})

    def _greet(self) -> None:
        assert self._client is not None
        self._client.publish(status_topic(self.box), self._status(True), qos=1, retain=True)

    def _take_acks(self, db: sqlite3.Connection, acks: list[bytes]) -> None:
        through = 0
        for payload in acks:
            try:
                ack = decode_ack(payload)
            except BadMessage as bad:
                log.warning("club: an acknowledgement was not valid: %s", bad)
                continue
            row = outbox.row_of(db, ack.key)
            if row is None:
                log.info("club: the hub acknowledged a record this journal does not have "
                         "(restored from a backup?)")
                continue
            through = max(through, row.seq)
        if through:
            try:
                marked = self.session.club_delivered(through)
            except SessionError as error:  # a full disk: the acknowledgement comes again
                log.warning("club: cannot mark records delivered: %s", error)
                return
            if marked:
                log.info("club: the hub has this box's records up to %d", through)
            self._resend_at = time.monotonic() + self.resend_seconds
        self._count_waiting(db)

    def _count_waiting(self, db: sqlite3.Connection) -> None:
        self._waiting = int(db.execute(
            "SELECT COUNT(*) FROM club_outbox WHERE delivered IS NULL").fetchone()[0])

    def _publish_tables(self, game_ids: set[int]) -> None:
        assert self._client is not None
        for game_id in sorted(game_ids):
            try:
                summary = self.session.summary(game_id)
                payload = (encode(outbox.table_payload(
                    self.box, summary, self.session.view(game_id, None), utc_now()))
                    if summary["status"] == "active" else b"")
            except SessionError:
                payload = b""
            self._client.publish(table_topic(self.box, game_id), payload, qos=1, retain=True)

    def _publish_results(self, db: sqlite3.Connection) -> None:
        """New outbox rows; and, when the hub has not answered for ``resend_seconds``,
        every row it has not acknowledged, again."""
        assert self._client is not None
        now = time.monotonic()
        if self._waiting and now >= self._resend_at and self._sent_through:
            log.info("club: %d records not acknowledged yet; sending them again",
                     self._waiting)
            self._sent_through = 0
        rows = outbox.undelivered(db, after=self._sent_through, limit=BATCH)
        sent = False
        for row in rows:
            analysis = self._analysis_of(row)
            if analysis is _HOLD:
                break  # in order: the rows after it wait too
            found = analysis if isinstance(analysis, dict) else None
            payload = encode(outbox.result_payload(db, self.box, row, self.session.registry,
                                                   found))
            if len(payload) > MAX_PAYLOAD and found is not None:  # too long to go with it
                payload = encode(outbox.result_payload(db, self.box, row,
                                                       self.session.registry))
            self._client.publish(results_topic(self.box), payload, qos=1)
            self._sent_through = row.seq
            sent = True
        if sent:
            self._resend_at = now + self.resend_seconds
        self._count_waiting(db)

    def _analysis_of(self, row: outbox.OutboxRow) -> object:
        """The row's game's analysis to send with it (``None``: none), or :data:`_HOLD` while
        it is being computed, for at most :data:`ANALYSIS_WAIT` seconds."""
        try:
            answer = self.session.analysis(row.game_id)
        except SessionError:
            return None
        # "not_over": the outbox row is written with the game's end, and the snapshots the
        # answer reads are swapped just after that commit; a moment later it is pending
        if answer["status"] in ("pending", "not_over"):
            since = self._held.setdefault(row.seq, time.monotonic())
            if time.monotonic() - since < ANALYSIS_WAIT:
                return _HOLD
            log.info("club: game %d's analysis is not ready after %.0f s; its record goes "
                     "without it", row.game_id, ANALYSIS_WAIT)
        self._held.pop(row.seq, None)
        return answer["analysis"] if answer["status"] == "ready" else None
