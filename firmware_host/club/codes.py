"""Club codes: the short code a player carries from box to box (``K7QM-4XP1``).

Seven random symbols and a check symbol from Crockford's base 32 (no I, L, O, U), so a code
read out loud or typed on a phone is hard to get wrong, and a mistyped one is refused at the
box at once instead of being sent to the hub and never matching.

>>> code = new_code()
>>> normalise(code.lower().replace("-", " ")) == code
True
>>> normalise("k7qm 4xp1")
'K7QM-4XP1'
>>> normalise("K7QM-4XPE")
Traceback (most recent call last):
...
ValueError: K7QM-4XPE is not a club code (a symbol is mistyped)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: What people type for the symbols Crockford's base 32 leaves out.
SIMILAR = str.maketrans({"O": "0", "I": "1", "L": "1"})
LENGTH = 8


def _check(body: str) -> str:
    digest = hashlib.sha256(body.encode()).digest()
    return ALPHABET[digest[0] % len(ALPHABET)]


def new_code() -> str:
    """A fresh code, written ``XXXX-XXXX``."""
    body = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH - 1))
    return _written(body + _check(body))


def _written(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def normalise(text: str) -> str:
    """A typed code in its written form; ``ValueError`` when it is not a code."""
    if not isinstance(text, str) or len(text) > 40:
        raise ValueError("a club code is 8 letters and digits, like K7QM-4XP1")
    plain = "".join(text.upper().split()).replace("-", "").translate(SIMILAR)
    shown = text.strip()[:20]
    if len(plain) != LENGTH or any(c not in ALPHABET for c in plain):
        raise ValueError(f"{shown} is not a club code (8 letters and digits, like K7QM-4XP1)")
    if _check(plain[:-1]) != plain[-1]:
        raise ValueError(f"{shown} is not a club code (a symbol is mistyped)")
    return _written(plain)


def code_hash(code: str, key: bytes) -> str:
    """How the hub keeps a code: keyed (the hub's own secret), so its database alone does not
    give the codes away."""
    return hmac.new(key, normalise(code).encode(), hashlib.sha256).hexdigest()
