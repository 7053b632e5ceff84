"""Deltas between two views: what a live stream sends instead of the whole view.

A delta is a list of operations on JSON data, applied in order: ``["s", path, value]`` sets the
value at ``path`` (a list of object keys and list indices; setting the index just past a list's
end appends), ``["d", path]`` deletes an object's key. An empty path replaces the whole view.
A list that got shorter is set whole. ``static/game.js`` applies deltas with the same rules;
:func:`apply_delta` is the reference.

>>> old = {"turn": 1, "board": [{"code": "1-2"}], "secret": None}
>>> new = {"turn": 2, "board": [{"code": "1-2"}, {"code": "4-5"}]}
>>> delta(old, new)
[['d', ['secret']], ['s', ['turn'], 2], ['s', ['board', 1], {'code': '4-5'}]]
>>> apply_delta(old, delta(old, new)) == new
True
"""

from __future__ import annotations

import copy
from typing import Any

Path = list[str | int]
Op = list[Any]


def delta(old: Any, new: Any) -> list[Op]:
    """The operations that turn ``old`` into ``new``."""
    ops: list[Op] = []
    _walk([], old, new, ops)
    return ops


def _walk(path: Path, old: Any, new: Any, ops: list[Op]) -> None:
    if type(old) is type(new) and old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append(["d", [*path, key]])
        for key, value in new.items():
            if key in old:
                _walk([*path, key], old[key], value, ops)
            else:
                ops.append(["s", [*path, key], value])
        return
    if isinstance(old, list) and isinstance(new, list) and len(new) >= len(old):
        for index, (before, after) in enumerate(zip(old, new, strict=False)):
            _walk([*path, index], before, after, ops)
        for index in range(len(old), len(new)):
            ops.append(["s", [*path, index], new[index]])
        return
    ops.append(["s", path, new])


def apply_delta(view: Any, ops: list[Op]) -> Any:
    """``view`` after the operations (a new value; ``view`` is left as it was)."""
    whole = copy.deepcopy(view)
    for op in ops:
        path = op[1]
        if not path:
            whole = copy.deepcopy(op[2])
            continue
        node = whole
        for key in path[:-1]:
            node = node[key]
        last = path[-1]
        if op[0] == "d":
            del node[last]
        elif isinstance(node, list) and last == len(node):
            node.append(copy.deepcopy(op[2]))
        else:
            node[last] = copy.deepcopy(op[2])
    return whole
