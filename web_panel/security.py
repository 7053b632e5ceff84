"""Who is asking: seat tokens, host sessions, and the CSRF guard on every state-changing request.

- A **player** holds a seat token (from ``companion.claim_seat``) in an HttpOnly SameSite=Strict
  cookie per game; the seat always comes from the token, never from the request body.
- The **host** logs in with the PIN shown on the OLED (rate-limited per client) and gets a
  host-session cookie, also HttpOnly SameSite=Strict.
- Every POST must carry the header ``X-Requested-With: tabletop`` (a page on another site cannot
  send a custom header without a CORS preflight, which the panel never grants) and, when the
  browser names an ``Origin`` or ``Sec-Fetch-Site``, it must be this site.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, request

from web_panel.errors import ApiError
from web_panel.live_streams import seat_for_token
from web_panel.panel_state import PinLimiter, panel

#: A host PIN: 6 to 12 ASCII digits (other scripts' digits are refused, not converted).
PIN = re.compile(r"[0-9]{6,12}", re.ASCII)
#: A panel path a redirect may go to: a single leading slash and plain URL characters only.
SAFE_PATH = re.compile(r"/[A-Za-z0-9._~!$&'()*+,;=:@/?%-]{0,500}", re.ASCII)
#: How deep a request's JSON may nest (the panel's own bodies nest two levels).
MAX_NESTING = 20

CSRF_HEADER = "X-Requested-With"
CSRF_VALUE = "tabletop"
HOST_COOKIE = "tt_host"
SEAT_COOKIE_PREFIX = "tt_seat_"
SEAT_COOKIE_AGE = 60 * 60 * 24 * 30
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def seat_cookie_name(game_id: int) -> str:
    """The cookie that holds this phone's seat token for ``game_id``."""
    return f"{SEAT_COOKIE_PREFIX}{game_id}"


def seat_of(game_id: int) -> int | None:
    """The seat this request's token holds in ``game_id`` (``None``: a spectator)."""
    return seat_holding(game_id, request.cookies.get(seat_cookie_name(game_id)) or "")


def seat_holding(game_id: int, token: str) -> int | None:
    """The seat ``token`` holds in ``game_id`` now (``None``: none)."""
    return seat_for_token(panel().session, game_id, token)


def require_seat(game_id: int) -> int:
    """The requester's seat in ``game_id``, or a 401/403 refusal."""
    token = request.cookies.get(seat_cookie_name(game_id))
    if not token:
        raise ApiError(401, "no_seat", "You have no seat in this game: join it first.")
    seat = seat_of(game_id)
    if seat is None:
        raise ApiError(
            403, "bad_seat_token",
            "Your seat token is not valid for this game (the host may have re-issued the seat).",
        )
    return seat


def set_seat_cookie(response: Response, game_id: int, token: str) -> None:
    """Keep the seat token on the phone: HttpOnly, SameSite=Strict, for a month."""
    response.set_cookie(
        seat_cookie_name(game_id), token, max_age=SEAT_COOKIE_AGE, httponly=True,
        samesite="Strict", path="/",
    )


def is_host() -> bool:
    """Whether this request comes from a logged-in host."""
    token = request.cookies.get(HOST_COOKIE)
    return token is not None and len(token) <= 200 and panel().session.is_host_session(token)


def require_host() -> None:
    """Refuse with 401 unless the requester is the logged-in host."""
    if not is_host():
        raise ApiError(401, "host_only", "Only the host can do this: log in with the PIN.")


def check_pin(given: object) -> None:
    """Check a PIN attempt against the companion's, after the rate limit; raise on refusal."""
    state = panel()
    verify_pin(given, str(state.session.host_pin), state.pin_limiter)


