"""The board kit's patch (web_panel/static/kit.js), which every board, the move log and the
pad draw with: whatever list of children follows whatever list, the element holds the children
described, in order, as a first drawing of the same description makes them (each element with
the same attributes, in whatever order), and a keyed child that stays is the same node (its
state, focus and listeners kept)."""

from __future__ import annotations

import pytest

from tests.e2e.boards import MARKUP, open_game
from tests.e2e.conftest import Table

pytestmark = pytest.mark.browser

#: Random lists, each patched over the last: keyed elements (a small pool of keys, so they come
#: back, move and change), unkeyed ones, texts side by side, nothing, and descriptions given
#: again whole (as K.memo gives them).
PATCH_ROUNDS = """([seed, rounds]) => {
  const K = window.TabletopKit;
  const markup = MARKUP;
  let x = seed;
  const rnd = (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor(x / 65536) % n;
  };
  const box = document.createElement("div");
  let previous = [];
  const failures = [];
  for (let round = 0; round < rounds; round += 1) {
    const items = [];
    const keys = new Set();
    const given = new Set();
    for (let i = rnd(10); i > 0; i -= 1) {
      const kind = rnd(6);
      if (kind === 0) {
        items.push("t" + rnd(3));
      } else if (kind === 1 && previous.length) {
        const again = previous[rnd(previous.length)];
        if (!given.has(again) && !(again.key !== null && keys.has(again.key))) {
          given.add(again);
          if (again.key !== null) keys.add(again.key);
          items.push(again);
        }
      } else if (kind <= 3) {
        const key = "k" + rnd(7);
        if (!keys.has(key)) {
          keys.add(key);
          const title = rnd(2) ? "v" + rnd(3) : null;
          items.push(K.h(rnd(3) ? "span" : "b", { key, class: "c" + rnd(3), title }, "x" + rnd(3)));
        }
      } else if (kind === 4) {
        const inner = rnd(2) ? K.h("u", {}, "in" + rnd(2)) : null;
        items.push(K.h("i", { class: "u" + rnd(2) }, inner, "y" + rnd(2)));
      } else {
        items.push(null);
      }
    }
    const before = new Map([...box.children].filter((n) => n._tt && n._tt.key !== null)
      .map((n) => [n.tagName + "#" + n._tt.key, n]));
    K.patch(box, items);
    const fresh = document.createElement("div");
    K.patch(fresh, items);
    if (markup(box) !== markup(fresh)) failures.push([round, markup(box), markup(fresh)]);
    for (const node of box.children) {
      const key = node._tt && node._tt.key !== null ? node.tagName + "#" + node._tt.key : null;
      const was = key === null ? undefined : before.get(key);
      if (was !== undefined && was !== node) failures.push([round, "new node", node.outerHTML]);
    }
    previous = items.filter((item) => item !== null && typeof item === "object");
  }
  return failures;
}""".replace("MARKUP", MARKUP)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_patch_turns_any_list_of_children_into_any_other(table: Table, seed: int) -> None:
    game_id = table.companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})
    page = open_game(table, game_id)
    assert page.evaluate(PATCH_ROUNDS, [seed, 600]) == []
