"""Live updates over a real waitress server: each stream carries its own seat's view, keep-alives,
resuming from Last-Event-ID, a re-issued seat, 30 phones at once, and shutdown — each with the
streams handed over to the one feeding thread (as the daemon serves them) and held on their request
threads (any other WSGI server)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from firmware_host.companion import Companion
from rules import CHANCE
from tests.web_panel.served import EventStream, Phone, Served, make_app, serve
from web_panel.view_delta import apply_delta

SECRET = "1-5-9-6"


def follow(event: dict[str, Any], view: dict[str, Any] | None) -> dict[str, Any]:
    """The view a phone holds after ``event`` (a whole view, or a delta of ``view``)."""
    data = event["data"]
    if event["event"] == "view":
        return dict(data["view"])
    assert event["event"] == "delta" and view is not None and data["base"] == view["version"]
    after: dict[str, Any] = apply_delta(view, data["ops"])
    assert after["version"] == data["version"] == int(event["id"])
    return after


@pytest.fixture(params=["handed over", "held"])
def hand_over(request: pytest.FixtureRequest) -> bool:
    """Whether the server takes the streams off their request threads."""
    return bool(request.param == "handed over")


@pytest.fixture
def served(app: Flask, hand_over: bool) -> Iterator[Served]:
    with serve(app, hand_over=hand_over) as running:
        yield running


@pytest.fixture
def table(companion: Companion, served: Served) -> tuple[int, Phone, Phone, Phone]:
    """An UNLOCK game: phone A is the Lock (secret set), phone B a guesser, C a spectator."""
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    lock, ben, watcher = Phone(served), Phone(served), Phone(served)
    lock.claim(game_id, 0)
    ben.claim(game_id, 1)
    assert lock.post(f"/api/games/{game_id}/act", {"action": f"secret {SECRET}"})[0] == 200
    return game_id, lock, ben, watcher


def test_first_event_is_the_subscribers_own_view(
    companion: Companion, table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, lock, ben, watcher = table
    for phone, seat in ((lock, 0), (ben, 1), (watcher, None)):
        stream = EventStream(phone, f"/api/games/{game_id}/events")
        streams.append(stream)
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        event = stream.next_event()
        assert event["event"] == "view"
        assert int(event["id"]) == event["data"]["version"] == companion.view(game_id, seat)[
            "version"]
        assert event["data"]["view"] == companion.view(game_id, seat)
        assert (event["data"]["view"]["secret"] == SECRET) == (seat == 0)
        assert (SECRET in json.dumps(event["data"])) == (seat == 0)


def test_a_change_reaches_every_subscriber_with_their_own_view(
    companion: Companion, table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, lock, ben, watcher = table
    phones = {0: lock, 1: ben, None: watcher}
    held = {}
    for seat, phone in phones.items():
        streams.append(EventStream(phone, f"/api/games/{game_id}/events"))
        held[seat] = follow(streams[-1].next_event(), None)
    assert ben.post(f"/api/games/{game_id}/act", {"action": "guess 3-5-7"})[0] == 200
    texts = {}
    for seat, stream in zip(phones, streams, strict=True):
        event = stream.next_event()
        assert event["event"] == "delta"  # a small change: what changed, not the whole view
        view = follow(event, held[seat])
        assert view == companion.view(game_id, seat)
        assert view["submitted"] == [1]
        texts[seat] = json.dumps(event["data"])
    # Ben's code is known to Ben and the Lock until the reveal; not to anyone else.
    assert "3-5-7" in texts[0] and "3-5-7" in texts[1]
    assert "3-5-7" not in texts[None]


def test_a_delta_carries_the_moves_since_as_its_phone_may_read_them(
    companion: Companion, table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, lock, ben, watcher = table
    phones = {0: lock, 1: ben, None: watcher}
    for phone in phones.values():
        streams.append(EventStream(phone, f"/api/games/{game_id}/events"))
        streams[-1].next_event()
    assert ben.post(f"/api/games/{game_id}/act", {"action": "guess 3-5-7"})[0] == 200
    for seat, stream in zip(phones, streams, strict=True):
        event = stream.next_event()
        assert event["event"] == "delta"
        after, moves = event["data"]["moves"]
        assert after == 1  # the Lock's secret, step 1, is what the phone's log had
        assert [(m["step"], m["seat"], m["verb"]) for m in moves] == [(2, 1, "guess")]
        # as the log's own answers read it: a code only for its author until the game ends
        assert moves == phones[seat].get_json(f"/api/games/{game_id}/moves?since=1")
        assert moves[0]["action"] == ("guess 3-5-7" if seat == 1 else None)


def test_after_an_undo_a_delta_sends_the_phone_for_its_whole_log(
    companion: Companion, served: Served, streams: list[EventStream]
) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    companion.act(game_id, CHANCE, "roll 4", "test")
    watcher = Phone(served)
    streams.append(EventStream(watcher, f"/api/games/{game_id}/events"))
    streams[0].next_event()
    companion.act(game_id, 0, "place 1 1")
    assert streams[0].next_event()["data"]["moves"][0] == 1
    companion.undo(game_id)
    assert streams[0].next_event()["data"]["moves"] == [0, None]  # the log changed under it
    companion.act(game_id, 0, "place 2 2")
    after, moves = streams[0].next_event()["data"]["moves"]
    assert after == 1 and [m["action"] for m in moves] == ["place 2 2"]


def test_keep_alive_comments_flow_while_nothing_changes(
    table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, _, _, watcher = table
    stream = EventStream(watcher, f"/api/games/{game_id}/events")
    streams.append(stream)
    stream.next_event()
    assert stream.next_comment() == "keep-alive"


def test_resume_from_last_event_id_skips_what_the_phone_has(
    companion: Companion, table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, _, ben, watcher = table
    held = watcher.get_json(f"/api/games/{game_id}")
    seen = held["version"]
    stream = EventStream(watcher, f"/api/games/{game_id}/events",
                         headers={"Last-Event-ID": str(seen)})
    streams.append(stream)
    assert ben.post(f"/api/games/{game_id}/act", {"action": "guess 3-5-7"})[0] == 200
    event = stream.next_event()
    assert int(event["id"]) > seen
    assert follow(event, held)["submitted"] == [1]


def test_resume_after_missing_a_change_sends_the_current_view_at_once(
    companion: Companion, table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, _, ben, watcher = table
    seen = companion.view(game_id, None)["version"]
    assert ben.post(f"/api/games/{game_id}/act", {"action": "guess 3-5-7"})[0] == 200
    stream = EventStream(watcher, f"/api/games/{game_id}/events?since={seen}")
    streams.append(stream)
    event = stream.next_event()
    assert int(event["id"]) == companion.view(game_id, None)["version"] > seen


def test_a_reissued_seat_stream_falls_back_to_the_spectator_view(
    companion: Companion, served: Served, table: tuple[int, Phone, Phone, Phone],
    streams: list[EventStream]
) -> None:
    game_id, lock, _, _ = table
    stream = EventStream(lock, f"/api/games/{game_id}/events")
    streams.append(stream)
    assert stream.next_event()["data"]["view"]["secret"] is not None
    host = Phone(served)
    host.login_host()
    assert host.post(f"/api/host/games/{game_id}/seats/0/reissue")[0] == 200
    told = stream.next_event()
    assert told["event"] == "replaced"  # the old phone is told why it lost its seat
    event = stream.next_event()
    assert event["event"] == "view"  # another viewer: the whole view, never a delta
    assert event["data"]["view"]["you"] is None
    assert event["data"]["view"]["secret"] is None
    assert SECRET not in json.dumps(event["data"])


def test_polling_fallback_gives_the_same_view_as_the_stream(
    companion: Companion, table: tuple[int, Phone, Phone, Phone]
) -> None:
    game_id, lock, ben, watcher = table
    for phone, seat in ((lock, 0), (ben, 1), (watcher, None)):
        polled = phone.get_json(f"/api/games/{game_id}")
        assert polled == companion.view(game_id, seat)
        stream = EventStream(phone, f"/api/games/{game_id}/events")
        try:
            assert stream.next_event()["data"]["view"] == polled
        finally:
            stream.close()


def test_thirty_phones_each_get_the_change(companion: Companion, hand_over: bool) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion)
    with serve(app, threads=40, hand_over=hand_over) as served:
        phones = [Phone(served) for _ in range(30)]
        opened = [EventStream(p, f"/api/games/{game_id}/events") for p in phones]
        try:
            held = [follow(stream.next_event(), None) for stream in opened]
            companion.act(game_id, -1, "roll 4")
            expected = companion.view(game_id, None)
            received = [follow(stream.next_event(), view) for stream, view in zip(opened, held,
                                                                                   strict=True)]
            assert all(view == expected for view in received)
        finally:
            for stream in opened:
                stream.close()


def test_sixty_phones_stream_on_four_request_threads(companion: Companion) -> None:
    """Handed over, a live stream holds no request thread: sixty phones watch, pages still load
    and every phone gets the change."""
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion)
    with serve(app, threads=4) as served:
        opened = [EventStream(Phone(served), f"/api/games/{game_id}/events") for _ in range(60)]
        try:
            held = [follow(stream.next_event(), None) for stream in opened]
            assert Phone(served).get("/")[0] == 200
            companion.act(game_id, -1, "roll 4")
            expected = companion.view(game_id, None)
            assert all(follow(stream.next_event(), view) == expected
                       for stream, view in zip(opened, held, strict=True))
            assert app.extensions["tabletop"].live.count == 60
            # one thread feeds them all (a thread per stream woke 15 per change at a table)
            feeding = [t for t in threading.enumerate() if t.name.startswith("live")]
            assert [t.name for t in feeding] == ["live"]
        finally:
            for stream in opened:
                stream.close()


def test_streams_end_when_the_panel_closes(companion: Companion, hand_over: bool) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion, SSE_KEEPALIVE=30.0)
    ended = threading.Event()
    with serve(app, hand_over=hand_over) as served:
        stream = EventStream(Phone(served), f"/api/games/{game_id}/events")
        stream.next_event()

        def read_to_end() -> None:
            try:
                while True:
                    stream.next_event()
            except (EOFError, OSError):
                ended.set()

        reader = threading.Thread(target=read_to_end, daemon=True)
        reader.start()
    assert ended.wait(5.0), "the stream did not end when the panel closed"
    stream.close()


def test_a_head_request_does_not_hold_a_stream_open(
    table: tuple[int, Phone, Phone, Phone]
) -> None:
    game_id, _, _, watcher = table
    status, headers, body = watcher.request("HEAD", f"/api/games/{game_id}/events")
    assert status == 200 and body == b""
    assert headers["Content-Type"].startswith("text/event-stream")


def test_streams_beyond_the_cap_are_refused_and_slots_come_back(
    companion: Companion, hand_over: bool
) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion, MAX_STREAMS=2)
    with serve(app, threads=6, hand_over=hand_over) as served:
        first, second = (EventStream(Phone(served), f"/api/games/{game_id}/events")
                         for _ in range(2))
        first.next_event()
        second.next_event()
        status, headers, body = Phone(served).request("GET", f"/api/games/{game_id}/events")
        assert status == 503 and headers["Retry-After"] == "5"
        assert json.loads(body)["error"] == "too_many_streams"
        assert Phone(served).get("/")[0] == 200  # pages still find a thread
        first.close()
        # The server lets go of a hung-up stream at its next write: make one.
        companion.act(game_id, -1, "roll 2")
        second.next_event()
        slots = app.extensions["tabletop"].stream_slots
        assert slots.wait_held_at_most(1, 10.0), "the hung-up stream's slot never came back"
        third = EventStream(Phone(served), f"/api/games/{game_id}/events")
        assert third.response.status == 200
        third.close()
        second.close()


def test_keep_alives_count_from_the_streams_own_last_write(
    companion: Companion, table: tuple[int, Phone, Phone, Phone], streams: list[EventStream]
) -> None:
    game_id, _, _, watcher = table
    busy = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 8})
    stream = EventStream(watcher, f"/api/games/{game_id}/events")
    streams.append(stream)
    stream.next_event()
    stop = threading.Event()

    def play() -> None:  # another game changes every 100 ms
        cells = iter((r, c) for r in range(1, 9) for c in range(1, 9))
        while not stop.wait(0.1):
            view = companion.view(busy, None)
            if -1 in view["to_act"]:
                companion.act(busy, -1, "roll 2")
            else:
                row, col = next(cells)
                companion.act(busy, view["to_act"][0], f"place {row} {col}")

    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        assert stream.next_comment() == "keep-alive"
    finally:
        stop.set()
        player.join(5)


def test_a_phone_that_hangs_up_frees_its_stream_without_waiting_for_a_write(
    companion: Companion, hand_over: bool
) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion, SSE_KEEPALIVE=60.0)  # no keep-alive write within the test
    with serve(app, hand_over=hand_over) as served:
        stream = EventStream(Phone(served), f"/api/games/{game_id}/events")
        stream.next_event()
        slots = app.extensions["tabletop"].stream_slots
        assert slots.held == 1
        stream.close()
        assert slots.wait_held_at_most(0, 5.0), "the hung-up stream kept its thread"


def test_a_stream_ends_after_its_lifetime_and_the_phone_resumes_where_it_was(
    companion: Companion, hand_over: bool
) -> None:
    """Streams are bounded (``SSE_LIFETIME``): the server ends one, the phone reconnects with
    the last event's id and misses nothing — no connection lives long enough to pile up what it
    sent."""
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion, SSE_LIFETIME=0.5, SSE_KEEPALIVE=60.0)
    with serve(app, hand_over=hand_over) as served:
        phone = Phone(served)
        stream = EventStream(phone, f"/api/games/{game_id}/events")
        first = stream.next_event()
        held = follow(first, None)
        with pytest.raises(EOFError):
            stream.next_event()  # the server ended the stream after its lifetime
        stream.close()
        companion.act(game_id, -1, "roll 5")  # a change while the phone is away
        again = EventStream(phone, f"/api/games/{game_id}/events",
                            headers={"Last-Event-ID": first["id"]})
        try:
            held = follow(again.next_event(), held)
            assert held == companion.view(game_id, None)
            assert held["pending_roll"] == 5
        finally:
            again.close()


def test_a_phone_that_stops_reading_is_dropped_and_the_others_go_on(
        companion: Companion) -> None:
    """One feeder writes every stream: a phone that stops reading (its window shut, as on a
    phone gone out of Wi-Fi range) must be dropped without holding the feeder, and every other
    phone keeps receiving."""
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    app = make_app(companion, SSE_KEEPALIVE=0.002)  # keep-alives fill a stalled phone fast
    live = app.extensions["tabletop"].live
    with serve(app) as served:
        healthy = EventStream(Phone(served), f"/api/games/{game_id}/events")
        held = follow(healthy.next_event(), None)
        known = set(served.server._map)
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect((served.host, int(served.port)))
        try:
            stalled.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: x\r\n"
                            "Accept: text/event-stream\r\n\r\n".encode())
            assert stalled.recv(64).startswith(b"HTTP/1.1 200")  # its opening came
            deadline = time.monotonic() + 5.0  # then the hand-over, which nothing announces
            while live.count < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert live.count == 2
            for channel in set(served.server._map) - known:  # the box's side of it: small
                served.server._map[channel].socket.setsockopt(socket.SOL_SOCKET,
                                                              socket.SO_SNDBUF, 4096)
            deadline = time.monotonic() + 20.0
            while live.count > 1 and time.monotonic() < deadline:
                healthy.next_comment()  # the healthy phone reads all along
            assert live.count == 1, "the phone that stopped reading was never dropped"
            companion.act(game_id, -1, "roll 4")
            expected = companion.view(game_id, None)
            got: list[dict[str, Any]] = []
            reader = threading.Thread(target=lambda: got.append(follow(healthy.next_event(),
                                                                       held)), daemon=True)
            reader.start()
            reader.join(5.0)
            assert got == [expected], "the other phone stopped receiving"
        finally:
            stalled.close()
            healthy.close()
