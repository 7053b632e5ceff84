"""The hub's MQTT side: every box's messages into the league, acknowledged, and the live tables.

Live tables and statuses are handled on paho's network thread as they come. Records go to the
hub's ingest thread, which takes every record waiting and commits them in one transaction (a
group commit: a burst of games from many boxes costs one write to the disk), in the order they
came; each is acknowledged to the broker (PUBACK) only then — a record is in the league file
before the broker may forget it.
A message that is not valid (its topic, its JSON, a field, a payload naming another box) is
dropped with one log line; nothing a box sends can stop the hub. After each record the hub
publishes a retained acknowledgement on ``club/v1/acks/<box>``; the box then forgets the
record and every one before it.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from firmware_host.club.connection import Endpoint, connect, make_client, refused
from firmware_host.club.league import League
from firmware_host.club.topics import (
    HUB_INFO,
    HUB_SUBSCRIPTIONS,
    VERSION,
    BadMessage,
    ResultRecord,
    TableSummary,
    ack_topic,
    decode_result,
    decode_status,
    decode_table,
    encode,
    parse_topic,
)

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)

HUB_CLIENT_ID = "tabletop-hub"
#: Records committed in one transaction at most.
BATCH = 500


@dataclass
class BoxLive:
    """What the hub knows of a box right now."""

    box: str
    online: bool = False
    panel: str | None = None
    since: str = ""
    tables: dict[int, TableSummary] = field(default_factory=dict)


class LiveTables:
    """Every box's live tables, from their retained messages (thread-safe)."""

    def __init__(self) -> None:
        self._boxes: dict[str, BoxLive] = {}
        self._lock = threading.Lock()
        self.changed = threading.Condition(self._lock)
        self.version = 0

    def _box(self, box: str) -> BoxLive:
        return self._boxes.setdefault(box, BoxLive(box))

    def set_status(self, box: str, online: bool, panel: str | None, since: str) -> None:
        with self._lock:
            live = self._box(box)
            live.online, live.panel, live.since = online, panel, since
            self._bump()

    def set_table(self, box: str, game_id: int, summary: TableSummary | None) -> None:
        with self._lock:
            tables = self._box(box).tables
            if summary is None or summary.status != "active":
                tables.pop(game_id, None)
            else:
                tables[game_id] = summary
            self._bump()

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def snapshot(self) -> list[BoxLive]:
        """Every box (online first, then by name) with its tables, copied."""
        with self._lock:
            boxes = [replace(b, tables=dict(b.tables)) for b in self._boxes.values()]
        return sorted(boxes, key=lambda b: (not b.online, b.box))


@dataclass
class HubCounts:
    """What the hub has done since it started."""

    ingested: int = 0
    duplicates: int = 0
    held: int = 0
    dropped: int = 0


class Hub:
    """The league's ingest over MQTT (see the module docstring)."""

    def __init__(self, league: League, endpoint: Endpoint, *, retry_seconds: int = 10,
                 league_url: Callable[[], str | None] | None = None,
                 client_id: str = HUB_CLIENT_ID) -> None:
        self.league = league
        self.endpoint = endpoint
        self.live = LiveTables()
        self.counts = HubCounts()
        self.connected = threading.Event()
        self._league_url = league_url
        self._client = make_client(client_id, endpoint, retry_seconds=retry_seconds)
        self._client.manual_ack_set(True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._closed = False
        self._records: queue.Queue[mqtt.MQTTMessage | None] = queue.Queue()
        self._ingest = threading.Thread(target=self._ingest_loop, name="club-ingest",
                                        daemon=True)

    def start(self) -> None:
        """Connect in the background; paho reconnects by itself."""
        self._ingest.start()
        connect(self._client, self.endpoint)

    def close(self) -> None:
        """Disconnect, finish the records received, stop (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._records.put(None)  # the records received are ingested and acknowledged first
        if self._ingest.is_alive():
            self._ingest.join(30)
        self._client.disconnect()
        self._client.loop_stop()

    def publish_info(self) -> None:
        """Tell the boxes where the league's pages are (retained)."""
        url = self._league_url() if self._league_url is not None else None
        self._client.publish(HUB_INFO, encode({"v": VERSION, "kind": "hub", "league": url}),
                             qos=1, retain=True)

    # --- paho's thread --------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        problem = refused(reason)
        if problem is not None:
            log.error("hub: the broker at %s:%d refused us: %s", self.endpoint.host,
                      self.endpoint.port, problem)
            return
        log.info("hub: connected to the broker at %s:%d", self.endpoint.host,
                 self.endpoint.port)
        client.subscribe([(topic, 1) for topic in HUB_SUBSCRIPTIONS])
        self.publish_info()
        self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if not self._closed:
            log.warning("hub: lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic.endswith("/results"):
            self._records.put(message)  # acknowledged once ingested
            return
        try:
            self.handle(message.topic, bytes(message.payload))
        except BadMessage as bad:
            self.counts.dropped += 1
            log.warning("hub: dropped a message on %s: %s", message.topic[:100], bad)
        except Exception:
            log.exception("hub: a message on %s could not be handled", message.topic[:100])
        finally:
            client.ack(message.mid, message.qos)

    def handle(self, topic: str, payload: bytes) -> None:
        """One message from a box, at once (raises :class:`BadMessage` for one not valid)."""
        where = parse_topic(topic)
        if where.kind == "status":
            status = decode_status(where.box, payload)
            self.live.set_status(where.box, status.online, status.panel, status.since)
        elif where.kind == "table":
            assert where.game_id is not None
            self.live.set_table(where.box, where.game_id,
                                decode_table(where.box, where.game_id, payload))
        else:
            self.ingest([(topic, payload)])

    def ingest(self, messages: list[tuple[str, bytes]]) -> None:
        """Records, in the order they came: the valid ones in one transaction, each box
        acknowledged; the others dropped with a log line."""
        valid: list[tuple[ResultRecord, bytes]] = []
        for topic, payload in messages:
            try:
                where = parse_topic(topic)
                if where.kind != "results":
                    raise BadMessage(f"topic {topic[:80]!r} carries no records")
                valid.append((decode_result(where.box, payload), payload))
            except BadMessage as bad:
                self.counts.dropped += 1
                log.warning("hub: dropped a message on %s: %s", topic[:100], bad)
        if not valid:
            return
        for (record, _), done in zip(valid, self.league.ingest_many(valid), strict=True):
            if done.verdict == "ingested":
                self.counts.ingested += len(done.records)
            elif done.verdict == "duplicate":
                self.counts.duplicates += 1
                log.info("hub: box %s sent record %d again; it counts once", record.box,
                         record.seq)
            else:
                self.counts.held += 1
                log.info("hub: box %s record %d waits for the one before it", record.box,
                         record.seq)
            if done.ack is not None:
                self._client.publish(
                    ack_topic(record.box),
                    encode({"v": VERSION, "kind": "ack", "key": done.ack.key,
                            "seq": done.ack.seq}), qos=1, retain=True)

    def _ingest_loop(self) -> None:
        """The ingest thread: every record waiting, one transaction, then the PUBACKs."""
        while True:
            first = self._records.get()
            batch = [first] if first is not None else []
            while first is not None and len(batch) < BATCH:
                try:
                    item = self._records.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    first = None
                    break
                batch.append(item)
            if batch:
                try:
                    self.ingest([(m.topic, bytes(m.payload)) for m in batch])
                except Exception:  # a bug or a full disk: the boxes send the records again
                    log.exception("hub: %d records could not be ingested", len(batch))
                for message in batch:
                    self._client.ack(message.mid, message.qos)
            if first is None:
                return
