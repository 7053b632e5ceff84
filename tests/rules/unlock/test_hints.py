"""UNLOCK's hint engine: public information only, the right count, a legal and useful guess,
clear refusals, and the strength the issue asks for on Easy (every secret, through the engine)."""

from __future__ import annotations

import doctest
import json
import logging
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules.unlock import GAME, Clue, Code, all_codes, code_table, consistent_codes
from rules.unlock import books as books_module
from rules.unlock import hints as hints_module
from rules.unlock.books import opening_book, set_key, table_fingerprint
from rules.unlock.bots import BOTS
from rules.unlock.hints import NoHint, hint, suggest
from rules.unlock.splits import HIT, Splitter


def test_docstring_examples_hold() -> None:
    for module in (hints_module, books_module):
        result = doctest.testmod(module)
        assert result.failed == 0
    result = doctest.testmod(__import__("rules.unlock.splits", fromlist=["x"]))
    assert result.attempted > 0 and result.failed == 0


def started(difficulty: str, secret: str, players: int = 2, **options: Any) -> Any:
    names = ["Lock", "Aiko", "Ben", "Chie"][:players]
    state = GAME.start(names, {"difficulty": difficulty, **options}, seed=0)
    return GAME.apply(state, 0, f"secret {secret}")


def played(state: Any, *guesses: str) -> Any:
    """Each guesser in turn plays the next of ``guesses`` (one turn per guesser count)."""
    for guess in guesses:
        state = GAME.apply(state, GAME.to_act(state)[0], f"guess {guess}")
    return state


def test_a_hint_depends_on_the_clue_board_only_not_on_the_secret() -> None:
    # two secrets that score the same against the same cards leave the same board
    one, two = started("easy", "1-2-3"), started("easy", "1-2-5")
    one, two = played(one, "4-5-6"), played(two, "4-5-6")
    assert GAME.view(one, None)["clue_board"][0]["matches"] == 0
    assert GAME.view(two, None)["clue_board"][0]["matches"] == 0
    assert hint(GAME.view(one, None), 1) == hint(GAME.view(two, None), 1)


def test_the_spectators_view_and_the_guessers_own_view_give_the_same_hint() -> None:
    state = played(started("medium", "1-6-7", players=3), "1-2-3", "7-8-9", "4-5-6")
    assert GAME.view(state, None)["phase"] == "guess"
    assert hint(GAME.view(state, None), 2) == hint(GAME.view(state, 2), 2)
    # the hint document carries nothing but the count and the suggestion
    assert set(hint(GAME.view(state, None), 2)) == {"codes_left", "suggestion", "dots", "source"}


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_codes_left_is_the_number_of_codes_the_board_allows(difficulty: str) -> None:
    rng = random.Random(difficulty)
    table = code_table(difficulty)
    state = started(difficulty, table.text(rng.randrange(len(table))))
    for _ in range(3):
        state = played(state, table.text(rng.randrange(len(table))))
        if GAME.outcome(state) is not None:
            break
        view = GAME.view(state, None)
        board = [Clue(Code.parse(card["code"]), card["matches"]) for card in view["clue_board"]]
        expected = sum(1 for _ in consistent_codes(all_codes(difficulty), board))
        assert hint(view, 1)["codes_left"] == expected


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_the_suggestion_is_a_legal_code_that_was_not_played(difficulty: str) -> None:
    rng = random.Random(difficulty + "!")
    table = code_table(difficulty)
    for _ in range(4):
        state = started(difficulty, table.text(rng.randrange(len(table))))
        for _ in range(3):
            state = played(state, table.text(rng.randrange(len(table))))
            if GAME.outcome(state) is not None:
                break
            answer = hint(GAME.view(state, None), 1)
            assert f"guess {answer['suggestion']}" in set(GAME.legal_actions(state, 1))
            assert Code.parse(answer["suggestion"]).path == tuple(answer["dots"])


def test_with_one_code_left_the_hint_is_that_code() -> None:
    # Follow the hints for two-line secrets; wherever the board leaves one code, the hint is it
    # (a secret the hints happen to guess while others still fit is skipped).
    checked = 0
    for secret in [c for c in all_codes("easy") if c.lines.bit_count() == 2][:40]:
        board: list[Clue] = []
        while True:
            answer = suggest(board, "easy")
            if answer.codes_left == 1:
                assert answer.suggestion == secret
                checked += 1
                break
            guess = answer.suggestion
            if guess == secret:
                break
            board.append(Clue(guess, (guess.lines & secret.lines).bit_count()))
    assert checked >= 10, f"only {checked} of 40 secrets left one code before being found"


def test_hints_are_refused_in_words_when_there_are_none() -> None:
    state = GAME.start(["Lock", "Aiko", "Ben"], {"difficulty": "easy"}, seed=0)
    with pytest.raises(NoHint, match="while the guessers are guessing"):
        hint(GAME.view(state, None), 1)
    state = GAME.apply(state, 0, "secret 1-2-3")
    with pytest.raises(NoHint, match="the Lock knows the code"):
        hint(GAME.view(state, None), 0)
    state = GAME.apply(state, 1, "guess 4-5")
    with pytest.raises(NoHint, match="already entered your code for this turn"):
        hint(GAME.view(state, None), 1)
    assert hint(GAME.view(state, None), 2)["codes_left"] == 3560
    state = GAME.apply(state, 2, "guess 1-2-3")
    with pytest.raises(NoHint, match="the game is over"):
        hint(GAME.view(state, None), 1)
    big = GAME.apply(GAME.start(["Lock", "Aiko"], {"difficulty": "easy", "size": 4}, seed=0),
                     0, "secret 1-2-3")
    with pytest.raises(NoHint, match="need the 3×3 card"):
        hint(GAME.view(big, None), 1)


