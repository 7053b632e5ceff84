"""The OLED while the journal is damaged: what to do, where, and the PIN it takes."""

from __future__ import annotations

from PIL import Image

from firmware_host.recovery import Damage
from firmware_host.screens.message import message_screen
from firmware_host.screens.words import WORDS, say


def damage_screen(damage: Damage, url: str, pin: str, lang: str = "en") -> Image.Image:
    """"Journal damaged": the backup the host page offers (its time and games) or that none
    is sound, the host page's address and the host PIN."""
    address = url.removeprefix("http://").removeprefix("https://").rstrip("/") + "/host"
    if damage.backup is not None:
        text = say(WORDS, "damage.offer", lang, taken=damage.taken().removesuffix(" UTC"),
                   games=damage.backup.games, address=address)
    else:
        text = say(WORDS, "damage.no_backup", lang, address=address)
    return message_screen(say(WORDS, "damage.title", lang), text,
                          say(WORDS, "pin", lang, pin=pin), lang=lang)
