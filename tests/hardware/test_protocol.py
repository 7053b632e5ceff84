"""The die / keypad line protocol: one encoder/parser (hardware/pico/protocol.py) shared by the
Pico and the host, checked against the specification in docs/hardware/protocol.md."""

from __future__ import annotations

import ast
from functools import reduce
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import ProtocolError
from hardware.pico import protocol as wire
from hardware.protocol import (
    DeviceError,
    DieRoll,
    Hello,
    KeyPress,
    Ping,
    Roll,
    decode_line,
    encode,
)

PICO = Path(wire.__file__).parent
MICROPYTHON_MODULES = {"machine", "micropython", "sys", "select", "time", "random", "protocol",
                       "firmware", "board", "hardware.pico"}

names = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
                min_size=1, max_size=24)
dice = st.integers(2, 100).flatmap(lambda f: st.tuples(st.just(f), st.integers(1, f)))
messages = st.one_of(
    dice.map(lambda fv: DieRoll(*fv)),
    st.sampled_from("0123456789ABCD*#").map(KeyPress),
    st.tuples(names, names).map(lambda nv: Hello(*nv)),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="*"),
            min_size=1, max_size=40).map(DeviceError),
)


def xor(body: bytes) -> int:
    return reduce(lambda a, b: a ^ b, body, 0)


@given(messages)
def test_every_device_message_round_trips(message) -> None:
    assert decode_line(encode(message)) == message


@given(messages)
def test_a_frame_is_body_star_xor_checksum_newline(message) -> None:
    line = encode(message)
    body, _, rest = line.rpartition(b"*")
    assert rest == b"%02X\n" % xor(body)
    assert len(line) - 1 <= wire.MAX_LINE


@given(messages, st.data())
def test_any_single_byte_change_in_the_body_is_refused(message, data) -> None:
    line = bytearray(encode(message))
    body_length = line.index(b"*")
    index = data.draw(st.integers(0, body_length - 1))
    line[index] = data.draw(st.integers(0x20, 0x7E).filter(lambda b: b != line[index]))
    with pytest.raises(ProtocolError):
        decode_line(bytes(line))


@given(st.binary(max_size=120))
def test_random_bytes_never_escape_as_anything_but_protocol_error(data: bytes) -> None:
    try:
        decode_line(data)
    except ProtocolError as exc:
        assert exc.reason in ("garbage", "checksum", "overlong", "unknown", "bad_field")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"DIE 6 4*4B", "checksum"),
        (b"DIE 6 4", "garbage"),
        (b"DIE 6 4*4a", "garbage"),
        (b"DIE*6 4*4A", "garbage"),
        (b"\xffDIE 6 4*4A", "garbage"),
        (b"D" * 70, "overlong"),
        (wire.frame("TILT 2").encode(), "unknown"),
        (wire.frame("DIE 6 7").encode(), "bad_field"),
        (wire.frame("DIE 1 1").encode(), "bad_field"),
        (wire.frame("DIE 6").encode(), "bad_field"),
        (wire.frame("KEY E").encode(), "bad_field"),
        (wire.frame("KEY #").encode(), "bad_field"),
        (wire.frame("HELLO pico").encode(), "bad_field"),
        (encode(Roll(6)), "unknown"),  # a host command is not something a device says
    ],
)
def test_bad_lines_are_refused_with_their_reason(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_line(line)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)


def test_examples_from_the_protocol_document() -> None:
    assert encode(DieRoll(6, 4)) == b"DIE 6 4*4A\n"
    assert encode(KeyPress("*")) == b"KEY STAR*%02X\n" % xor(b"KEY STAR")
    assert decode_line(b"HELLO pico-keypad 1.0*%02X\r\n" % xor(b"HELLO pico-keypad 1.0")) == \
        Hello("pico-keypad", "1.0")
    assert encode(Ping()) == b"PING*10\n"


def test_host_commands_parse_on_the_device_side() -> None:
    assert wire.decode(encode(Roll(20)).decode()) == ("ROLL", 20)
    assert wire.decode(encode(Ping()).decode()) == ("PING",)


@pytest.mark.parametrize("bad", [DieRoll(6, 0), DieRoll(1, 1), DieRoll(101, 5), KeyPress("E"),
                                 Hello("pico keypad", "1.0"), Roll(1)])
def test_encoding_an_invalid_message_is_refused(bad) -> None:
    with pytest.raises(ProtocolError):
        encode(bad)


@pytest.mark.parametrize("path", sorted(PICO.glob("*.py")), ids=lambda p: p.name)
def test_pico_code_stays_in_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, ast.AnnAssign), f"{path.name}:{node.lineno} annotation"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args)
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= MICROPYTHON_MODULES
        if isinstance(node, ast.ImportFrom):
            assert node.module in MICROPYTHON_MODULES, f"{path.name} imports {node.module}"


def test_a_line_of_exactly_64_bytes_is_accepted_and_65_is_overlong() -> None:
    longest = DeviceError("x" * (wire.MAX_LINE - len("ERR ") - 3))
    line = encode(longest)
    assert len(line) == wire.MAX_LINE + 1  # with its newline
    assert decode_line(line) == longest
    body = "ERR " + "x" * (wire.MAX_LINE - len("ERR ") - 2)
    with pytest.raises(ProtocolError) as info:
        decode_line(f"{body}*{wire.checksum(body):02X}\n")
    assert info.value.reason == "overlong"
    with pytest.raises(ProtocolError):
        encode(DeviceError("x" * 58))
