"""No secret leaves the companion except to whom the rules show it.

UNLOCK (a tournament's first game) and Hacktrick are played over HTTP by phones holding seats;
at every phase of each game every route of the panel (from ``app.url_map``) and the live stream
are requested as a spectator, as each player and as the host, and every answer is searched —
with the logs and the journal export — for the Lock's code (any traversal of it, drawn or
written), every guess not yet revealed, each Hacktrick hand, the deck's order and the seed.

Each phase also checks that the search *does* find the secret where it is allowed (the Lock's
own view and board, a player's own hand), so a search that could not see a leak fails too.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from firmware_host.companion import Companion
from firmware_host.export import exported_games, to_csv, to_json
from rules import get_game
from rules.unlock import Code, all_codes
from tests.firmware_host.daemon import tabletop
from tests.prove.crawl import NEVER, Fetched, Role, crawl, event_data, fetch, first_event
from tests.prove.leaks import code_found, embedded_json, hands_in_json, list_encodings
from tests.web_panel.served import HOST_PIN, Phone, Served, data_dir, make_app, serve

PLAYERS = ["Aiko", "Ben", "Chie", "Dai"]
#: A seed no public number on the panel can equal by chance.
HACKTRICK_SEED = 8675309123


@dataclass
class Secrets:
    """What is hidden at one phase, and from whom."""

    #: (what, the code, the roles allowed to see it)
    codes: list[tuple[str, Code, frozenset[str]]] = field(default_factory=list)
    #: Hacktrick: each seat's hand (hidden from every other viewer unless shown).
    hands: dict[int, list[int]] = field(default_factory=dict)
    shown: set[int] = field(default_factory=set)
    deck: tuple[int, ...] = ()
    seed: int | None = None

    def in_text(self, text: str, role: str | None, seat: int | None) -> list[str]:
        """Secrets ``role`` (``None``: nobody, as for logs and exports) may not see, in text."""
        found = []
        for what, code, allowed in self.codes:
            if role in allowed:
                continue
            where = code_found(text, code)
            if where is not None:
                found.append(f"{what}: {where}")
        for holder, hand in self.hands.items():
            if holder == seat or holder in self.shown or not hand:
                continue
            for form in list_encodings(hand):
                if f'"cards": {form}' in text or f'"cards":{form}' in text:
                    found.append(f"seat {holder}'s hand {hand} as JSON")
        if len(self.deck) >= 4 and any(form in text for form in list_encodings(self.deck)):
            found.append(f"the deck's order {list(self.deck)}")
        if self.seed is not None and re.search(rf"(?<!\d){self.seed}(?!\d)", text):
            found.append(f"the seed {self.seed}")
        return found


def leaks(fetched: Fetched, secrets: Secrets) -> list[str]:
    """What ``fetched`` shows that its role may not see."""
    role = fetched.role
    problems = [f"{fetched.where()}: {p}" for p in
                secrets.in_text(fetched.headers + "\n" + fetched.body, role.name, role.seat)]
    documents: list[Any] = []
    if fetched.endpoint == "events.stream" and fetched.status == 200:
        documents.append(event_data(fetched))
    elif fetched.content_type.startswith("application/json"):
        documents.append(fetched.json())
    elif fetched.content_type.startswith("text/html"):
        # a game page carries the view its board script draws from
        documents.extend(embedded_json(fetched.body))
    if secrets.hands:
        for document in documents:
            for seat, cards in hands_in_json(document, role.seat):
                problems.append(f"{fetched.where()}: seat {seat}'s hand {cards} in a view")
    return problems


@dataclass
class Table:
    """The panel served on a fresh journal, its phones and the host."""

    companion: Companion
    served: Served
    path: Path
    host: Phone
    phones: dict[int, Phone] = field(default_factory=dict)

    def roles(self, game_id: int) -> list[Role]:
        found = [Role("spectator", None, {}), Role("host", None, dict(self.host.cookies),
                                                    host=True)]
        for seat, phone in sorted(self.phones.items()):
            found.append(Role(f"seat {seat}", seat, {f"tt_seat_{game_id}":
                                                     phone.cookies[f"tt_seat_{game_id}"]}))
        return found

    def act(self, game_id: int, seat: int, action: str, secrets: Secrets) -> Fetched:
        role = self.roles(game_id)[2 + seat]
        answer = fetch(self.served, role, "POST", f"/api/games/{game_id}/act",
                       {"action": action}, "api.act")
        assert answer.status == 200, answer.body
        problems = leaks(answer, secrets)
        assert not problems, problems
        return answer


@pytest.fixture
def table() -> Iterator[Table]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        app = make_app(companion)
        with serve(app, threads=48) as served:
            host = Phone(served)
            host.login_host()
            yield Table(companion, served, path, host)


def check_phase(table: Table, game_id: int, seats: int, tid: int | None, game: str,
                secrets: Secrets, logs: pytest.LogCaptureFixture, phase: str,
                *, ended: bool = False) -> list[Fetched]:
    """Crawl every route as every role, then the logs and the export; fail on any leak.
    (The export of an ended game carries its seed and actions, by design.)"""
    fetched = crawl(table.served.app, table.served, table.roles(game_id), game_id, seats, tid,
                    game)
    endpoints = {rule.endpoint for rule in table.served.app.url_map.iter_rules()}
    assert {f.endpoint for f in fetched} == endpoints - NEVER, "a route was not crawled"
    errors = [f.where() for f in fetched if f.status >= 500]
    assert not errors, f"{phase}: server errors {errors}"
    problems = [p for f in fetched for p in leaks(f, secrets)]
    problems += [f"the log: {p}" for p in secrets.in_text(logs.text, None, None)]
    games = exported_games(table.companion.journal.path)
    for form, text in (("JSON", to_json(games)), ("CSV", to_csv(games))):
        if not ended:
            problems += [f"the {form} export: {p}" for p in secrets.in_text(text, None, None)]
    assert not problems, f"{phase}: " + "\n".join(problems[:20])
    return fetched


def answer(fetched: list[Fetched], role: str, endpoint: str) -> Fetched:
    return next(f for f in fetched if f.role.name == role and f.endpoint == endpoint)


def long_codes(difficulty: str, count: int) -> list[Code]:
    """Codes of many lines (so no short public list of numbers can parse to one of them)."""
    codes = sorted((c for c in all_codes(difficulty) if c.line_count >= 6), key=str)
    return random.Random(difficulty).sample(codes, count)


def test_unlock_secret_and_unrevealed_guesses_reach_only_their_owners(
    table: Table, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.DEBUG)
    status, reply = table.host.post("/api/host/tournaments",
                                    {"players": PLAYERS, "options": {"difficulty": "medium"}})
    assert status == 200, reply
    tid = reply["tournament"]
    tour = table.host.get_json(f"/api/tournaments/{tid}")
    gid, lock = tour["games"][0], tour["locks"][0]
    assert lock == 0
    for seat in range(len(PLAYERS)):
        table.phones[seat] = Phone(table.served)
        table.phones[seat].claim(gid, seat)
    secret, g1, g2, g3, g4, g5 = long_codes("medium", 6)
    assert min(c.line_count for c in (secret, g1, g2, g3, g4, g5)) >= 5
    lock_only = frozenset({"seat 0"})

    def hidden(*guesses: tuple[int, Code]) -> Secrets:
        return Secrets([("the Lock's code", secret, lock_only)] + [
            (f"seat {s}'s unrevealed guess", code, frozenset({f"seat {s}", "seat 0"}))
            for s, code in guesses])

    def phase(name: str, secrets: Secrets) -> list[Fetched]:
        return check_phase(table, gid, len(PLAYERS), tid, "unlock", secrets, caplog, name)

    phase("seats claimed, no secret yet", hidden())
    table.act(gid, 0, f"secret {secret}", hidden())
    seen = phase("secret set", hidden())
    # The search sees the code where the Lock may see it: its view, its page (whose board
    # script draws from that view) and its live stream.
    assert code_found(answer(seen, "seat 0", "api.view").body, secret)
    assert code_found(answer(seen, "seat 0", "pages.game").body, secret)
    assert code_found(json.dumps(event_data(answer(seen, "seat 0", "events.stream"))), secret)

    table.act(gid, 1, f"guess {g1}", hidden((1, g1)))
    seen = phase("seat 1 guessed", hidden((1, g1)))
    assert code_found(answer(seen, "seat 1", "pages.game").body, g1)
    assert code_found(answer(seen, "seat 0", "api.view").body, g1)
    # The host takes the guess back (it completed no turn); the answer is the spectator's view.
    status, undone = table.host.post(f"/api/host/games/{gid}/undo")
    assert status == 200 and undone["submitted"] == [], undone
    assert not hidden((1, g1)).in_text(json.dumps(undone), "host", None)
    table.act(gid, 1, f"guess {g1}", hidden((1, g1)))

    table.act(gid, 2, f"guess {g2}", hidden((1, g1), (2, g2)))
    phase("seats 1 and 2 guessed", hidden((1, g1), (2, g2)))
    exported = tabletop(["export", "--data-dir", str(table.path)], tmp_path)
    history = tabletop(["history", "--data-dir", str(table.path)], tmp_path)
    assert exported.returncode == 0 and history.returncode == 0, exported.stderr
    for output in (exported.stdout, exported.stderr, history.stdout, history.stderr):
        assert not hidden((1, g1), (2, g2)).in_text(output, None, None)

    revealed = table.act(gid, 3, f"guess {g3}", hidden())
    assert len(json.loads(revealed.body)["clue_board"]) == 3
    phase("turn 1 revealed", hidden())
    table.act(gid, 3, f"guess {g4}", hidden((3, g4)))
    phase("turn 2: seat 3 guessed", hidden((3, g4)))
    table.act(gid, 2, f"guess {g5}", hidden((3, g4), (2, g5)))
    phase("turn 2: seats 3 and 2 guessed", hidden((3, g4), (2, g5)))
    ended = table.act(gid, 1, f"guess {secret}", Secrets())
    assert json.loads(ended.body)["outcome"]["found_by"] == [1]
    seen = phase("game over", Secrets())
    # Once the game is over the code is public: the search finds it on the spectator's page.
    assert code_found(answer(seen, "spectator", "pages.game").body, secret)


def hacktrick_secrets(state: Any) -> Secrets:
    shown = set()
    if state.shown is not None:
        holder = state.shown.seat
        if sorted(state.shown.cards) == sorted(state.hands[holder]):
            shown.add(holder)
    return Secrets(hands={s: list(state.hands[s]) for s in (0, 1)}, shown=shown,
                   deck=tuple(state.deck), seed=HACKTRICK_SEED)


def test_hacktrick_hands_deck_and_seed_stay_hidden(
    table: Table, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.DEBUG)
    players = ["Aiko", "Ben"]
    status, reply = table.host.post("/api/host/games", {"game": "hacktrick", "players": players,
                                                        "seed": HACKTRICK_SEED})
    assert status == 200, reply
    gid = reply["game_id"]
    for seat in (0, 1):
        table.phones[seat] = Phone(table.served)
        table.phones[seat].claim(gid, seat)
    rules = get_game("hacktrick")
    state = rules.start(players, None, seed=HACKTRICK_SEED)
    rng = random.Random(9)
    kinds_seen: set[str] = set()
    rounds = 0
    crawled = 0
    step = 0
    while True:
        new_kind = step == 0 or len(state.results) > rounds
        rounds = len(state.results)
        if new_kind or step % 25 == 0 or not rules.to_act(state):
            secrets = hacktrick_secrets(state)
            seen = check_phase(table, gid, 2, None, "hacktrick", secrets, caplog,
                               f"step {step}", ended=not rules.to_act(state))
            crawled += 1
            for seat in (0, 1):  # the search sees each hand where its holder may see it
                view = json.loads(answer(seen, f"seat {seat}", "api.view").body)
                own = list(hands_in_json(view, None))
                if rules.to_act(state):
                    assert own == [(seat, secrets.hands[seat])], own
                    page = embedded_json(answer(seen, f"seat {seat}", "pages.game").body)
                    assert (seat, secrets.hands[seat]) in [
                        found for data in page for found in hands_in_json(data, None)]
        if step == 10:  # the real command, mid-game
            for command in ("export", "history"):
                done = tabletop([command, "--data-dir", str(table.path)], tmp_path)
                assert done.returncode == 0, done.stderr
                found = hacktrick_secrets(state).in_text(done.stdout + done.stderr, None, None)
                assert not found, f"tabletop {command}: {found}"
        if not rules.to_act(state):
            break
        seat = rules.to_act(state)[0]
        action = rng.choice(list(rules.legal_actions(state, seat)))
        kind = action.split()[0]
        after = rules.apply(state, seat, action)
        fetched = table.act(gid, seat, action, hacktrick_secrets(after))
        assert fetched.status == 200
        state, step = after, step + 1
        if kind not in kinds_seen:
            kinds_seen.add(kind)
            check_phase(table, gid, 2, None, "hacktrick", hacktrick_secrets(state), caplog,
                        f"step {step}: first {kind}", ended=not rules.to_act(state))
            crawled += 1
    assert kinds_seen >= {"lead", "play", "draw", "ask"}, kinds_seen
    # Once the game is over its export carries the seed: the search sees it there.
    ended_export = to_json(exported_games(table.companion.journal.path))
    assert "the seed" in " ".join(hacktrick_secrets(state).in_text(ended_export, None, None))
    assert rules.outcome(state) is not None and crawled >= 8
    # The stream of a finished game still shows no hand or deck to a spectator.
    final = first_event(table.served, Role("spectator", None, {}),
                        f"/api/games/{gid}/events", "events.stream")
    assert not leaks(final, hacktrick_secrets(state))
