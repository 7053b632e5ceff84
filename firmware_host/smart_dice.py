"""The box's smart dice (docs/dice.md): GoDice and Pixels dice read over Bluetooth LE, paired
by the host, each belonging to a seat or to the table.

:class:`SmartDice` sits between the link (:class:`hardware.smart_dice.link.DiceLink`, started
only once a die is paired or the host scans: a box with no smart die loads nothing of bleak)
and the box:

- a settled roll of a paired die goes to the pad as a die reading that names the die
  (:class:`~firmware_host.pad.inputs.RolledBy`): the pad's game decides whether it counts (2 1
  6: only its owner's roll, and only a die of the game's faces) and enters it as
  ``die <name>``; anything the die says while it tumbles, is held, lands crooked or is nudged
  is no roll and goes nowhere;
- a die whose battery falls below ``battery_warning`` % is named on the OLED (once, until it is
  charged again) and on the host page; a die that goes out of reach is named on the OLED, and
  the link reconnects it by itself;
- pairing checks the die against the pad's game when there is one: a die whose faces are not
  the game's is refused, as is a seat the game does not have.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from firmware_host.errors import BluetoothMissing, DeviceRefusal, NotAllowed, SessionError
from firmware_host.pad.dice_menu import DieRow
from firmware_host.pad.inputs import Input, RolledBy
from firmware_host.screens.text import shown_name
from firmware_host.screens.words import WORDS, say
from firmware_host.session_api import PairedDieInfo, SessionApi
from hardware.errors import DeviceNotFound
from hardware.smart_dice.link_state import DiceConfig, DieState, LinkClosed, Listener
from hardware.smart_dice.readings import (
    Battery,
    DieTarget,
    FoundDie,
    Identity,
    Reading,
    Settled,
)

if TYPE_CHECKING:
    from firmware_host.pad_loop import PadLoop
    from hardware.smart_dice.fake_ble import FakeRadio
    from hardware.smart_dice.link import DiceLink

log = logging.getLogger(__name__)

#: The shells a GoDice can wear whose faces are numbered 1 to N (``hardware.smart_dice.godice``).
GODICE_SHELLS = (4, 6, 8, 12, 20)
#: The battery must climb this far above the warning level before a die is warned of again.
BATTERY_HYSTERESIS = 5

#: Builds the link: ``make_link(listener, on_state)``.
LinkMaker = Callable[[Listener, Callable[[str, DieState], None]], "DiceLink"]


class SmartDice:
    """The smart dice of one box; see the module docstring. ``make_link`` builds the link the
    first time it is needed."""

    def __init__(self, session: SessionApi, pad: PadLoop, config: DiceConfig,
                 make_link: LinkMaker) -> None:
        self.session = session
        self.pad = pad
        self.config = config
        self._make_link = make_link
        self._link: DiceLink | None = None
        self._lock = threading.RLock()
        self._found: dict[str, FoundDie] = {}
        self._warned: set[str] = set()
        self._connected: set[str] = set()
        self._scan_thread: threading.Thread | None = None
        #: Why the box cannot use Bluetooth, when it found out (``None``: no trouble seen).
        self.problem: str | None = None
        self._closed = False

    # --- the link -----------------------------------------------------------------------------
    @property
    def link(self) -> DiceLink | None:
        """The link, once something needed it (``None`` before)."""
        return self._link

    def _the_link(self) -> DiceLink:
        with self._lock:
            if self._closed:
                raise NotAllowed("the box is stopping")
            if self._link is None:
                self._link = self._make_link(self._reading, self._state)
            return self._link

    def start(self) -> None:
        """Connect the dice paired with the box, if there are any (none: nothing starts)."""
        self.sync()

    def sync(self) -> None:
        """The link follows exactly the paired dice (connects new ones, drops unpaired ones)."""
        targets = [DieTarget(d["address"], d["vendor"], d["faces"])
                   for d in self.session.dice()]
        if not targets and self._link is None:
            return
        try:
            self._the_link().follow(targets)
        except DeviceNotFound as error:
            self.problem = str(error)
            log.warning("smart dice: %s", error)
        except TimeoutError:
            self.problem = "the Bluetooth link did not answer in time"
            log.warning("smart dice: %s", self.problem)
        except LinkClosed:
            log.info("smart dice: the link closed before the paired dice were followed")

    # --- what the dice say (on the link's thread) ---------------------------------------------
    def _paired(self, address: str) -> PairedDieInfo | None:
        return next((d for d in self.session.dice() if d["address"] == address), None)

    def _reading(self, address: str, reading: Reading) -> None:
        die = self._paired(address)
        if die is None:
            return
        if isinstance(reading, Settled):
            self.pad.submit(Input("die", reading.face,
                                  rolled_by=RolledBy(die["name"], die["owner"], die["faces"])))
            return
        battery = reading.battery if isinstance(reading, Identity) else reading
        if isinstance(battery, Battery):
            self._battery(die, battery)

    def _battery(self, die: PairedDieInfo, battery: Battery) -> None:
        """A die's battery: named on the OLED when it falls below the warning level — once,
        until it has been charged again (or climbed back above the level with a margin)."""
        address = die["address"]
        warning = self.config.battery_warning
        with self._lock:
            if battery.charging or battery.percent >= warning:
                if battery.charging or battery.percent >= warning + BATTERY_HYSTERESIS:
                    self._warned.discard(address)
                return
            if address in self._warned:
                return
            self._warned.add(address)
        log.warning("smart die %s: battery %d %%", die["name"], battery.percent)
        self.pad.notify(lambda lang: say(WORDS, "die_battery_low", lang,
                                         die=self._label(die, lang), name=die["name"],
                                         percent=battery.percent))

    def _state(self, address: str, state: DieState) -> None:
        die = self._paired(address)
        with self._lock:
            was = address in self._connected
            if state is DieState.CONNECTED:
                self._connected.add(address)
            elif state in (DieState.LOST, DieState.CLOSED):
                self._connected.discard(address)
        self.pad.submit_redraw()
        if state is DieState.LOST and was and die is not None:
            self.pad.notify(lambda lang: say(WORDS, "die_away", lang,
                                             die=self._label(die, lang), name=die["name"]))

    def _label(self, die: PairedDieInfo, lang: str) -> str:
        """"Ben's die" (the pad's game's name for the owner's seat), "the table's die"."""
        owner = die["owner"]
        if owner is None:
            return say(WORDS, "table_die", lang)
        seats = self._pad_seats()
        name = shown_name(seats[owner], owner) if owner < len(seats) else f"P{owner + 1}"
        return say(WORDS, "seat_die", lang, name=name)

    # --- the pad's game -----------------------------------------------------------------------
    def _pad_game(self) -> tuple[int, dict[str, Any]] | None:
        """The pad's game being played and its public view (``None``: none)."""
        game_id = self.session.pad()["game"]
        if game_id is None:
            return None
        try:
            if self.session.summary(game_id)["status"] != "active":
                return None
            return game_id, self.session.view(game_id, None)
        except SessionError:
            return None

    def _pad_seats(self) -> list[str]:
        game = self._pad_game()
        return [str(s) for s in game[1].get("seats") or []] if game is not None else []

    # --- scanning and pairing -----------------------------------------------------------------
    def scan(self, seconds: float | None = None) -> list[DieRow]:
        """Listen for dice (``seconds``, default the config's), keep what was heard for
        :meth:`pair`, and list every die: the paired ones, then those nearby."""
        try:
            found = self._the_link().scan(seconds or self.config.scan_seconds)
        except DeviceNotFound as error:
            self.problem = str(error)
            raise BluetoothMissing(f"smart dice need Bluetooth, and {error}") from error
        except TimeoutError as error:
            raise BluetoothMissing("the Bluetooth radio did not finish the scan in time: "
                                   "check 'systemctl status bluetooth'") from error
        except LinkClosed as error:
            raise NotAllowed("the box is stopping: no scan now") from error
        self.problem = None
        with self._lock:
            self._found = {die.address: die for die in found}
        return self.rows()

    @property
    def scanning(self) -> bool:
        thread = self._scan_thread
        return thread is not None and thread.is_alive()

    def scan_in_background(self, done: Callable[[], None]) -> None:
        """:meth:`scan` on a thread of its own (the OLED's pairing screen), then ``done()``;
        a failure is kept in :attr:`problem`."""
        if self.scanning:
            return

        def run() -> None:
            try:
                self.scan()
            except SessionError as error:
                log.info("smart dice scan: %s", error)
            except (LinkClosed, TimeoutError) as error:  # the box is stopping, or the radio
                log.info("smart dice scan ended early: %s", error)  # did not answer
            finally:
                done()

        self._scan_thread = threading.Thread(target=run, name="dice-scan", daemon=True)
        self._scan_thread.start()

    def pair(self, address: str, owner: int | None, faces: int | None = None) -> PairedDieInfo:
        """Pair the die at ``address`` (heard in the last scan, or paired already) with
        ``owner`` (a seat from 0; ``None``: the table). ``faces``: the shell a GoDice wears
        (default: the one it had, else 6); a Pixel says its own. Refused, in words, for a die
        not heard, a seat the pad's game does not have, or faces that are not its die's."""
        if not isinstance(address, str):
            raise DeviceRefusal(f"a die's address is text, not {address!r}")
        if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)
                                  or not 0 <= owner <= 3):
            raise DeviceRefusal(f"a die belongs to a player (1 to 4) or to the table, not "
                                f"{owner!r}")
        paired = self._paired(address)
        with self._lock:
            found = self._found.get(address)
        if found is not None:
            vendor = found.vendor
            name = paired["name"] if paired is not None else self._new_name(found)
            colour = found.colour or (paired["colour"] if paired is not None else None)
        elif paired is not None:
            vendor, name, colour = paired["vendor"], paired["name"], paired["colour"]
        else:
            raise DeviceRefusal(f"no die at {address} was heard: scan for dice first")
        faces = self._faces(vendor, name, found, paired, faces)
        self._fits(name, faces, owner)
        die: PairedDieInfo = {"address": address, "vendor": vendor, "name": name,
                              "faces": faces, "owner": owner, "colour": colour}
        self.session.pair_die(die)
        self.sync()
        return die

    def _new_name(self, found: FoundDie) -> str:
        """The advertised name, made unique among the paired dice."""
        taken = {d["name"] for d in self.session.dice()}
        name = found.name.strip()[:30] or found.address
        if name in taken:
            name = f"{name} {found.address[-5:]}"
        return name

    def _faces(self, vendor: str, name: str, found: FoundDie | None,
               paired: PairedDieInfo | None, faces: int | None) -> int:
        if vendor == "godice":
            chosen = faces if faces is not None else (paired["faces"] if paired else 6)
            if isinstance(chosen, bool) or chosen not in GODICE_SHELLS:
                raise DeviceRefusal(f"a GoDice wears a shell of "
                                    f"{', '.join(map(str, GODICE_SHELLS))} faces, not {chosen!r}")
            return int(chosen)
        said = found.faces if found is not None else (paired["faces"] if paired else None)
        if said is None:
            kind = found.die_type if found is not None and found.die_type else "die of its kind"
            raise NotAllowed(f"{name} is a {kind}: its faces are not numbered 1 to N, and no "
                             "game of the box rolls it")
        if faces is not None and faces != said:
            raise DeviceRefusal(f"{name} says it is a d{said}: a Pixels die's faces are its own")
        return said

    def _fits(self, name: str, faces: int, owner: int | None) -> None:
        """Refuse a die the pad's game cannot use: other faces than its die's, or a seat it
        does not have."""
        game = self._pad_game()
        if game is None:
            return
        game_id, view = game
        title = self.pad.reads.title(game_id)
        need = view.get("die_faces")
        if isinstance(need, int) and faces != need:
            raise NotAllowed(f"{name} is a d{faces}, but {title} #{game_id} rolls a d{need}: "
                             "pair a die of its faces")
        seats = view.get("seats") or []
        if owner is not None and owner >= len(seats):
            raise NotAllowed(f"{title} #{game_id} has {len(seats)} players: there is no player "
                             f"{owner + 1} to give {name} to")

    def unpair(self, address: str) -> None:
        """Forget the die at ``address``; the box disconnects it."""
        self.session.unpair_die(address)
        with self._lock:
            self._warned.discard(address)
        self.sync()

    # --- what the host page and the OLED show -------------------------------------------------
    def rows(self) -> list[DieRow]:
        """The paired dice (with their connection and battery), then the dice heard in the
        last scan that are not paired."""
        link = self._link
        status = link.status() if link is not None else {}
        rows: list[DieRow] = []
        paired = self.session.dice()
        with self._lock:
            found = dict(self._found)
        for die in paired:
            seen = status.get(die["address"])
            heard = found.get(die["address"])
            battery = (seen.battery if seen is not None and seen.battery is not None else
                       heard.battery if heard is not None else None)
            rows.append({"address": die["address"], "vendor": die["vendor"],
                         "name": die["name"],
                         "colour": (seen.colour if seen is not None and seen.colour
                                    else die["colour"]),
                         "battery": battery, "faces": die["faces"],
                         "die_type": seen.die_type if seen is not None else None,
                         "paired": True, "owner": die["owner"],
                         "state": seen.state.value if seen is not None else "lost",
                         "low": battery is not None and battery < self.config.battery_warning,
                         "shells": list(GODICE_SHELLS) if die["vendor"] == "godice" else []})
        addresses = {d["address"] for d in paired}
        for near in found.values():
            if near.address in addresses:
                continue
            rows.append({"address": near.address, "vendor": near.vendor, "name": near.name,
                         "colour": near.colour, "battery": near.battery, "faces": near.faces,
                         "die_type": near.die_type, "paired": False, "owner": None,
                         "state": "nearby",
                         "low": near.battery is not None
                         and near.battery < self.config.battery_warning,
                         "shells": list(GODICE_SHELLS) if near.vendor == "godice" else []})
        return rows

    def game(self) -> dict[str, Any] | None:
        """The pad's game the dice roll for: its id, name, seats and die's faces."""
        game = self._pad_game()
        if game is None:
            return None
        game_id, view = game
        return {"id": game_id, "title": self.pad.reads.title(game_id),
                "seats": [str(s) for s in view.get("seats") or []],
                "die_faces": view.get("die_faces")}

    def close(self) -> None:
        """Disconnect every die; idempotent."""
        with self._lock:
            self._closed = True
            link, self._link = self._link, None
        if link is not None:
            link.close()


class SimulatedTable:
    """The simulator's table of fake dice (:func:`hardware.smart_dice.fake_ble.table_of_dice`,
    bleak's own scanner and client over a fake backend), made the first time it is needed."""

    def __init__(self) -> None:
        self._radio: FakeRadio | None = None
        self._lock = threading.Lock()

    def radio(self) -> FakeRadio:
        with self._lock:
            if self._radio is None:
                from hardware.smart_dice.fake_ble import table_of_dice

                self._radio = table_of_dice()
            return self._radio

    def make_link(self, listener: Listener, on_state: Callable[[str, DieState], None],
                  ) -> DiceLink:
        from hardware.smart_dice.link import DiceLink

        radio = self.radio()
        return DiceLink(listener=listener, on_state=on_state, scanner=radio.scanner(),
                        client=radio.client(), backoff_initial=0.05, backoff_max=0.5,
                        connect_timeout=2.0, identify_timeout=1.0)
