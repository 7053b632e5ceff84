"""docs/architecture.md's figures are the tree's: the embedded block is the script's output."""

from __future__ import annotations

from types import ModuleType

from tests.project_scripts import load


def script() -> ModuleType:
    return load("architecture_figures")


def test_the_documents_figures_are_todays() -> None:
    figures = script()
    document = figures.DOCUMENT.read_text(encoding="utf-8")
    assert figures.embedded(document) == figures.figures(), (
        "docs/architecture.md's figures are stale: run "
        ".venv/bin/python scripts/architecture_figures.py --write")


def test_the_script_finds_a_circle_and_the_layers() -> None:
    figures = script()
    found = figures.modules()
    assert figures.layers(found) == {"rules": 1, "hardware": 1, "firmware_host": 2,
                                     "web_panel": 3, "bench": 4}
    before = figures.circles(found)
    # a made-up import back from the errors the rules contract uses makes one more circle
    found["rules.errors"].imports.add("rules.game")
    after = figures.circles(found)
    assert len(after) == len(before) + 1
    assert any({"rules.errors", "rules.game"} <= set(group) for group in after)
