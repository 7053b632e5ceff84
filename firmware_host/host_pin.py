"""The host PIN: set in the config, or generated once and kept in the data directory."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from firmware_host.config import PIN_TEXT
from firmware_host.errors import StartupError

PIN_FILE = "host_pin"
PIN_DIGITS = 6


def load_or_create_pin(data_dir: Path) -> str:
    """The PIN stored in ``data_dir`` (created, readable by this user only, on first start)."""
    path = Path(data_dir) / PIN_FILE
    try:
        if path.exists():
            pin = path.read_text(encoding="ascii", errors="replace").strip()
            if PIN_TEXT.fullmatch(pin):
                return pin
            raise StartupError(f"host PIN file {path}: expected 6–12 digits 0–9; delete it and "
                               "the box makes a new one")
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(pin + "\n")
        return pin
    except OSError as error:
        raise StartupError(f"host PIN file {path}: {error.strerror}") from None
