"""The screens under reference test: name → a function drawing it from a view.

Views come from the real rules engines after a few scripted actions, so a change in a view's
shape or content shows up here as a changed image.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware_host.games.dice216 import screens as dice216
from firmware_host.games.dice216.words import WORDS as DICE216_WORDS
from firmware_host.games.hacktrick import screens as hacktrick
from firmware_host.games.hacktrick.words import WORDS as HACKTRICK_WORDS
from firmware_host.games.ico import screens as ico
from firmware_host.games.ico.words import WORDS as ICO_WORDS
from firmware_host.games.unlock import screens as unlock
from firmware_host.games.unlock.words import WORDS as UNLOCK_WORDS
from firmware_host.pad.menu import Menu, MenuEntry, menu_screen
from firmware_host.screens.message import message_screen, pass_pad_screen, refused_screen
from firmware_host.screens.results import analysis_line, hints_note, results_screen
from firmware_host.screens.start import start_screen
from firmware_host.screens.words import WORDS, say
from rules import get_game


def played(game: str, players: list[str], options: dict[str, Any],
           actions: list[tuple[int, str]], seat: int | None = None) -> dict[str, Any]:
    """The view of ``seat`` after ``actions``, by the real rules engine."""
    rules = get_game(game)
    state = rules.start(players, options, seed=7)
    for who, action in actions:
        state = rules.apply(state, who, action)
    return rules.view(state, seat)


UNLOCK_PLAYERS = ["Kenji", "Aiko", "Ben", "Chloe"]
UNLOCK_TURNS = [(0, "secret 1-2-3-6"),
                (1, "guess 4-5-6"), (2, "guess 7-8"), (3, "guess 2-3"),
                (1, "guess 1-2-3"), (2, "guess 1-5"), (3, "guess 4-5")]
UNLOCK_OPTIONS = {"difficulty": "medium"}


def unlock_view(turns: int, seat: int | None = None) -> dict[str, Any]:
    return played("unlock", UNLOCK_PLAYERS, UNLOCK_OPTIONS, UNLOCK_TURNS[:turns], seat)


SEVEN = ["Kenji", "Aiko", "Ben", "Chloe", "Dai", "Emi", "Fumi"]
SEVEN_TURN = [(0, "secret 1-2-3"), (1, "guess 1-2"), (2, "guess 4-5"), (3, "guess 2-3"),
              (4, "guess 7-8"), (5, "guess 5-6"), (6, "guess 1-2-3")]


def unlock4_view(seat: int | None = None) -> dict[str, Any]:
    return played("unlock", ["Kenji", "Aiko"], {"size": 4, "difficulty": "easy"}, [], seat)


def unlock_seven() -> dict[str, Any]:
    return played("unlock", SEVEN, {"difficulty": "easy"}, SEVEN_TURN)


def unlock_over() -> dict[str, Any]:
    return played("unlock", UNLOCK_PLAYERS, UNLOCK_OPTIONS,
                  [*UNLOCK_TURNS, (1, "guess 1-2-3-6"), (2, "guess 5-6"), (3, "guess 7-4")])


def dice_view(size: int, moves: list[tuple[int, str]], players: list[str] | None = None,
              ) -> dict[str, Any]:
    return played("dice216", players or ["Aiko", "Ben"], {"size": size}, moves)


DICE_6 = [(-1, "roll 4"), (0, "place 1 1"), (-1, "roll 6"), (1, "place 2 2"),
          (-1, "roll 1"), (0, "place 3 3"), (-1, "roll 3"), (1, "place 6 6"), (-1, "roll 5")]
DICE_4 = [(-1, "roll 4"), (0, "place 1 1"), (-1, "roll 2"), (1, "place 4 4"), (-1, "roll 3")]
DICE_4_FULL = [m for i in range(16)
               for m in ((-1, f"roll {1 + i % 4}"), (i % 2, f"place {i // 4 + 1} {i % 4 + 1}"))]
DICE_12 = [m for i in range(6)
           for m in ((-1, f"roll {1 + i % 6}"), (i % 4, f"place {i + 1} {i + 1}"))]

HACK = [(0, "lead 3"), (1, "play 1"), (0, "play 5 x2"), (1, "play 2 declare=play")]


def hack_view() -> dict[str, Any]:
    return played("hacktrick", ["Aiko", "Ben"], {"cards": "table"}, HACK)


def hack_round_over() -> dict[str, Any]:
    """Virtual cards (seed 7, target 2) after round 1, each turn taking the first legal
    action that is not asking the sum."""
    rules = get_game("hacktrick")
    state = rules.start(["Aiko", "Ben"], {"target": 2}, seed=7)
    while not rules.view(state, None)["rounds"]:
        seat = rules.to_act(state)[0]
        action = next(a for a in rules.legal_actions(state, seat) if a != "ask")
        state = rules.apply(state, seat, action)
    return rules.view(state, None)


def hack_virtual(seat: int | None) -> dict[str, Any]:
    """Virtual cards (seed 7): the starter led 0, Ben (seat 1) holds 1 2 3 and is to play."""
    return played("hacktrick", ["Aiko", "Ben"], {}, [(0, "lead 0")], seat)


ICO_OPTIONS = {"start_face": "T0", "first_player": 0}


def ico_view() -> dict[str, Any]:
    rules = get_game("ico")
    state = rules.start(["Aiko", "Ben", "Cy"], ICO_OPTIONS, seed=7)
    for _ in range(5):  # five turns, each on the first legal edge
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, next(iter(rules.legal_actions(state, seat))))
    return rules.view(state, None)


LONG_REFUSAL = {
    "en": ("line 1-6 joins dots that are not neighbours; on Easy a line joins horizontally, "
           "vertically or diagonally adjacent dots"),
    "ja": ("線1-6は隣り合わないドットを結んでいます(やさしいでは不可)。やさしいでは線は縦・横・"
           "斜めに隣り合うドットだけを結びます。経路は同じドットを2回通過することはできません。"),
}
CROSSING = {"en": "lines 1-5 and 2-4 cross; crossing is not allowed on Easy",
            "ja": "線1-5と2-4が交差しています(やさしいでは交差できません)"}

Scene = Callable[[str], Image.Image]


def hw(key: str, lang: str, **values: object) -> str:
    """Hacktrick's words."""
    return say(HACKTRICK_WORDS, key, lang, **values)


