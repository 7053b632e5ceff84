"""A corrupt or missing config, and a read-only data directory: the real ``tabletop run`` stops
with one clear line on stderr (naming the file or key) and a non-zero exit, never a traceback.
The config loader itself is fuzzed with random TOML documents and random bytes: it returns a
config or raises ``ConfigError`` with a one-line message, nothing else."""

from __future__ import annotations

import ctypes
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.companion import Companion
from firmware_host.config import Config, load_config
from firmware_host.errors import ConfigError
from tests.firmware_host.daemon import ROOT, clean_env
from tests.ports import free_port

PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 24, 1, 2

#: Sections and keys the config knows, and a few it does not.
KEYS: dict[str, tuple[str, ...]] = {
    "": ("input", "data_dir", "host_pin", "log_level", "colour"),
    "buttons": ("dots", "ok", "back", "pull_up", "extra"),
    "touch": ("bus", "address", "irq_pin", "electrodes", "ok_electrode", "touch_threshold"),
    "display": ("driver", "interface", "bus", "address", "rotation", "contrast", "width",
                "height", "reset_pin", "dc_pin"),
    "serial": ("device", "baudrate", "parity"),
    "web": ("host", "port", "threads"),
    "pad": ("debounce_ms", "retry_seconds"),
    "bots": ("delay_ms",),
    "sound": ("volume",),
}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") \
            if math.isinf(value) else repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


values = st.recursive(
    st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(),
              st.sampled_from(["0x3C", "0x3c", "none", "", "ssd1306", "sh1106", "spi", "i2c",
                               "buttons", "touch", "debug", "/dev/null", "loop://", "1234",
                               "0.0.0.0", "GPIO17"]),
              st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)),
    lambda inner: st.lists(inner, max_size=10), max_leaves=12)


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for section in draw(st.lists(st.sampled_from(sorted(KEYS)), unique=True, max_size=4)):
        if section:
            lines.append(f"[{section}]")
        for key in draw(st.lists(st.sampled_from(KEYS[section]), unique=True, max_size=4)):
            lines.append(f"{key} = {toml_value(draw(values))}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents().map(str.encode), st.binary(max_size=200)))
def test_any_config_file_loads_or_is_refused_in_one_line(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_bytes(content)
        try:
            assert isinstance(load_config(path), Config)
        except ConfigError as error:
            message = str(error)
            assert message.startswith("config error: ") and "\n" not in message, message


def drop_root_override() -> None:
    """In the child, before exec: give up the capabilities that let root write anywhere
    (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``), so file modes bind root too."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


@pytest.fixture
def home() -> Iterator[Path]:
    """A directory for the daemon's HOME and data."""
    folder = Path(tempfile.mkdtemp(prefix="prove-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in folder.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def run(args: list[str], home: Path, *,
        read_only_for_root: bool = False) -> subprocess.CompletedProcess[str]:
    """``tabletop run ARGS`` in the simulator, on a free loopback port, to its end."""
    drop: dict[str, Any] = {}
    if read_only_for_root and os.geteuid() == 0:
        drop = {"preexec_fn": drop_root_override}
    return subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator", "--host",
         "127.0.0.1", "--port", str(free_port()), *args],
        cwd=ROOT, env=clean_env(home), capture_output=True, text=True, timeout=60, **drop)


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


@pytest.mark.parametrize(("content", "words"), [
    (b"[web\nport = 8080\n", ("not valid TOML",)),
    (b"\xff\xfe\x00garbage\x00", ("config.toml",)),
    (b'[web]\nport = "eighty"\n', ("web.port",)),
    (b"[web]\nport = 70000\n", ("web.port",)),
    (b"[display]\nrotation = 45\n", ("display.rotation",)),
    (b"[sound]\nvolume = 11\n", ("sound", "unknown key")),
    (b'web = "everywhere"\n', ("web",)),
], ids=["unclosed-table", "binary", "port-text", "port-range", "rotation", "unknown", "not-table"])
def test_a_corrupt_config_stops_start_up_with_one_line(
    home: Path, content: bytes, words: tuple[str, ...]
) -> None:
    config = home / "config.toml"
    config.write_bytes(content)
    result = run(["--config", str(config), "--data-dir", str(home / "data")], home)
    assert_one_clear_line(result, "config error", *words)
    assert not (home / "data").exists(), "nothing is written before the config is sound"


def test_a_missing_config_file_is_named(home: Path) -> None:
    result = run(["--config", str(home / "gone.toml"), "--data-dir", str(home / "data")], home)
    assert_one_clear_line(result, "config error", "--config", "gone.toml")


def test_a_read_only_empty_data_directory_is_one_line(home: Path) -> None:
    data = home / "data"
    data.mkdir()
    data.chmod(0o555)
    result = run(["--data-dir", str(data)], home, read_only_for_root=True)
    assert_one_clear_line(result, str(data), "writable")


def test_a_read_only_data_directory_with_a_journal_is_one_line(home: Path) -> None:
    data = home / "data"
    with Companion.open(data, host_pin="2468") as companion:
        companion.create_game("unlock", ["Aiko", "Ben"])
    journal = (data / "journal.sqlite3").read_bytes()
    for path in data.iterdir():
        path.chmod(0o444)
    data.chmod(0o555)
    result = run(["--data-dir", str(data)], home, read_only_for_root=True)
    assert_one_clear_line(result, "journal", "writable")
    assert (data / "journal.sqlite3").read_bytes() == journal
