"""Die / keypad line protocol, shared verbatim by the Pico firmware and the host.

Written in the subset of Python that MicroPython runs (no typing, no dataclasses, no
f-strings). Specification: docs/hardware/protocol.md. A frame is one line::

    BODY*CK\n

BODY is printable ASCII (0x20-0x7E) without '*'; CK is the XOR of BODY's bytes as two
upper-case hex digits (NMEA style). A line is at most MAX_LINE bytes before the newline.
"""

MAX_LINE = 64
VERSION = "1.0"
KEYS = "0123456789ABCD*#"
KEY_NAMES = {"*": "STAR", "#": "HASH"}
NAMED_KEYS = {"STAR": "*", "HASH": "#"}
MIN_FACES = 2
MAX_FACES = 100
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
HEX = "0123456789ABCDEF"

# Reasons a line is refused (the host counts dropped lines by these).
GARBAGE = "garbage"
CHECKSUM = "checksum"
OVERLONG = "overlong"
UNKNOWN = "unknown"
BAD_FIELD = "bad_field"


class FrameError(ValueError):
    """A line that is not a valid frame; ``reason`` is one of the reason constants."""

    def __init__(self, reason, message):
        # super(), not ValueError.__init__: MicroPython's built-in exception types have no
        # __init__ attribute, so that call raises AttributeError there.
        super().__init__(message)
        self.reason = reason


def checksum(body):
    """XOR of the body's character codes (0-255)."""
    total = 0
    for char in body:
        total ^= ord(char)
    return total


def frame(body):
    """The full line for ``body``, newline included."""
    if len(body) + 3 > MAX_LINE:
        raise FrameError(OVERLONG, "body of %d characters is too long" % len(body))
    for char in body:
        if char == "*" or not 0x20 <= ord(char) <= 0x7E:
            raise FrameError(GARBAGE, "character %r is not allowed in a body" % char)
    return "%s*%02X\n" % (body, checksum(body))


def unframe(line):
    """The body of one received line (str or bytes, without or with its newline)."""
    if isinstance(line, (bytes, bytearray)):
        for code in line:
            if code > 0x7E:
                raise FrameError(GARBAGE, "non-ASCII byte 0x%02X" % code)
        line = bytes(line).decode()
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise FrameError(OVERLONG, "line of %d characters exceeds %d" % (len(line), MAX_LINE))
    for char in line:
        if not 0x20 <= ord(char) <= 0x7E:
            raise FrameError(GARBAGE, "control character 0x%02X" % ord(char))
    star = line.find("*")
    if star < 0 or star != len(line) - 3:
        raise FrameError(GARBAGE, "no '*XX' checksum at the end of %r" % line)
    body = line[:star]
    digits = line[star + 1 :]
    if digits[0] not in HEX or digits[1] not in HEX:
        raise FrameError(GARBAGE, "checksum %r is not two upper-case hex digits" % digits)
    if int(digits, 16) != checksum(body):
        raise FrameError(
            CHECKSUM, "checksum %s does not match %02X for %r" % (digits, checksum(body), body)
        )
    return body


def _number(text, low, high, what):
    if not text or len(text) > 3 or not text.isdigit():
        raise FrameError(BAD_FIELD, "%s %r is not a number" % (what, text))
    value = int(text)
    if not low <= value <= high:
        raise FrameError(BAD_FIELD, "%s %d is not within %d-%d" % (what, value, low, high))
    return value


def _name(text, what):
    if not text or len(text) > 24:
        raise FrameError(BAD_FIELD, "%s %r must be 1-24 characters" % (what, text))
    for char in text:
        if char not in NAME_CHARS:
            raise FrameError(BAD_FIELD, "%s %r has character %r" % (what, text, char))
    return text


def key_name(key):
    """The wire name of a keypad key: '0'-'9', 'A'-'D', 'STAR', 'HASH'."""
    if len(key) != 1 or key not in KEYS:
        raise FrameError(BAD_FIELD, "key %r is not one of %s" % (key, KEYS))
    return KEY_NAMES.get(key, key)


def encode_die(faces, value):
    """``DIE faces value``: the die (or the device's RNG) shows ``value`` of ``faces``."""
    _number(str(faces), MIN_FACES, MAX_FACES, "faces")
    _number(str(value), 1, faces, "value")
    return frame("DIE %d %d" % (faces, value))


def encode_key(key):
    """``KEY k``: keypad key ``k`` was pressed."""
    return frame("KEY " + key_name(key))


def encode_hello(device, version):
    """``HELLO device version``: sent at start-up and in answer to PING."""
    return frame("HELLO %s %s" % (_name(device, "device"), _name(version, "version")))


def encode_error(text):
    """``ERR text``: the device refused a command."""
    return frame("ERR " + text)


def encode_roll(faces):
    """Host to device: ``ROLL faces``, roll a die of ``faces`` and answer with DIE."""
    _number(str(faces), MIN_FACES, MAX_FACES, "faces")
    return frame("ROLL %d" % faces)


def encode_ping():
    """Host to device: ``PING``, answered with HELLO."""
    return frame("PING")


def parse(body):
    """A body as a tuple: ('DIE', faces, value), ('KEY', key), ('HELLO', device, version),
    ('ERR', text), ('ROLL', faces) or ('PING',)."""
    words = body.split(" ")
    kind = words[0]
    if kind == "DIE" and len(words) == 3:
        faces = _number(words[1], MIN_FACES, MAX_FACES, "faces")
        return ("DIE", faces, _number(words[2], 1, faces, "value"))
    if kind == "KEY" and len(words) == 2:
        name = words[1]
        key = NAMED_KEYS.get(name, name)
        if len(key) != 1 or key not in KEYS or key in KEY_NAMES:
            if name not in NAMED_KEYS:
                raise FrameError(BAD_FIELD, "key %r is not a keypad key" % name)
        return ("KEY", key)
    if kind == "HELLO" and len(words) == 3:
        return ("HELLO", _name(words[1], "device"), _name(words[2], "version"))
    if kind == "ERR" and len(words) >= 2:
        return ("ERR", body[4:])
    if kind == "ROLL" and len(words) == 2:
        return ("ROLL", _number(words[1], MIN_FACES, MAX_FACES, "faces"))
    if kind == "PING" and len(words) == 1:
        return ("PING",)
    if kind in ("DIE", "KEY", "HELLO", "ERR", "ROLL", "PING"):
        raise FrameError(BAD_FIELD, "%s with %d fields" % (kind, len(words) - 1))
    raise FrameError(UNKNOWN, "unknown message %r" % kind)


def decode(line):
    """`parse` of `unframe`: a received line as a tuple, or FrameError."""
    return parse(unframe(line))
