"""One script per game page: the core scripts and the game's own, joined in their order; and
the panel's texts in a language as a script of their own.

A phone that opens a game's page for the first time would otherwise fetch each of the page's
scripts cold (the kit, the generic board, the page's own script and the game's board, four or
five files), each a request, a compile and a run of its own while the board waits. Joined, it is
one request and one compile (issue 32, ``bench/phone_render.py``). The files stay as they are in
the repository; the joined text is made once per run and served with its content's hash in the
URL, so a phone keeps it for as long as the files do not change.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from web_panel.messages import MESSAGES


@dataclass(frozen=True)
class Bundle:
    """Scripts joined into one."""

    body: bytes
    #: A short hash of ``body``, for the URL (a new version is a new URL).
    version: str


#: V8's compile hint (Chromium 136 on): every function of the script is compiled as it
#: loads, off the main thread where it can, rather than on its first call.
HINT = b"//# allFunctionsCalledOnLoad\n"


@cache
def joined(paths: tuple[Path, ...]) -> Bundle:
    """The scripts at ``paths`` as one, in that order, each headed by its file's name.

    Each script is an immediately invoked function or plain declarations, and each ends its
    last statement, so joining them changes nothing of what they do; a ``;`` between them keeps
    one that ends without one from running into the next.
    """
    parts = [HINT]
    for path in paths:
        parts.append(f"/* ---- {path.parent.name}/{path.name} ---- */\n".encode())
        parts.append(path.read_bytes().rstrip())
        parts.append(b"\n;\n")
    body = b"".join(parts)
    return Bundle(body, hashlib.sha256(body).hexdigest()[:12])


@cache
def panel_texts(lang: str) -> Bundle:
    """The panel's texts in ``lang`` as a script (``window.TabletopTexts``, read by panel.js).

    Every page would otherwise carry them in its HTML, about 20 KB a page for the phone to parse
    again each time. As a script with its content's hash in the URL, a phone fetches them once
    (the join page, usually), and a game's page carries only the game's own texts (issue 32).
    """
    texts = {key: entry[lang] for key, entry in MESSAGES.items()}
    # JSON.parse of a string: quicker for V8 than a literal this large
    literal = json.dumps(json.dumps(texts, ensure_ascii=False), ensure_ascii=False)
    body = f"window.TabletopTexts = JSON.parse({literal});\n".encode()
    return Bundle(body, hashlib.sha256(body).hexdigest()[:12])
