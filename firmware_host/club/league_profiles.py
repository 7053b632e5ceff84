"""The league's club profiles: made and claimed from phones on the hub's pages, their codes kept
keyed-hashed, each phone's token (hashed) to see and renew its code."""

from __future__ import annotations

import hmac
import logging
import secrets
import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager

from firmware_host.club.codes import code_hash, new_code, normalise
from firmware_host.club.league_rows import Profile, now
from firmware_host.errors import NotAllowed

log = logging.getLogger(__name__)

MAX_NAME = 40


class LeagueProfiles:
    """The profiles of :class:`~firmware_host.club.league.League`."""

    _db: sqlite3.Connection
    _lock: threading.RLock
    _key: bytes
    #: One write transaction on the league's connection (``League._transaction``).
    _transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def create_profile(self, name: str) -> tuple[Profile, str, str]:
        """A new club profile: it, its club code and the token of the phone that made it."""
        name = _check_name(name)
        profile = Profile(secrets.token_hex(4), name)
        code, token = new_code(), secrets.token_urlsafe(24)
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM profiles WHERE folded = ?",
                          (name.casefold(),)).fetchone():
                raise NotAllowed(f"the club already has a player called {name!r}: choose "
                                 "another name, or claim that profile with its code")
            db.execute("INSERT INTO profiles (id, name, folded, code_hash, created)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (profile.id, name, name.casefold(), code_hash(code, self._key), now()))
            db.execute("INSERT INTO phones (token_hash, profile, created) VALUES (?, ?, ?)",
                       (self._token_hash(token), profile.id, now()))
        log.info("league: profile %s made", profile.id)
        return profile, code, token

    def claim(self, code: str) -> tuple[Profile, str]:
        """A phone takes a profile with its code; returns the profile and the phone's token."""
        try:
            normalise(code)
        except ValueError as error:
            raise NotAllowed(str(error)) from None
        token = secrets.token_urlsafe(24)
        with self._transaction() as db:
            profile = self._profile_of_code(db, code)
            if profile is None:
                raise NotAllowed("no club profile has this code")
            db.execute("INSERT INTO phones (token_hash, profile, created) VALUES (?, ?, ?)",
                       (self._token_hash(token), profile.id, now()))
        return profile, token

    def renew_code(self, profile: Profile) -> str:
        """A new code for the profile; the old one stops working (at boxes too)."""
        code = new_code()
        with self._transaction() as db:
            db.execute("UPDATE profiles SET code_hash = ? WHERE id = ?",
                       (code_hash(code, self._key), profile.id))
        return code

    def profile_of_phone(self, token: str | None) -> Profile | None:
        if not token or len(token) > 200:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT p.id, p.name FROM phones f JOIN profiles p ON p.id = f.profile"
                " WHERE f.token_hash = ?", (self._token_hash(token),)).fetchone()
        return Profile(row["id"], row["name"]) if row else None

    def _profile_of_code(self, db: sqlite3.Connection, code: str) -> Profile | None:
        try:
            hashed = code_hash(code, self._key)
        except ValueError:
            return None
        row = db.execute("SELECT id, name FROM profiles WHERE code_hash = ?",
                         (hashed,)).fetchone()
        return Profile(row["id"], row["name"]) if row else None

    def _token_hash(self, token: str) -> str:
        return hmac.new(self._key, token.encode(), "sha256").hexdigest()


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise NotAllowed("a club profile needs a name")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise NotAllowed(f"a name has at most {MAX_NAME} characters")
    return name
