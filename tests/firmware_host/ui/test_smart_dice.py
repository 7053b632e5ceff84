"""2 1 6 played with smart dice (docs/dice.md) on the simulated box: each player's own die —
GoDice and Pixels from the fake Bluetooth backend (``hardware.smart_dice.fake_ble``) through
bleak and the real decoding — rolled at the table and read by the box; cells placed on the pad.

6×6 with d6 dice and the handicap roll, 4×4 with d4 dice, 8×8 with d8 dice; a roll that is not
its die's owner's is shown and not entered; one die goes out of reach mid-game and comes back;
pairing refuses a die whose faces do not fit the game; a low battery is named on the OLED."""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from firmware_host.errors import DeviceRefusal, NotAllowed
from firmware_host.screens.words import WORDS, say
from firmware_host.smart_dice import SmartDice
from hardware.smart_dice.fake_ble import FakeDie, FakeGoDice, FakePixel, FakeRadio
from hardware.smart_dice.link import DiceLink, DieState
from rules import CHANCE
from tests.firmware_host.ui.conftest import WAIT, Box
from tests.firmware_host.ui.test_dice216_pad import move_cursor

pytestmark = pytest.mark.timeout(240)

RED_GODICE = "C0:FF:EE:00:00:01"     # d6
GREEN_GODICE = "C0:FF:EE:00:00:03"   # wears a d8 shell
YELLOW_GODICE = "C0:FF:EE:00:00:04"  # wears a d4 shell
PIXEL_ADA = "C0:FF:EE:00:01:01"      # d6
PIXEL_BEN = "C0:FF:EE:00:01:02"      # d8, legacy firmware
PIXEL_CHI = "C0:FF:EE:00:01:03"      # d4
PIXEL_DEE = "C0:FF:EE:00:01:04"      # d20


def dice(box: Box) -> SmartDice:
    assert box.device.dice is not None, "the simulator has smart dice"
    return box.device.dice


def die(box: Box, address: str) -> FakeDie:
    return box.sim.smart_die(address)


def entries(box: Box, game_id: int) -> list[tuple[int, str, str | None]]:
    """The game's actions in the journal file: seat, action, who entered it."""
    path = box.journal
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT seat, action, entered_by FROM actions WHERE game_id = ? "
                          "AND undone IS NULL ORDER BY n", (game_id,)).fetchall()
    return [(int(s), str(a), b) for s, a, b in rows]