def menu_scene(lang: str) -> Image.Image:
    entries = [MenuEntry(3, unlock.title(lang), "Kenji,Aiko,Ben"),
               MenuEntry(5, hacktrick.title(lang), "Aiko,Ben"),
               MenuEntry(7, say(DICE216_WORDS, "name", lang), "愛子,Dee")]
    return menu_screen(Menu(1), entries, 3, lang)


def results_scene(lang: str) -> Image.Image:
    view = unlock_over()
    onward = [say(WORDS, "next_pass", lang, name="Aiko"), say(WORDS, "ok_next_game", lang)]
    reason = say(UNLOCK_WORDS, "reason.found", lang)
    return results_screen(view, unlock.title(lang), onward, lang=lang, reason=reason,
                          seats=unlock.scored_seats(view))


def ico_over(lang: str) -> Image.Image:
    rules = get_game("ico")
    state = rules.start(["Aiko", "Ben"], {**ICO_OPTIONS, "turn_cap": 60}, seed=7)
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, sorted(rules.legal_actions(state, seat))[-1])
    view = rules.view(state, None)
    reason = say(ICO_WORDS, f"reason.{view['outcome']['reason']}", lang, winner="Ben",
                 figure=view["outcome"]["figure"], turn_cap=60)
    return results_screen(view, "ICO", [say(WORDS, "ok_start", lang)], lang=lang,
                          reason=reason)


def results_hints_scene(lang: str) -> Image.Image:
    """UNLOCK's results with the hints each guesser used under the scores."""
    view = {**unlock_over(), "hints": {"allowed": True, "used": [0, 2, 0, 1]}}
    seats = unlock.scored_seats(view)
    onward = [say(WORDS, "ok_start", lang)]
    return results_screen(view, unlock.title(lang), onward, lang=lang, seats=seats,
                          reason=say(UNLOCK_WORDS, "reason.found", lang),
                          note=hints_note(view, seats, lang))


