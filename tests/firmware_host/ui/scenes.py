"""The screens under reference test: name → a function drawing it from a view.

Views come from the real rules engines after a few scripted actions, so a change in a view's
shape or content shows up here as a changed image.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware_host.games.dice216 import screens as dice216
from firmware_host.games.hacktrick import screens as hacktrick
from firmware_host.games.ico import screens as ico
from firmware_host.games.unlock import screens as unlock
from firmware_host.screens.message import message_screen, pass_pad_screen, refused_screen
from firmware_host.screens.start import start_screen
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


LONG_REFUSAL = ("line 1-6 joins dots that are not neighbours; on Easy a line joins "
                "horizontally, vertically or diagonally adjacent dots")

SCENES: dict[str, Callable[[], Image.Image]] = {
    "start": lambda: start_screen("http://192.168.1.23:8080/", "4821"),
    "start_no_die": lambda: start_screen("http://tabletop.local:8080/", "0917", note="no die"),
    "message_refused": lambda: refused_screen(
        "lines 1-5 and 2-4 cross; crossing is not allowed on Easy"),
    "message_refused_page_1": lambda: refused_screen(LONG_REFUSAL, 0),
    "message_refused_page_2": lambda: refused_screen(LONG_REFUSAL, 1),
    "pass_pad": lambda: pass_pad_screen("Aiko", 1),
    "unlock_secret_drawing": lambda: unlock.entry_screen(unlock_view(0, 0), 0, [1, 2, 5, 9],
                                                         secret=True),
    "unlock_secret_empty": lambda: unlock.entry_screen(unlock_view(0, 0), 0, [], secret=True),
    "unlock_guess_drawing": lambda: unlock.entry_screen(unlock_view(4, 2), 2, [7, 5, 3],
                                                        secret=False),
    "unlock_4x4_legend": lambda: unlock.entry_screen(unlock4_view(0), 0, [], secret=True),
    "unlock_4x4_drawing": lambda: unlock.entry_screen(unlock4_view(0), 0, [1, 6, 11, 16, 12],
                                                      secret=True),
    "unlock_reveal": lambda: unlock.reveal_screen(unlock_view(7)),
    "unlock_scores": lambda: unlock.scores_screen(unlock_view(7)),
    "unlock_over": lambda: unlock.scores_screen(unlock_over()),
    "unlock_reveal_six_page_1": lambda: unlock.reveal_screen(unlock_seven(), 0),
    "unlock_reveal_six_page_2": lambda: unlock.reveal_screen(unlock_seven(), 1),
    "unlock_over_six_guessers": lambda: unlock.scores_screen(unlock_seven()),
    "dice216_cursor_empty": lambda: dice216.board_screen(dice_view(6, DICE_6), (1, 2),
                                                         prompt="5/OK place"),
    "dice216_cursor_taken": lambda: dice216.board_screen(dice_view(6, DICE_6), (1, 1),
                                                         prompt="5/OK place"),
    "dice216_4x4": lambda: dice216.board_screen(dice_view(4, DICE_4), (3, 3),
                                                prompt="5/OK place"),
    "dice216_12x12_four_players": lambda: dice216.board_screen(
        dice_view(12, DICE_12, ["Aiko", "Ben", "Cy", "Dee"]), None, prompt="roll/OK"),
    "dice216_12x12_cursor_on_taken_cell": lambda: dice216.board_screen(
        dice_view(12, [*DICE_12, (-1, "roll 2")], ["Aiko", "Ben", "Cy", "Dee"]), (2, 2),
        prompt="5/OK place"),
    "dice216_12x12_cursor_on_empty_cell": lambda: dice216.board_screen(
        dice_view(12, [*DICE_12, (-1, "roll 2")], ["Aiko", "Ben", "Cy", "Dee"]), (2, 3),
        prompt="5/OK place"),
    "hacktrick_board": lambda: hacktrick.board_screen(hack_view(), prompt="card 0-5\nOK: draw"),
    "hacktrick_highlight": lambda: hacktrick.board_screen(
        hack_view(), prompt="OK: play 4\nagain: ×2", highlight=6),
    "hacktrick_declare": lambda: hacktrick.board_screen(
        hack_view(), prompt="1: Play!\n3: Guard!\nOK: none", highlight=6),
    "hacktrick_hand": lambda: hacktrick.hand_screen(hack_virtual(1), 1,
                                                    prompt="OK: draw\nBack: ask"),
    "hacktrick_hand_chosen": lambda: hacktrick.hand_screen(
        hack_virtual(1), 1, chosen=2, prompt="OK: play 2\nagain: ×2", highlight=2),
    "hacktrick_hand_play_on_you": lambda: hacktrick.hand_screen(
        played("hacktrick", ["Aiko", "Ben"], {}, [(0, "lead 0"), (1, "play 1 declare=play")],
               0), 0, prompt="play 0-5\nBack: ask"),
    "hacktrick_pass_between": lambda: hacktrick.board_screen(
        hack_virtual(None), prompt="pass pad\nto Ben\nOK"),
    "hacktrick_round_over": lambda: hacktrick.round_screen(hack_round_over()),
    "pass_pad_hand": lambda: pass_pad_screen("Ben", 1, hint="OK: see your hand"),
    "ico_face": lambda: ico.board_screen(ico_view(), prompt="1-3 place"),
    "waiting": lambda: message_screen("UNLOCK", "Waiting for the other players."),
}
