"""The text picture of a position: the magic square with markers, the row, hands and supplies."""

from __future__ import annotations

from rules.hacktrick import GAME, HacktrickState, position, render, render_view


def _scene() -> HacktrickState:
    return position(hands=((0, 2, 3), (1, 5)), row=(3, 4), board={6: "RR*", 5: "W", 2: "W*"},
                    captured={0: "R"}, declaration=("play", 1), points=(1, 0),
                    players=("Aiko", "Ben"))


def test_board_is_drawn_as_the_magic_square_with_markers() -> None:
    lines = render(_scene()).splitlines()
    assert lines[1].split() == ["2", "W*", "7", ".", "6", "RR*"]
    assert lines[2].split() == ["9", ".", "5", "W", "1", "."]
    assert lines[3].split() == ["4", ".", "3", ".", "8", "."]


def test_full_render_shows_both_hands_the_row_and_the_deck() -> None:
    text = render(_scene())
    assert "Row: 3 [4]" in text
    assert "Aiko (W): hand 0 2 3" in text and "Ben (R): hand 1 5" in text
    assert "Deck: " in text
    assert "Play! declared by Ben" in text and "To act: Aiko" in text


def test_public_render_hides_hands_and_deck() -> None:
    text = render(_scene(), hands=False)
    assert "hand 3 cards" in text and "hand 2 cards" in text
    assert "0 2 3" not in text and "Deck:" not in text
    assert text == render_view(GAME.view(_scene(), None))


def test_a_player_view_renders_only_their_own_hand() -> None:
    text = render_view(GAME.view(_scene(), 1))
    assert "Ben (R): hand 1 5" in text and "Aiko (W): hand 3 cards" in text


def test_render_says_how_the_last_round_ended() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W*", 7: "W"},
                     players=("Aiko", "Ben"))
    text = render(GAME.apply(state, 0, "play 2"))
    assert "Round 1: Aiko won 2 points: a marker on each square of a line (2 6 7)" in text
    assert "round 2" in text.splitlines()[0] and "(lead a card)" in text


def test_table_render_has_no_face_up_cards_or_hands() -> None:
    text = render(position(options={"cards": "table"}, row=(4,), hand_sizes=(3, 2)))
    assert "face up" not in text and "hand 3 cards" in text and "Deck:" not in text