def results_analysis_scene(lang: str) -> Image.Image:
    """UNLOCK's results with the post-game analysis's line under the winner."""
    view = unlock_over()
    answer = {"status": "ready", "analysis": {"game": "unlock", "kind": "codes",
                                              "certain_turn": 3, "found_turn": 3}}
    return results_screen(view, unlock.title(lang), [say(WORDS, "ok_start", lang)],
                          lang=lang, reason=say(UNLOCK_WORDS, "reason.found", lang),
                          seats=unlock.scored_seats(view), analysis=analysis_line(answer, lang))


def ico_over_analysis(lang: str) -> Image.Image:
    """ICO's results with its largest turning point (and a pending one's line, below)."""
    answer = {"status": "ready", "analysis": {"game": "ico", "kind": "evaluation", "steps": [
        {"step": 7, "n": 12, "loss": 0.6, "turning_point": True},
        {"step": 9, "n": 15, "loss": 0.2, "turning_point": True}]}}
    return _ico_results(lang, analysis_line(answer, lang))


def ico_over_pending(lang: str) -> Image.Image:
    return _ico_results(lang, analysis_line({"status": "pending", "analysis": None}, lang))


def _ico_results(lang: str, line: str) -> Image.Image:
    rules = get_game("ico")
    state = rules.start(["Aiko", "Ben"], {**ICO_OPTIONS, "turn_cap": 60}, seed=7)
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, sorted(rules.legal_actions(state, seat))[-1])
    view = rules.view(state, None)
    reason = say(ICO_WORDS, f"reason.{view['outcome']['reason']}", lang, winner="Ben",
                 figure=view["outcome"]["figure"], turn_cap=60)
    return results_screen(view, "ICO", [say(WORDS, "ok_start", lang)], lang=lang,
                          reason=reason, analysis=line)


