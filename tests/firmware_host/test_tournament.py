"""UNLOCK tournaments (here on the vault toy, which registers UNLOCK's tournament scoring):
one game per player, each the Lock once; totals and standings."""

from __future__ import annotations

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import NoSuchTournament, NotAllowed
from tests.firmware_host.conftest import OpenCompanion


def open_vault(companion: Companion, gid: int, wrong: int) -> None:
    """The Lock sets 5; the first guesser misses ``wrong`` times, then opens it."""
    lock = companion.view(gid, None)["lock"]
    companion.act(gid, lock, "secret 5")
    for _ in range(wrong):
        companion.act(gid, companion.view(gid, None)["to_act"][0], "guess 1")
    companion.act(gid, companion.view(gid, None)["to_act"][0], "guess 5")


def test_each_game_starts_when_the_previous_ends_with_the_lock_rotating(
    companion: Companion,
) -> None:
    tid = companion.create_tournament("vault", ["Aiko", "Ben", "Chie"])
    for expected_lock in (0, 1, 2):
        gid = companion.tournament(tid)["games"][-1]
        assert companion.view(gid, None)["lock"] == expected_lock
        open_vault(companion, gid, wrong=0)
    summary = companion.tournament(tid)
    assert summary["status"] == "finished"
    assert len(summary["games"]) == 3
    assert len(companion.games(status="active")) == 0


def test_totals_sum_game_scores_and_rank_ties_together(companion: Companion) -> None:
    tid = companion.create_tournament("vault", ["Aiko", "Ben", "Chie"], order=[2, 0, 1])
    # Game 1 (Lock Chie): Aiko opens at once → 10. Game 2 (Lock Aiko): Ben misses once, then
    # Chie opens → 9. Game 3 (Lock Ben): Chie misses once, Aiko opens → 9.
    open_vault(companion, companion.tournament(tid)["games"][-1], wrong=0)
    open_vault(companion, companion.tournament(tid)["games"][-1], wrong=1)
    open_vault(companion, companion.tournament(tid)["games"][-1], wrong=1)
    summary = companion.tournament(tid)
    assert summary["totals"] == [19, 0, 9]
    assert [(s["name"], s["rank"]) for s in summary["standings"]] == [
        ("Aiko", 1), ("Chie", 2), ("Ben", 3)]
    assert summary["winners"] == [0] and summary["locks"] == [2, 0, 1]
    assert summary["scores"] == [[10, 0, 0], [0, 0, 9], [9, 0, 0]]


def test_tournament_continues_after_restart(open_companion: OpenCompanion) -> None:
    first = open_companion()
    tid = first.create_tournament("vault", ["Aiko", "Ben"])
    open_vault(first, first.tournament(tid)["games"][-1], wrong=0)
    first.close()
    second = open_companion()
    gid = second.tournament(tid)["games"][-1]
    assert second.view(gid, None)["lock"] == 1
    open_vault(second, gid, wrong=0)
    assert second.tournament(tid)["status"] == "finished"


def test_an_abandoned_game_counts_for_nothing_and_the_same_lock_plays_again(
    companion: Companion,
) -> None:
    tid = companion.create_tournament("vault", ["Aiko", "Ben"])
    first = companion.tournament(tid)["games"][-1]
    companion.act(first, 0, "secret 5")
    companion.abandon(first)
    summary = companion.tournament(tid)
    replacement = summary["games"][-1]
    assert replacement != first and summary["status"] == "active"
    assert summary["locks"] == [0, 0] and summary["scores"] == [None, None]
    assert companion.view(replacement, None)["lock"] == 0
    assert companion.view(first, None)["status"] == "abandoned"


def test_abandoning_the_tournament_keeps_its_standings(companion: Companion) -> None:
    tid = companion.create_tournament("vault", ["Aiko", "Ben", "Chie"])
    open_vault(companion, companion.tournament(tid)["games"][-1], wrong=0)
    current = companion.tournament(tid)["games"][-1]
    companion.abandon_tournament(tid)
    summary = companion.tournament(tid)
    assert summary["status"] == "abandoned" and summary["totals"] == [0, 10, 0]
    assert companion.view(current, None)["status"] == "abandoned"
    assert companion.games(status="active") == []
    with pytest.raises(NotAllowed, match="abandoned"):
        companion.abandon_tournament(tid)


@pytest.mark.parametrize("order", [[0, 0], [0, 2], [1]])
def test_a_lock_order_must_name_every_seat_once(companion: Companion, order: list[int]) -> None:
    with pytest.raises(ValueError, match="order of Locks"):
        companion.create_tournament("vault", ["Aiko", "Ben"], order=order)
    assert companion.games() == []


def test_a_tournament_sets_the_lock_itself(companion: Companion) -> None:
    with pytest.raises(NotAllowed, match="Lock"):
        companion.create_tournament("vault", ["Aiko", "Ben"], {"lock": 1})


def test_unknown_tournament(companion: Companion) -> None:
    with pytest.raises(NoSuchTournament):
        companion.tournament(4)


def test_listeners_hear_of_the_next_game_after_it_exists(companion: Companion) -> None:
    tid = companion.create_tournament("vault", ["Aiko", "Ben"])
    first = companion.tournament(tid)["games"][-1]
    heard: list[tuple[int | None, list[int]]] = []
    companion.add_listener(lambda gid, version: heard.append(
        (gid, companion.tournament(tid)["games"])))
    open_vault(companion, first, wrong=0)
    second = companion.tournament(tid)["games"][-1]
    assert heard[-2:] == [(first, [first, second]), (second, [first, second])]
    assert companion.view(second, None)["status"] == "active"
