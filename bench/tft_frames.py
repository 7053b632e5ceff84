"""The colour TFT's frame times (issue 33): for each action of real games, the time to draw the
table's screen (``firmware_host.tft_screens``) and to hand it to luma.lcd's real ILI9341 and
ST7789 drivers (``hardware.tft.TftScreen``: only the changed columns of the changed rows), the
bytes that went to the SPI bus, and what those bytes take on the wire at the configured clock —
against a whole frame each time (what luma's ST7789 ``display()`` sends).

The bus is a counting stand-in for spidev (``tests/hardware/controller_ram.py``'s recorder):
the wire time is computed from the bytes (8 bits a byte at ``--mhz``), not measured.

    .venv/bin/python bench/tft_frames.py [--actions 40] [--mhz 32]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.companion import Companion
from firmware_host.tft_screens.frames import game_frame
from hardware.tft import TftConfig, TftScreen
from rules import CHANCE
from rules.unlock import all_codes
from tests.hardware.controller_ram import RecordingGpio, RecordingSpi

GAMES: tuple[tuple[str, list[str], dict[str, Any]], ...] = (
    ("unlock", ["Lock", "Aiko", "Ben", "Chie"], {"difficulty": "easy", "turn_limit": 12}),
    ("hacktrick", ["Aiko", "Ben"], {}),
    ("ico", ["Aiko", "Ben", "Chie"], {"start_face": "T0"}),
    ("dice216", ["Aiko", "Ben", "Chie", "Dai"], {"size": 12, "diagonals": True}),
)


def next_action(companion: Companion, gid: int, game: str, turn: int) -> tuple[int, str] | None:
    view = companion.view(gid, None)
    if view["outcome"]:
        return None
    seat = view["to_act"][0]
    if seat == CHANCE:
        return CHANCE, f"roll {turn % int(view.get('die_faces') or 6) + 1}"
    if game == "unlock":
        if view["phase"] == "secret":
            return seat, "secret 1-5-9-6"
        played = {card["code"] for card in view["clue_board"]}
        fresh = [str(code) for code in all_codes("easy") if str(code) not in played]
        return seat, f"guess {fresh[(turn * 31 + seat * 7) % len(fresh)]}"
    if game == "ico":
        verb = "roll" if view["phase"] in ("roll", "move") else "place"
        return view["mover"], f"{verb} {view['legal_edges'][turn % len(view['legal_edges'])]}"
    if game == "dice216":
        free = [(r, c) for r, row in enumerate(view["cells"]) for c, cell in enumerate(row)
                if cell is None]
        r, c = free[(turn * 13) % len(free)]
        return view["mover"], f"place {r + 1} {c + 1}"
    legal = companion.view(gid, seat)["legal_actions"]
    return seat, legal[turn % len(legal)]


def run(driver: str, size: tuple[int, int], actions: int, mhz: float) -> None:
    gpio = RecordingGpio()
    spi = RecordingSpi(gpio, dc_pin=24)
    screen = TftScreen.from_config(TftConfig(driver=driver, width=size[0],  # type: ignore[arg-type]
                                             height=size[1], spi_speed_hz=int(mhz * 1e6)),
                                   spi=spi, gpio=gpio)
    spi.take()
    full = size[0] * size[1] * 3
    with tempfile.TemporaryDirectory() as folder:
        companion = Companion.open(Path(folder))
        catalog = {entry["id"]: entry for entry in companion.catalog()}
        print(f"{driver} {size[0]}×{size[1]}, SPI {mhz:g} MHz: a whole frame is {full / 1024:.0f}"
              f" KiB, {full * 8 / (mhz * 1e6) * 1000:.1f} ms on the wire")
        for game, players, options in GAMES:
            gid = companion.create_game(game, players, options)
            draw_ms, send_ms, sent, wire_ms = [], [], [], []
            for turn in range(actions):
                step = next_action(companion, gid, game, turn)
                if step is None:
                    break
                companion.act(gid, *step)
                view = companion.view(gid, None)
                started = time.perf_counter()
                image = game_frame(view, info=catalog[game], title=catalog[game]["name"],
                                   size=size, lang="en")
                drawn = time.perf_counter()
                stats = screen.show(image)
                bytes_out = sum(len(w.payload) for w in spi.take())
                draw_ms.append((drawn - started) * 1000)
                send_ms.append(stats.seconds * 1000)
                sent.append(bytes_out)
                wire_ms.append(bytes_out * 8 / (mhz * 1e6) * 1000)
            if not sent:
                continue
            print(f"  {game:9} {len(sent):3} updates: draw p50 {statistics.median(draw_ms):5.1f} "
                  f"/ max {max(draw_ms):5.1f} ms; luma + our diff p50 "
                  f"{statistics.median(send_ms):5.1f} / max {max(send_ms):5.1f} ms; bytes sent "
                  f"p50 {statistics.median(sent) / 1024:5.1f} / max {max(sent) / 1024:5.1f} KiB "
                  f"({statistics.median(sent) / full:4.0%} of a frame); wire p50 "
                  f"{statistics.median(wire_ms):4.1f} / max {max(wire_ms):4.1f} ms", flush=True)
        companion.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--mhz", type=float, default=32.0)
    args = parser.parse_args()
    for driver, size in (("ili9341", (320, 240)), ("st7789", (240, 240))):
        run(driver, size, args.actions, args.mhz)


if __name__ == "__main__":
    main()
