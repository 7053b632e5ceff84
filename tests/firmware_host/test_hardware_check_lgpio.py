"""`tabletop check-hardware` where lgpio cannot start: lgpio opens its notification pipe in the
working directory at import, so run as the service user from a directory it cannot write (the
install guide's ``sudo -u tabletop ...`` from a home directory) the import raises OSError. The
check reports it with what to do instead of a traceback (seen in deploy/pi-install-check)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.config import Config
from firmware_host.hardware_check import check_pin_factory


@pytest.fixture
def lgpio_failing_like_in_a_read_only_directory(tmp_path: Path) -> Iterator[None]:
    # The first thing the real lgpio.py does at import, failing as it fails there.
    (tmp_path / "lgpio.py").write_text(
        "open('.lgd-nfy-3', 'rb')  # the notify pipe lgpio could not create here\n")
    sys.path.insert(0, str(tmp_path))
    saved = sys.modules.pop("lgpio", None)
    try:
        yield
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("lgpio", None)
        if saved is not None:
            sys.modules["lgpio"] = saved


def test_lgpio_that_cannot_start_is_reported_with_advice_not_a_traceback(
        lgpio_failing_like_in_a_read_only_directory: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path / "..")
    (finding,) = check_pin_factory(Config())
    assert not finding.ok
    assert "cannot start here" in finding.detail and ".lgd-nfy-3" in finding.detail
    assert "cd /tmp" in finding.advice
