"""Host and Origin: a request is served only under a name this server answers to.

DNS rebinding: a hostile page at ``http://attacker.example:8080`` points its name at
127.0.0.1 once loaded, and then its scripts reach this server as same-origin requests,
with ``Host: attacker.example:8080``. With ``--open`` no token stands in the way, so
every request (pages and API, reads and writes) is checked first:

- its ``Host`` must be an IP address (v4 or v6; no page can rebind a name to it, since
  the address *is* the origin), ``localhost`` or a name under ``.localhost``, or one of
  the configured public names (``ALLOWED_HOSTS``: $RECORDER_ALLOWED_HOSTS, comma
  separated; ``.example.org`` takes every name under it, ``*`` any name): 400 otherwise;
- a write (any method but GET, HEAD and OPTIONS) that sends ``Origin`` must come from
  this server: the Origin's host is the request's (and its port, when Host names one),
  or a configured public name (a proxy may pass on its upstream address as Host): 403
  otherwise, ``Origin: null`` included.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlsplit

from flask import Flask, current_app, request

from recorder.errors import ForeignHost, ForeignOrigin

READS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}
HOW = "name it in RECORDER_ALLOWED_HOSTS (comma separated) where the server starts"


def configured_hosts(*also: str) -> tuple[str, ...]:
    """``RECORDER_ALLOWED_HOSTS`` as lower-case names (``records.example.org, .hall.lan``),
    and ``also`` (the name ``recorder serve --host`` was given)."""
    return host_names(os.environ.get("RECORDER_ALLOWED_HOSTS", ""), *also)


def host_names(*values: str) -> tuple[str, ...]:
    """Names given one by one or comma separated, in lower case."""
    names = (name.strip().lower() for value in values for name in value.split(","))
    return tuple(name for name in names if name)


def init_app(app: Flask) -> None:
    configured = app.config.get("ALLOWED_HOSTS", configured_hosts())
    app.config["ALLOWED_HOSTS"] = host_names(configured) if isinstance(configured, str) else host_names(*configured)
    app.before_request(check_host_and_origin)


def check_host_and_origin() -> None:
    host, port = split_host(request.host)
    if host is None or not served_name(host, current_app.config["ALLOWED_HOSTS"]):
        raise ForeignHost(f"this server does not answer to the host {request.host!r}; if it should, {HOW}")
    origin = request.headers.get("Origin")
    if request.method not in READS and origin is not None and not same_server(origin, host, port):
        raise ForeignOrigin(f"a write from the origin {origin!r} is not from this server ({request.host!r})")


def split_host(value: str) -> tuple[str | None, int | None]:
    """A Host header's name (lower case, IPv6 without brackets) and port; (None, None) if it is no host."""
    try:
        parts = urlsplit(f"//{value}")
        return parts.hostname, parts.port
    except ValueError:
        return None, None


def served_name(host: str, configured: tuple[str, ...]) -> bool:
    if host == "localhost" or host.endswith(".localhost") or is_address(host):
        return True
    return "*" in configured or public_name(host, configured)


def public_name(host: str, configured: tuple[str, ...]) -> bool:
    """One of the names configured, or under one given as ``.example.org``."""
    return any(host == name or (name.startswith(".") and host.endswith(name)) for name in configured)


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def same_server(origin: str, host: str, port: int | None) -> bool:
    try:
        parts = urlsplit(origin)
        origin_host, origin_port = parts.hostname, parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    if origin_host is None or parts.scheme not in DEFAULT_PORTS:
        return False  # "null" (a sandboxed frame, a file), or no web origin at all
    if origin_host == host:
        return port is None or origin_port == port
    return public_name(origin_host, current_app.config["ALLOWED_HOSTS"])  # behind a proxy: Host is its upstream
