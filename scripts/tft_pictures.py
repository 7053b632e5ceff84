"""Pictures of the colour TFT's layouts for docs/hardware.md: every game, the results and the
start screen, at 320×240 and 240×240, in English and Japanese, drawn by the box's own screens
from games played on a real companion (in a temporary folder).

    .venv/bin/python scripts/tft_pictures.py [--out docs/screenshots/tft]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from firmware_host.companion import Companion
from firmware_host.tft_screens.frames import game_frame, start_frame
from rules import CHANCE

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((320, 240), (240, 240))


def played(companion: Companion) -> dict[str, int]:
    """A game of each kind some way in, and one finished (Hacktrick to one point)."""
    games = {}
    gid = companion.create_game("unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"})
    for seat, action in ((0, "secret 1-2-3"), (1, "guess 1-2"), (2, "guess 4-5-6"),
                         (1, "guess 1-5-9"), (2, "guess 2-3")):
        companion.act(gid, seat, action)
    games["unlock"] = gid
    gid = companion.create_game("hacktrick", ["Aiko", "Ben"], {})
    for _ in range(7):
        view = companion.view(gid, None)
        companion.act(gid, view["to_act"][0],
                      companion.view(gid, view["to_act"][0])["legal_actions"][0])
    games["hacktrick"] = gid
    gid = companion.create_game("ico", ["Aiko", "Ben", "Chie"], {"start_face": "T0"})
    for _ in range(14):
        view = companion.view(gid, None)
        verb = "roll" if view["phase"] in ("roll", "move") else "place"
        companion.act(gid, view["mover"], f"{verb} {view['legal_edges'][-1]}")
    games["ico"] = gid
    gid = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 6})
    for turn in range(14):
        companion.act(gid, CHANCE, f"roll {turn % 6 + 1}")
        view = companion.view(gid, None)
        free = [(r, c) for r, row in enumerate(view["cells"]) for c, cell in enumerate(row)
                if cell is None]
        r, c = free[(turn * 7) % len(free)]
        companion.act(gid, view["mover"], f"place {r + 1} {c + 1}")
    games["dice216"] = gid
    gid = companion.create_game("hacktrick", ["Aiko", "Ben"], {"target": 1})
    while not companion.view(gid, None)["outcome"]:
        view = companion.view(gid, None)
        companion.act(gid, view["to_act"][0],
                      companion.view(gid, view["to_act"][0])["legal_actions"][-1])
    games["results"] = gid
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "tft")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        companion = Companion.open(Path(folder))
        try:
            catalog = {entry["id"]: entry for entry in companion.catalog()}
            for name, gid in played(companion).items():
                view = companion.view(gid, None)
                for size in SIZES:
                    for lang in ("en", "ja"):
                        image = game_frame(view, info=catalog[view["game"]],
                                           title=catalog[view["game"]]["name"], size=size,
                                           lang=lang)
                        image.save(args.out / f"{name}-{size[0]}x{size[1]}-{lang}.png",
                                   optimize=True)
            for size in SIZES:
                for lang in ("en", "ja"):
                    start_frame("http://tabletop.local:8080/", size=size, lang=lang).save(
                        args.out / f"start-{size[0]}x{size[1]}-{lang}.png", optimize=True)
        finally:
            companion.close()
    print(f"pictures written to {args.out}")


if __name__ == "__main__":
    main()