def test_the_splitter_counts_each_class_like_a_popcount() -> None:
    rng = random.Random(11)
    masks = list(code_table("hard").masks)
    candidates = rng.sample(masks, 300)
    splitter = Splitter(candidates)
    for guess in [*rng.sample(masks, 40), candidates[0], candidates[-1]]:
        expected = Counter(HIT if mask == guess else (mask & guess).bit_count()
                           for mask in candidates)
        assert splitter.classes(guess) == dict(expected)


def test_easy_has_a_book_and_medium_and_hard_open_from_theirs() -> None:
    for difficulty in ("easy", "medium", "hard"):
        for auto_connect in (True, False):
            book = opening_book(difficulty, 3, auto_connect)
            assert book is not None and len(book) > 0, (difficulty, auto_connect)
            answer = suggest([], difficulty, 3, auto_connect)
            assert answer.source == "book"
    assert opening_book("easy", 4) is None


def test_a_book_built_on_another_code_table_is_not_used(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    real = opening_book("easy")
    assert real is not None
    opening_book.cache_clear()
    monkeypatch.setattr(books_module, "table_fingerprint", lambda *level: "0123456789abcdef")
    with caplog.at_level(logging.WARNING, logger="rules.unlock.books"):
        assert opening_book("easy") is None
        answer = suggest([], "easy")
    opening_book.cache_clear()
    assert answer.source == "search" and answer.codes_left == 3560
    assert "another code table" in caplog.text


def test_the_shipped_books_name_their_tables() -> None:
    from importlib import resources

    folder = resources.files("rules.unlock.books")
    for difficulty in ("easy", "medium", "hard"):
        for auto_connect in ((True,) if difficulty == "easy" else (True, False)):
            name = f"{difficulty}-{'auto' if auto_connect else 'plain'}.json"
            data = json.loads(folder.joinpath(name).read_text())
            assert data["table"] == table_fingerprint(difficulty, 3, auto_connect)
            assert data["entries"][set_key(range(len(code_table(difficulty, 3,
                                                                 auto_connect))))] >= 0


def follow_hints(difficulty: str, secrets: Sequence[int]) -> dict[int, int]:
    """Guesses each secret (table position) needs when the guesser plays every hint, the found
    code included. The hint depends on the board only, so secrets that leave the same board are
    followed together: one ``suggest`` per board, exactly as each game would ask it."""
    table = code_table(difficulty)
    needed: dict[int, int] = {}
    boards: list[tuple[list[Clue], list[int]]] = [([], list(secrets))]
    while boards:
        board, group = boards.pop()
        guess = suggest(board, difficulty).suggestion
        by_matches: dict[int, list[int]] = {}
        for secret in group:
            if table.masks[secret] == guess.lines:
                needed[secret] = len(board) + 1
            else:
                matches = (table.masks[secret] & guess.lines).bit_count()
                by_matches.setdefault(matches, []).append(secret)
        for matches, rest in by_matches.items():
            assert len(board) < 20, "the hints go round in circles"
            boards.append(([*board, Clue(guess, matches)], rest))
    return needed


def test_following_the_hints_finds_every_easy_secret_5_95_guesses_on_average() -> None:
    needed = follow_hints("easy", range(len(code_table("easy"))))
    assert len(needed) == 3560
    assert sum(needed.values()) / len(needed) <= 5.95
    beyond = sorted(code_table("easy").text(s) for s, n in needed.items() if n > 7)
    assert beyond == [], f"these secrets need more than 7 guesses: {beyond}"
    # the book's own note says what the tree does
    from importlib import resources

    note = json.loads(resources.files("rules.unlock.books").joinpath("easy-auto.json")
                      .read_text())
    assert note["average"] == round(sum(needed.values()) / len(needed), 4)
    assert note["most"] == max(needed.values())


def test_a_game_played_on_the_rules_follows_the_same_hints() -> None:
    # the shortcut above against real games: a few secrets, one hint per turn from the view
    table = code_table("easy")
    shortcut = follow_hints("easy", range(0, 3560, 97))
    for secret, guesses in shortcut.items():
        state = started("easy", table.text(secret))
        turns = 0
        while GAME.outcome(state) is None:
            state = played(state, hint(GAME.view(state, None), 1)["suggestion"])
            turns += 1
        assert turns == guesses


@pytest.mark.parametrize("difficulty", ["medium", "hard"])
def test_following_the_hints_solves_medium_and_hard_within_the_turn_limit(
        difficulty: str) -> None:
    table = code_table(difficulty)
    needed = follow_hints(difficulty, range(0, len(table), len(table) // 40))
    assert max(needed.values()) <= 10


def test_the_hard_bot_plays_the_hint() -> None:
    state = played(started("medium", "2-4-6-8", players=3), "1-2-3", "7-8-9")
    view = GAME.view(state, 1)
    legal = list(GAME.legal_actions(state, 1))
    assert BOTS["hard"].choose(view, legal, random.Random(1)) == (
        "guess " + hint(GAME.view(state, None), 1)["suggestion"])
