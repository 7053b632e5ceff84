"""Smart dice over Bluetooth LE — GoDice (Particula) and Pixels (Systemic Games) — read through
bleak: each maker's frames (:mod:`~hardware.smart_dice.godice`,
:mod:`~hardware.smart_dice.pixels`) as readings (:mod:`~hardware.smart_dice.readings`), the
link that scans and keeps the paired dice connected (:mod:`~hardware.smart_dice.link`), and a
fake bleak backend of dice for tests and the simulator (:mod:`~hardware.smart_dice.fake_ble`).

Importing this package, its readings, decoders or link loads nothing of bleak; the link imports
it when it starts. docs/dice.md says which dice, how they are paired and where the protocols
come from.
"""
