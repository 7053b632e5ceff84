"""Print the architecture's figures from the tree: layers, module sizes, classes, import circles.

``docs/architecture.md`` embeds this output between its ``figures`` markers, and
``tests/test_architecture_figures.py`` fails when the two differ, so the figures cannot go stale.

    .venv/bin/python scripts/architecture_figures.py           # print the figures
    .venv/bin/python scripts/architecture_figures.py --write   # put them into the document

Imports are read with :mod:`ast` (those under ``if TYPE_CHECKING:`` are not run, so they are not
counted). ``from package import name`` depends on the package's face (its ``__init__``) as well
as on the module ``name`` when there is one; ``import a.b`` and ``from a.b import x`` depend on
``a.b`` only.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- figures: scripts/architecture_figures.py --write -->"
END = "<!-- end of figures -->"
#: The packages of the product, and what each holds.
PACKAGES = {
    "rules": "pure rules engines, bots and hints",
    "hardware": "drivers: pad, touch, OLED, serial die, smart dice, Pico firmware",
    "firmware_host": "the daemon: session, journal, seats, tournaments, read side, pad loop, "
                     "OLED screens, club, CLI",
    "web_panel": "the phones' panel: pages, JSON API, live streams, each game's board",
    "bench": "benchmarks (they import every layer)",
}
#: The composition root builds the panel (the imports that run upwards, on purpose).
COMPOSITION_ROOT = {"firmware_host.cli", "firmware_host.running_box"}
#: Where the size limits apply (issue 31: no module over 500 lines, no class over 25 methods).
LIMITED = ("firmware_host", "web_panel")
MODULE_LIMIT = 500
CLASS_LIMIT = 25
SHOWN = 12


@dataclass
class Module:
    name: str
    path: Path
    lines: int
    imports: set[str] = field(default_factory=set)
    classes: dict[str, int] = field(default_factory=dict)  # class → methods

    @property
    def package(self) -> str:
        return self.name.split(".")[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def run_time_nodes(tree: ast.Module) -> Iterator[ast.stmt]:
    """Every statement but those under ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.stmt):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def read(path: Path, known: set[str]) -> Module:
    text = path.read_text(encoding="utf-8")
    module = Module(module_name(path), path, len(text.splitlines()))
    tree = ast.parse(text)
    is_package = path.name == "__init__.py"
    for node in run_time_nodes(tree):
        if isinstance(node, ast.Import):
            module.imports.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.name.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            module.imports.add(base)
            module.imports.update(f"{base}.{a.name}" for a in node.names
                                  if f"{base}.{a.name}" in known)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            module.classes[node.name] = sum(
                isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in node.body)
    module.imports = {i for i in module.imports if i in known and i != module.name}
    return module


def modules() -> dict[str, Module]:
    paths = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")
                   if "__pycache__" not in p.parts)
    known = {module_name(p) for p in paths}
    found = {m.name: m for m in (read(p, known) for p in paths)}
    return found


def circles(found: dict[str, Module]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in sorted(found[name].imports):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == name:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for name in sorted(found):
        if name not in index:
            visit(name)
    return sorted(groups)


def layers(found: dict[str, Module]) -> dict[str, int]:
    """Each package's layer: one above the highest package it imports (the root excepted)."""
    needs: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for module in found.values():
        if module.name in COMPOSITION_ROOT:
            continue
        needs[module.package] |= {found[i].package for i in module.imports} - {module.package}
    layer: dict[str, int] = {}

    def of(package: str, seen: frozenset[str] = frozenset()) -> int:
        if package not in layer:
            if package in seen:
                raise SystemExit(f"packages import each other: {sorted(seen)}")
            layer[package] = 1 + max((of(p, seen | {package}) for p in needs[package]),
                                     default=0)
        return layer[package]

    for package in PACKAGES:
        of(package)
    return layer


def figures() -> str:
    found = modules()
    out = ["| layer | package | modules | lines | holds |", "|---|---|---|---|---|"]
    layer = layers(found)
    for package in sorted(PACKAGES, key=lambda p: (-layer[p], p)):
        own = [m for m in found.values() if m.package == package]
        out.append(f"| {layer[package]} | `{package}/` | {len(own)} | "
                   f"{sum(m.lines for m in own):,} | {PACKAGES[package]} |")
    limited = [m for m in found.values() if m.package in LIMITED]
    out += ["", f"The largest modules of `{'/`, `'.join(LIMITED)}/` (limit {MODULE_LIMIT} lines):",
            "", "| module | lines | classes | most methods in a class |", "|---|---|---|---|"]
    for m in sorted(limited, key=lambda m: (-m.lines, m.name))[:SHOWN]:
        top = max(m.classes.items(), key=lambda c: (c[1], c[0]), default=None)
        most = f"{top[1]} (`{top[0]}`)" if top else "—"
        out.append(f"| `{m.path.relative_to(ROOT).as_posix()}` | {m.lines} | "
                   f"{len(m.classes)} | {most} |")
    over = sum(m.lines > MODULE_LIMIT for m in limited)
    big = sorted(((n, c) for m in limited for c, n in m.classes.items()), reverse=True)
    over_classes = sum(n > CLASS_LIMIT for n, _ in big)
    out += ["", f"Modules over {MODULE_LIMIT} lines: {over}. Classes over {CLASS_LIMIT} "
            f"methods: {over_classes}" + (
                " (" + ", ".join(f"`{c}` {n}" for n, c in big if n > CLASS_LIMIT) + ")."
                if over_classes else ".")]
    groups = circles(found)
    out += ["", f"Import circles: {len(groups)}."]
    out += [f"- {' ↔ '.join(f'`{n}`' for n in group)}" for group in groups]
    return "\n".join(out) + "\n"


def embedded(document: str) -> str:
    """The figures a document holds between the markers."""
    return document.split(BEGIN + "\n", 1)[1].split(END, 1)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"update {DOCUMENT.name}")
    args = parser.parse_args(argv)
    text = figures()
    if not args.write:
        print(text, end="")
        return 0
    document = DOCUMENT.read_text(encoding="utf-8")
    head, rest = document.split(BEGIN + "\n", 1)
    tail = rest.split(END, 1)[1]
    DOCUMENT.write_text(f"{head}{BEGIN}\n{text}{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