def wait_for(predicate: object, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def connected(box: Box, address: str) -> None:
    link = dice(box).link
    assert link is not None and link.wait_state(address, DieState.CONNECTED, WAIT), address


def pair(box: Box, address: str, owner: int | None, faces: int | None = None) -> str:
    """Scan, pair the die at ``address`` with ``owner``; the link connects it. Its name."""
    found = {row["address"] for row in dice(box).scan()}
    assert address in found, f"{address} was not heard"
    paired = dice(box).pair(address, owner, faces)
    connected(box, address)
    return paired["name"]


def shown(box: Box, text: str) -> None:
    """The OLED shows ``text`` as a refusal or a note (it comes from the dice' thread)."""
    wait_for(lambda: box.device.pad.refusal == text,
             f"the OLED shows {box.device.pad.refusal!r}, not {text!r}")


@dataclass
class Table:
    """A game, who sits where and their dice, and how many actions the journal holds."""

    box: Box
    game_id: int
    dice: dict[int, FakeDie]
    names: dict[int, str]
    count: int = 0
    cursor: tuple[int, int] = (0, 0)

    def roll(self, seat: int, face: int, by: str | None = None) -> None:
        """``seat``'s die rolls ``face``: entered as chance's roll, by that die."""
        self.dice[seat].roll(face)  # type: ignore[attr-defined]
        self.count += 1
        actions = self.box.wait_actions(self.game_id, self.count)
        assert actions[-1] == (CHANCE, f"roll {face}")
        assert entries(self.box, self.game_id)[-1][2] == (by or f"die {self.names[seat]}")

    def place(self, seat: int, target: tuple[int, int]) -> None:
        move_cursor(self.box, self.cursor, target)
        self.cursor = target
        self.box.sim.tap(5)
        self.count += 1
        assert self.box.wait_actions(self.game_id, self.count)[-1] == (
            seat, f"place {target[0] + 1} {target[1] + 1}")


def play_halves(table: Table, size: int, faces: int, rng: random.Random,
                during: dict[int, object] | None = None) -> list[list[int]]:
    """Seat 0 fills the top half row by row, seat 1 the bottom half, turn about, each rolling
    their own die; ``during[turn](table)`` runs before that turn's roll. Each seat's rolls."""
    cells = {0: [(r, c) for r in range(size // 2) for c in range(size)],
             1: [(r, c) for r in range(size // 2, size) for c in range(size)]}
    rolled: list[list[int]] = [[], []]
    for turn in range(size * size):
        seat = turn % 2
        hook = (during or {}).get(turn)
        face = rng.randint(1, faces)
        if hook is not None:
            hook(table, seat, face)  # type: ignore[operator]
        else:
            table.roll(seat, face)
        rolled[seat].append(face)
        table.place(seat, cells[seat].pop(0))
    return rolled


def halves_scores(rolled: list[list[int]], size: int) -> list[int]:
    """By the rules (docs/rules/dice216.md): each full own row scores its numbers and the 10
    bonus; every column is tied (half each), so it scores nothing."""
    return [sum(rolls) + 10 * (size // 2) for rolls in rolled]


def test_6x6_with_a_d6_each_the_handicap_roll_and_a_die_lost_mid_game(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"handicap": True})
    assert box.companion.view(gid, None)["die_faces"] == 6
    names = {0: pair(box, RED_GODICE, 0), 1: pair(box, PIXEL_ADA, 1)}
    assert names == {0: "GoDice_000001_K_v04", 1: "Pixel Ada"}
    table = Table(box, gid, {0: die(box, RED_GODICE), 1: die(box, PIXEL_ADA)}, names)
    # the handicap roll is Ben's (the second player): Aiko's die is shown, not entered
    assert box.companion.view(gid, None)["roll_for"] == {"seat": 1, "purpose": "handicap"}
    table.dice[0].roll(4)  # type: ignore[attr-defined]
    shown(box, "Aiko's die rolled 4, but this roll is Ben's: not entered")
    box.sim.back()
    assert entries(box, gid) == []
    table.roll(1, 5)  # Ben's die: the handicap
    assert box.companion.view(gid, None)["handicap"] == {"seat": 1, "roll": 5}

    def lost_mid_roll(table: Table, seat: int, face: int) -> None:
        # Aiko's die tumbles and goes out of reach before it settles: nothing is entered,
        # the OLED names the die; she types her roll, and the die comes back by itself
        cube = table.dice[0]
        assert isinstance(cube, FakeGoDice) and seat == 0
        cube.play([b"R", b"R"])
        cube.go_away()
        shown(box, f"Aiko's die ({names[0]}) is out of reach: it reconnects by itself; "
                   "meanwhile roll another way")
        box.sim.back()
        assert len(entries(box, gid)) == table.count
        box.sim.key(str(face))
        table.count += 1
        assert box.wait_actions(gid, table.count)[-1] == (CHANCE, f"roll {face}")
        assert entries(box, gid)[-1][2] == "keypad"
        cube.come_back()
        connected(box, RED_GODICE)

    def not_theirs_first(table: Table, seat: int, face: int) -> None:
        # Ben's die rolls on Aiko's turn, and a die is nudged and picked up: none counts
        table.dice[1].roll(2)  # type: ignore[attr-defined]
        shown(box, "Ben's die rolled 2, but this roll is Aiko's: not entered")
        box.sim.back()
        table.dice[0].nudge(6)  # type: ignore[attr-defined]
        table.dice[1].pick_up()  # type: ignore[attr-defined]
        time.sleep(0.2)
        assert len(entries(box, gid)) == table.count and box.device.pad.refusal is None
        table.roll(seat, face)

    rolled = play_halves(table, 6, 6, random.Random(6),
                         during={10: lost_mid_roll, 20: not_theirs_first})
    final = box.companion.view(gid, None)
    assert final["outcome"]["scores"] == [s + h for s, h in
                                          zip(halves_scores(rolled, 6), (0, 5), strict=True)]
    rolls = [b for s, _, b in entries(box, gid) if s == CHANCE]
    assert len(rolls) == 37 and rolls.count("keypad") == 1
    assert rolls.count(f"die {names[0]}") == 17 and rolls.count(f"die {names[1]}") == 19


def test_4x4_with_a_d4_each(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    assert box.companion.view(gid, None)["die_faces"] == 4
    # a GoDice is paired in the shell it wears: a d4 here; a d6 is refused
    dice(box).scan()
    with pytest.raises(NotAllowed, match=r"is a d6, but 2 1 6 #1 rolls a d4"):
        dice(box).pair(YELLOW_GODICE, 0)
    names = {0: pair(box, YELLOW_GODICE, 0, faces=4), 1: pair(box, PIXEL_CHI, 1)}
    table = Table(box, gid, {0: die(box, YELLOW_GODICE), 1: die(box, PIXEL_CHI)}, names)
    rolled = play_halves(table, 4, 4, random.Random(4))
    final = box.companion.view(gid, None)
    assert final["outcome"]["scores"] == halves_scores(rolled, 4)
    assert {b for s, _, b in entries(box, gid) if s == CHANCE} == {
        f"die {names[0]}", "die Pixel Chi"}


def test_8x8_with_a_d8_each(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 8})
    assert box.companion.view(gid, None)["die_faces"] == 8
    dice(box).scan()
    with pytest.raises(NotAllowed, match="Pixel Dee is a d20, but 2 1 6 #1 rolls a d8"):
        dice(box).pair(PIXEL_DEE, 1)
    with pytest.raises(DeviceRefusal, match="Pixel Ben says it is a d8"):
        dice(box).pair(PIXEL_BEN, 1, faces=6)
    names = {0: pair(box, GREEN_GODICE, 0, faces=8), 1: pair(box, PIXEL_BEN, 1)}
    table = Table(box, gid, {0: die(box, GREEN_GODICE), 1: die(box, PIXEL_BEN)}, names)
    rolled = play_halves(table, 8, 8, random.Random(8))
    assert box.companion.view(gid, None)["outcome"]["scores"] == halves_scores(rolled, 8)


def test_the_tables_die_rolls_for_anyone_and_a_die_of_other_faces_never_counts(
        box: Box) -> None:
    dice(box).scan()
    dice(box).pair(PIXEL_DEE, None)  # with no game, any die may be paired
    connected(box, PIXEL_DEE)
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    name = pair(box, PIXEL_CHI, None)
    table = Table(box, gid, {0: die(box, PIXEL_CHI), 1: die(box, PIXEL_CHI)}, {0: name, 1: name})
    die(box, PIXEL_DEE).roll(17)  # type: ignore[attr-defined]
    shown(box, "the table's die is a d20 and rolled 17; this game rolls a d4: not entered")
    box.sim.back()
    table.roll(0, 3)
    table.place(0, (0, 0))
    table.roll(1, 2)
    table.place(1, (0, 1))
    assert [b for s, _, b in entries(box, gid) if s == CHANCE] == ["die Pixel Chi"] * 2


def test_a_low_battery_is_named_on_the_oled_once_until_charged(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"])
    pair(box, PIXEL_ADA, 1)
    pixel = die(box, PIXEL_ADA)
    assert isinstance(pixel, FakePixel)
    pixel.set_battery(12)
    shown(box, "Ben's die (Pixel Ada): battery 12%, charge it soon")
    box.sim.back()
    row = next(r for r in dice(box).rows() if r["address"] == PIXEL_ADA)
    assert row["battery"] == 12 and row["low"] and row["owner"] == 1
    pixel.set_battery(11)  # still low: said once
    time.sleep(0.2)
    assert box.device.pad.refusal is None
    pixel.charging = True
    pixel.set_battery(40)
    pixel.charging = False
    pixel.set_battery(13)  # low again after a charge: said again
    shown(box, "Ben's die (Pixel Ada): battery 13%, charge it soon")
    assert box.companion.view(gid, None)["to_act"] == [CHANCE]


def test_the_oled_games_menu_pairs_a_die(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"])
    box.sim.hold_back()
    box.settle()
    for _ in range(3):  # the game, its two seats, then "Pair dice"
        box.sim.tap(8)
    box.sim.ok()  # the dice screen opens and listens
    wait_for(lambda: not dice(box).scanning and dice(box).rows(), "the scan found no die")
    rows = dice(box).rows()
    assert box.device.pad.follower.dice_open
    at = next(i for i, r in enumerate(rows) if r["address"] == PIXEL_ADA)
    for _ in range(at):
        box.sim.tap(8)
    box.sim.ok()  # not paired → the table's
    box.settle()
    assert box.companion.dice()[0]["owner"] is None
    box.sim.ok()  # → Aiko's
    box.sim.ok()  # → Ben's
    box.settle()
    assert [(d["name"], d["owner"]) for d in box.companion.dice()] == [("Pixel Ada", 1)]
    connected(box, PIXEL_ADA)
    box.sim.back()  # closes the dice screen: the game again
    box.settle()
    assert not box.device.pad.follower.dice_open
    pixel = die(box, PIXEL_ADA)
    pixel.roll(3)  # type: ignore[attr-defined]
    shown(box, "Ben's die rolled 3, but this roll is Aiko's: not entered")
    box.sim.back()
    box.sim.hold_back()
    box.settle()
    for _ in range(3):
        box.sim.tap(8)
    box.sim.ok()
    wait_for(lambda: not dice(box).scanning, "the scan did not end")
    at = next(i for i, r in enumerate(dice(box).rows()) if r["address"] == PIXEL_ADA)
    for _ in range(at):
        box.sim.tap(8)
    box.sim.ok()  # after the last seat: unpaired
    box.settle()
    assert box.companion.dice() == [] and not pixel.connected
    assert entries(box, gid) == []


def test_paired_dice_are_kept_and_reconnected_after_a_restart(tmp_path: Path) -> None:
    radio = FakeRadio()
    pixel = radio.add(FakePixel(PIXEL_ADA, "Pixel Ada"))

    def link(listener: object, on_state: object) -> DiceLink:
        return DiceLink(listener=listener, on_state=on_state,  # type: ignore[arg-type]
                        scanner=radio.scanner(), client=radio.client(),
                        backoff_initial=0.02, backoff_max=0.1, identify_timeout=1.0)

    for run in range(2):
        with Companion.open(tmp_path / "data", host_pin="2468") as companion:
            device = open_device(DeviceSettings(url="http://x/"), companion, mode="simulator",
                                 dice_link=link)
            try:
                assert device.dice is not None
                if run == 0:
                    assert device.dice.link is None  # no die paired: no link, no bleak
                    device.dice.scan()
                    device.dice.pair(PIXEL_ADA, 0)
                assert device.dice.link is not None
                assert device.dice.link.wait_state(PIXEL_ADA, DieState.CONNECTED, WAIT)
            finally:
                device.close()
        assert not pixel.connected
    assert (tmp_path / "data" / JOURNAL_FILE).exists()


def test_a_box_with_smart_dice_off_has_none(tmp_path: Path) -> None:
    from hardware.smart_dice.link import DiceConfig

    with Companion.open(tmp_path / "data", host_pin="2468") as companion:
        device = open_device(DeviceSettings(url="http://x/", dice=DiceConfig(enabled=False)),
                             companion, mode="simulator")
        try:
            assert device.dice is None
            assert not box_menu_has_dice(device)
        finally:
            device.close()


def box_menu_has_dice(device: object) -> bool:
    follower = device.pad.follower  # type: ignore[attr-defined]
    return any(type(e).__name__ == "DiceEntry" for e in follower._entries())


def test_the_pairing_screens_steps() -> None:
    from firmware_host.pad.dice_menu import DiceMenu, OwnerChange, dice_step, die_line, next_owner
    from firmware_host.pad.inputs import BACK, OK, Input, dot

    def die(paired: bool, owner: int | None) -> dict[str, object]:
        return {"address": "A", "vendor": "godice", "name": "GoDice_1", "colour": "red",
                "battery": 70, "faces": 6, "die_type": None, "paired": paired, "owner": owner,
                "state": "connected", "low": False, "shells": [4, 6, 8, 12, 20]}

    # not paired → the table → each player → not paired
    assert next_owner(die(False, None), 2) == OwnerChange("A", None)  # type: ignore[arg-type]
    assert next_owner(die(True, None), 2) == OwnerChange("A", 0)  # type: ignore[arg-type]
    assert next_owner(die(True, 0), 2) == OwnerChange("A", 1)  # type: ignore[arg-type]
    assert next_owner(die(True, 1), 2) == OwnerChange("A", None, unpair=True)  # type: ignore[arg-type]
    rows = [die(True, 1), die(False, None)]
    assert dice_step(DiceMenu(0), dot(8), rows, 2, "en").menu == DiceMenu(1)  # type: ignore[arg-type]
    assert dice_step(DiceMenu(0), dot(2), rows, 2, "en").menu == DiceMenu(1)  # type: ignore[arg-type]
    assert dice_step(DiceMenu(1), OK, rows, 2, "en").change == OwnerChange("A", None)  # type: ignore[arg-type]
    assert dice_step(DiceMenu(0), dot(5), rows, 2, "en").rescan  # type: ignore[arg-type]
    assert dice_step(DiceMenu(0), BACK, rows, 2, "en").menu is None  # type: ignore[arg-type]
    refused = dice_step(DiceMenu(0), Input("digit", 0, key="0"), rows, 2, "en")  # type: ignore[arg-type]
    assert refused.refusal == ("2 and 8 move, OK gives the die to the next seat, 5 scans again, "
                               "Back closes")
    assert die_line(die(True, 1), ["Aiko", "Ben"], "en") == "Ben:GoDice d6 70% red"  # type: ignore[arg-type]
    unpaired = say(WORDS, "dice_unpaired", "ja")  # なし, where the OLED can draw Japanese
    assert die_line(die(False, None), [], "ja") == f"{unpaired}:GoDice d6 70% red"  # type: ignore[arg-type]
