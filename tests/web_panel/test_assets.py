"""The panel's own files as a browser gets them: no template, script or style sheet carries a
merge conflict's markers (a page would show them, a style sheet would lose its rules)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PANEL = Path(__file__).resolve().parents[2] / "web_panel"
MARKER = re.compile(r"^(<{7}|={7}|>{7})(\s|$)", re.MULTILINE)
FILES = sorted(p for p in PANEL.rglob("*") if p.suffix in (".html", ".js", ".css", ".py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PANEL)))
def test_no_panel_file_holds_a_merge_conflicts_markers(path: Path) -> None:
    found = [m.group(0).strip() for m in MARKER.finditer(path.read_text(encoding="utf-8"))]
    assert not found, f"{path.relative_to(PANEL)} holds conflict markers {found}"
