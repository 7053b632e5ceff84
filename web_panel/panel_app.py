"""The panel's Flask class: a request whose Host header names no usable URL still gets a page.

Werkzeug binds each request's URL map to its Host header, and a name it cannot encode (a label
over 63 characters, an empty label as in ``a..b``) leaves Flask with no URL adapter: every page's
``url_for`` then fails, in the error page too, and the client got a 500. A name it can bind but
not decode (``xn--``) failed later, where a page builds its own address. Here such a request is
bound to a neutral name instead (the panel's links are relative, so they do not depend on it)
and answered as the bad request it is: a 400 page or JSON error that names the header.
"""

from __future__ import annotations

from flask import Flask, Request
from werkzeug.exceptions import BadHost, HTTPException
from werkzeug.routing import MapAdapter

#: The name an unusable Host header is replaced by, to build the panel's (relative) links.
NEUTRAL_HOST = "localhost"


class PanelFlask(Flask):
    """Flask, with a URL adapter for every request (see the module's docstring)."""

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        if request is None:
            return super().create_url_adapter(request)
        try:
            adapter = super().create_url_adapter(request)
            # the page's own address decodes the name again (IDNA), which fails on some names
            # binding let through ("xn--")
            _ = request.host_url
            return adapter
        except (HTTPException, ValueError):
            shown = request.environ.get("HTTP_HOST", "")[:40]
            request.routing_exception = BadHost(
                f"The Host header ({shown!r}{'…' if len(shown) == 40 else ''}) is not a name "
                "this panel can answer to; open it by the address shown on the companion's "
                "screen.")
            return self.url_map.bind(
                NEUTRAL_HOST, script_name=request.root_path or None,
                url_scheme=request.scheme, default_method=request.method,
                path_info=request.path, query_args=request.args)