SCENES: dict[str, Scene] = {
    "start": lambda lang: start_screen("http://192.168.1.23:8080/", "4821", lang=lang),
    "start_no_die": lambda lang: start_screen("http://tabletop.local:8080/", "0917",
                                              note=say(WORDS, "no_die", lang), lang=lang),
    "message_refused": lambda lang: refused_screen(CROSSING[lang], title=unlock.title(lang),
                                                   lang=lang),
    "message_refused_page_1": lambda lang: refused_screen(
        LONG_REFUSAL[lang], 0, title=unlock.title(lang), lang=lang),
    "message_refused_page_2": lambda lang: refused_screen(
        LONG_REFUSAL[lang], 1, title=unlock.title(lang), lang=lang),
    "pass_pad": lambda lang: pass_pad_screen("Aiko", 1, title=unlock.title(lang), lang=lang),
    "pass_pad_japanese_name": lambda lang: pass_pad_screen("愛子", 1, title=unlock.title(lang),
                                                           lang=lang),
    "unlock_secret_drawing": lambda lang: unlock.entry_screen(
        unlock_view(0, 0), 0, [1, 2, 5, 9], secret=True, lang=lang),
    "unlock_secret_empty": lambda lang: unlock.entry_screen(unlock_view(0, 0), 0, [],
                                                            secret=True, lang=lang),
    "unlock_guess_drawing": lambda lang: unlock.entry_screen(
        unlock_view(4, 2), 2, [7, 5, 3], secret=False, lang=lang),
    "unlock_guess_hint_offered": lambda lang: unlock.entry_screen(
        unlock_view(4, 2), 2, [], secret=False, offer_hint=True, lang=lang),
    "unlock_guess_hint": lambda lang: unlock.entry_screen(
        unlock_view(4, 2), 2, [], secret=False, hint=(61, [3, 6, 5, 4]), lang=lang),
    "unlock_guess_hint_drawing": lambda lang: unlock.entry_screen(
        unlock_view(4, 2), 2, [3, 6], secret=False, hint=(61, [3, 6, 5, 4]), lang=lang),
    "results_hints": results_hints_scene,
    "unlock_4x4_legend": lambda lang: unlock.entry_screen(unlock4_view(0), 0, [], secret=True,
                                                          lang=lang),
    "unlock_4x4_drawing": lambda lang: unlock.entry_screen(
        unlock4_view(0), 0, [1, 6, 11, 16, 12], secret=True, lang=lang),
    "unlock_reveal": lambda lang: unlock.reveal_screen(unlock_view(7), lang=lang),
    "unlock_scores": lambda lang: unlock.scores_screen(unlock_view(7), lang=lang),
    "unlock_over": lambda lang: unlock.scores_screen(unlock_over(), lang=lang),
    "unlock_reveal_six_page_1": lambda lang: unlock.reveal_screen(unlock_seven(), 0, lang=lang),
    "unlock_reveal_six_page_2": lambda lang: unlock.reveal_screen(unlock_seven(), 1, lang=lang),
    "unlock_over_six_guessers": lambda lang: unlock.scores_screen(unlock_seven(), lang=lang),
    "results_tournament": results_scene,
    "results_ico": ico_over,
    "results_analysis_unlock": results_analysis_scene,
    "results_analysis_ico": ico_over_analysis,
    "results_analysis_pending": ico_over_pending,
    "menu": menu_scene,
    "dice216_cursor_empty": lambda lang: dice216.board_screen(
        dice_view(6, DICE_6), (1, 2), prompt=say(DICE216_WORDS, "prompt.place", lang, n=5),
        lang=lang),
    "dice216_cursor_taken": lambda lang: dice216.board_screen(
        dice_view(6, DICE_6), (1, 1), prompt=say(DICE216_WORDS, "prompt.place", lang, n=5),
        lang=lang),
    "dice216_4x4": lambda lang: dice216.board_screen(
        dice_view(4, DICE_4), (3, 3), prompt=say(DICE216_WORDS, "prompt.place", lang, n=3),
        lang=lang),
    "dice216_12x12_four_players": lambda lang: dice216.board_screen(
        dice_view(12, DICE_12, ["Aiko", "Ben", "Cy", "Dee"]), None,
        prompt=say(DICE216_WORDS, "prompt.roll", lang), lang=lang),
    "dice216_12x12_cursor_on_taken_cell": lambda lang: dice216.board_screen(
        dice_view(12, [*DICE_12, (-1, "roll 2")], ["Aiko", "Ben", "Cy", "Dee"]), (2, 2),
        prompt=say(DICE216_WORDS, "prompt.place", lang, n=2), lang=lang),
    "dice216_12x12_cursor_on_empty_cell": lambda lang: dice216.board_screen(
        dice_view(12, [*DICE_12, (-1, "roll 2")], ["Aiko", "Ben", "Cy", "Dee"]), (2, 3),
        prompt=say(DICE216_WORDS, "prompt.place", lang, n=2), lang=lang),
    "dice216_over": lambda lang: dice216.board_screen(dice_view(4, DICE_4_FULL), None,
                                                      lang=lang),
    "hacktrick_board": lambda lang: hacktrick.board_screen(
        hack_view(), prompt=hw("prompt.choose", lang), lang=lang),
    "hacktrick_highlight": lambda lang: hacktrick.board_screen(
        hack_view(), prompt=hw("prompt.play", lang, value=4), highlight=6, lang=lang),
    "hacktrick_declare": lambda lang: hacktrick.board_screen(
        hack_view(), prompt=hw("prompt.declare", lang), highlight=6, lang=lang),
    "hacktrick_hand": lambda lang: hacktrick.hand_screen(
        hack_virtual(1), 1, prompt=hw("prompt.hand", lang), lang=lang),
    "hacktrick_hand_chosen": lambda lang: hacktrick.hand_screen(
        hack_virtual(1), 1, chosen=2, prompt=hw("prompt.play", lang, value=2), highlight=2,
        lang=lang),
    "hacktrick_hand_play_on_you": lambda lang: hacktrick.hand_screen(
        played("hacktrick", ["Aiko", "Ben"], {}, [(0, "lead 0"), (1, "play 1 declare=play")],
               0), 0, prompt=hw("prompt.must_play", lang), lang=lang),
    "hacktrick_pass_between": lambda lang: hacktrick.board_screen(
        hack_virtual(None), prompt=hw("prompt.pass", lang, name="Ben"), lang=lang),
    "hacktrick_round_over": lambda lang: hacktrick.round_screen(hack_round_over(), lang=lang),
    "pass_pad_hand": lambda lang: pass_pad_screen("Ben", 1, hint=hw("hint_open", lang),
                                                  title=hacktrick.title(lang), lang=lang),
    "ico_face": lambda lang: ico.board_screen(
        ico_view(), prompt=say(ICO_WORDS, "prompt.place", lang), lang=lang),
    "waiting": lambda lang: message_screen(unlock.title(lang),
                                           say(UNLOCK_WORDS, "waiting", lang), lang=lang),
}