def verify_pin(given: object, expected: str, limiter: PinLimiter) -> None:
    """Check a PIN attempt against ``expected`` after ``limiter``'s limit; raise on refusal."""
    wait = limiter.attempt(request.remote_addr or "?")
    if wait is not None:
        raise ApiError(
            429, "too_many_tries",
            f"Too many PIN attempts: try again in {int(wait) + 1} seconds.",
            retry_after=int(wait) + 1,
        )
    if not isinstance(given, str) or not PIN.fullmatch(given.strip()):
        raise ApiError(400, "bad_pin", "The PIN is the 6 to 12 digits 0–9 shown on the "
                                       "companion's screen.")
    if not hmac.compare_digest(given.strip().encode("ascii"), expected.encode("ascii")):
        raise ApiError(
            403, "wrong_pin", "That is not the host PIN shown on the companion's screen."
        )


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 naming what was wrong (not UTF-8, not JSON, nested
    too deep, not an object)."""
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApiError(400, "malformed", f"The request body is not UTF-8 text (byte "
                                         f"{error.start}).") from None
    if _nesting(text) > MAX_NESTING:
        raise ApiError(400, "malformed", f"The request body's JSON is nested deeper than "
                                         f"{MAX_NESTING} levels.")
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed", "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "malformed", "The request body must be a JSON object.")
    return body


def _nesting(text: str) -> int:
    """How deep brackets nest in ``text`` (strings included: an upper bound, cheap)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def safe_next(target: str | None, default: str = "/") -> str:
    """``target`` if it is a path of this panel, else ``default``: never an address elsewhere.

    Browsers drop tabs and newlines from URLs and read a backslash as a slash, so a target
    whose cleaned form could leave the site — ``//host``, ``/\\host``, ``https:…``, encoded
    slashes — is refused as a whole rather than repaired.

    >>> [safe_next(t) for t in ("/games/3?x=1", "//evil.example", "/\tevil", "/%2F%2Fx")]
    ['/games/3?x=1', '/', '/', '/']
    """
    if not isinstance(target, str) or not SAFE_PATH.fullmatch(target):
        return default
    lowered = target.lower()
    if target.startswith("//") or "%2f" in lowered[:4] or "%5c" in lowered or "%09" in lowered:
        return default
    return target


def _same_origin(origin: str) -> bool:
    parts = urlsplit(origin)
    return f"{parts.scheme}://{parts.netloc}" == request.host_url.rstrip("/") and bool(parts.netloc)


#: Name endings a home network gives its devices (mDNS, routers' local zones).
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".home.arpa", ".localdomain")


def host_allowed(host: str, extra: Iterable[str] = ()) -> bool:
    """Whether the panel answers to ``host`` (the Host header without its port).

    IP addresses, ``localhost``, single-label names and local-network names are the panel's
    own; any other name is refused, so a web page that re-binds its domain to the box's address
    (DNS rebinding) cannot talk to the panel as if it were the same site.

    >>> [host_allowed(h) for h in ("192.168.1.23", "[fe80::1]", "tabletop.local", "evil.example")]
    [True, True, True, False]
    """
    name = host.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name == "localhost" or (name and "." not in name):
        return True
    if name.endswith(LOCAL_SUFFIXES):
        return True
    return name in {e.lower() for e in extra}


def install_csrf_guard(app: Flask) -> None:
    """Refuse requests to a foreign host name, and every state-changing request that lacks the
    custom header or comes cross-site."""

    extra = list(app.config.get("ALLOWED_HOSTS", []))
    public = app.config.get("PUBLIC_URL")
    if public:
        extra.append(urlsplit(str(public)).hostname or "")

    @app.before_request
    def _host_guard() -> None:
        host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
        if not host_allowed(host, extra):
            raise ApiError(403, "foreign_host",
                           f"This panel does not answer to the name {host!r}; open it by the "
                           "address shown on the companion's screen.")

    @app.before_request
    def _csrf_guard() -> None:
        if request.method in SAFE_METHODS:
            return
        origin = request.headers.get("Origin")
        if origin is not None and not _same_origin(origin):
            raise ApiError(403, "cross_origin", f"Requests from {origin} are not accepted.")
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise ApiError(403, "cross_origin", "Requests from another site are not accepted.")
        if request.headers.get(CSRF_HEADER) != CSRF_VALUE:
            raise ApiError(
                403, "csrf",
                f"State-changing requests must send the header {CSRF_HEADER}: {CSRF_VALUE}.",
            )


def phone_description() -> str:
    """A short description of the requesting phone from its browser's ``User-Agent`` (shown to
    the host beside the seat it holds), e.g. ``iPhone · Safari``."""
    agent = request.headers.get("User-Agent", "")
    system = next((name for key, name in DEVICES if key in agent), "")
    browser = next((name for key, name in BROWSERS if key in agent), "")
    return " · ".join(part for part in (system, browser) if part) or "a browser"


DEVICES = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
           ("Mac OS X", "Mac"), ("CrOS", "Chromebook"), ("Linux", "Linux"))
BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("CriOS", "Chrome"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari"))
