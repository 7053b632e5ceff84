"""The repository stands alone: nothing in it reads, runs or links a path outside the checkout.

A user's clone has nothing beside it, so the packages, scripts, tests, benchmarks, deployment
files, the README and the docs may only name paths inside the repository. The original rule
documents are read only from a folder named by ``TABLETOP_SEEDS_DIR`` (``tests/seeds.py``).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("README.md", "pyproject.toml", "docs", "rules", "hardware", "firmware_host",
           "web_panel", "scripts", "tests", "bench", "deploy")
TEXT_SUFFIXES = {"", ".py", ".md", ".sh", ".toml", ".cfg", ".ini", ".txt", ".json", ".html",
                 ".js", ".css", ".service", ".svg", ".yml", ".yaml", ".conf"}


#: Folders a run makes in the checkout, which are not the repository's.
MADE_BY_RUNS = {".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
                "test-artifacts", "node_modules", ".hypothesis"}


def tracked() -> list[Path]:
    """The text files of the scanned parts: those git holds (a clone has exactly these), or,
    outside a git checkout (an unpacked archive), every file but what runs make."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--", *SCANNED], cwd=ROOT,
                                check=True, capture_output=True).stdout.decode().split("\0")
        files = [ROOT / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):
        files = [f for part in SCANNED for f in
                 ([ROOT / part] if (ROOT / part).is_file() else (ROOT / part).rglob("*"))
                 if not MADE_BY_RUNS & set(f.relative_to(ROOT).parts)]
    return [f for f in files if f.suffix in TEXT_SUFFIXES and f.is_file()]


FILES = tracked()

#: Names of the team's reference beside the checkout, which a clone does not have.
OUTSIDE_NAMES = re.compile(
    r"\.\./shared|[\"']shared[\"']\s*/|/\s*[\"']shared[\"']|\bshared/(?:seeds|rules|DESIGN)"
    r"|\bDESIGN\.md\b|\bSTYLE\.md\b|/work/(?:shared|main)\b|\bROOT\.parent\b")
#: ``../name`` written in a file: it must resolve inside the repository.
RELATIVE = re.compile(r"(?<![\w.])((?:\.\./)+)([\w.-]+)")
#: ``Path(__file__)`` followed by ``.parent``/``.parents[N]`` steps.
FROM_FILE = re.compile(
    r"Path\(__file__\)(?:\.resolve\(\))?((?:\.parent\b|\.parents\[\d+\])+)")
#: A markdown link's target.
LINK = re.compile(r"\]\(([^)\s]+)\)")


def inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


def steps_up(chain: str) -> int:
    """How many directories above the file a chain of ``.parent``/``.parents[N]`` lands."""
    return sum(int(n) + 1 if n else 1
               for n in re.findall(r"\.parents?(?:\[(\d+)\])?", chain))


def test_the_scan_sees_the_repository() -> None:
    names = {f.relative_to(ROOT).as_posix() for f in FILES}
    assert {"README.md", "scripts/test", "tests/seeds.py", "docs/design.md"} <= names
    assert len(FILES) > 300


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_file_names_a_path_outside_the_checkout(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    where = path.relative_to(ROOT).as_posix()
    for number, line in enumerate(text.splitlines(), 1):
        found = OUTSIDE_NAMES.search(line)
        assert found is None, f"{where}:{number} names {found[0]!r} (outside the checkout)"
        for ups, name in RELATIVE.findall(line):
            # read from the file's folder, or from the checkout's root (where scripts run)
            targets = (path.parent / ups / name, ROOT / ups / name)
            assert any(inside(t) for t in targets), (
                f"{where}:{number} names {ups}{name}, outside the checkout")
        for chain in FROM_FILE.findall(line):
            depth = len(path.relative_to(ROOT).parts)  # the file's own name counts as one
            assert steps_up(chain) < depth + 1, (
                f"{where}:{number}: Path(__file__){chain} is above the checkout")


DOCS = [f for f in FILES if f.suffix == ".md"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_in_a_document_leads_inside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address (a source) or a heading of the same page
        resolved = path.parent / target.split("#", 1)[0]
        where = path.relative_to(ROOT).as_posix()
        assert inside(resolved), f"{where} links {target}, outside the repository"
        assert resolved.exists(), f"{where} links {target}, which does not exist"
