"""Which URLs a webhook may reach: https to a public address, or http to a host the operator allows
(WEBHOOK_ALLOW_HOSTS). Checked when an endpoint is saved and again at every delivery, on the addresses the name
resolves to then, and the delivery connects to the address checked (no server-side request forgery through DNS)."""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from core.config import active
from core.errors import ValidationFailed


class UrlRefused(ValidationFailed):
    """A webhook URL this service will not call."""

    @classmethod
    def because(cls, reason: str) -> UrlRefused:
        """Refused, saying why in a sentence, on the body's url field."""
        return cls.one(["json", "url"], reason)


def check_url(url: str, allow_hosts: tuple[str, ...] | None = None) -> str:
    """The URL as given when an endpoint may have it; UrlRefused otherwise. A name that does not resolve yet is
    accepted: the delivery checks it again."""
    host, port, scheme = _parts(url)
    allowed = host in (active().webhook_allow_hosts if allow_hosts is None else allow_hosts)
    if scheme == "http" and not allowed:
        raise UrlRefused.because("Use an https URL (plain http only reaches hosts the operator allows).")
    if not allowed:
        try:
            _public_addresses(host, port)
        except OSError:
            pass
    return url


def resolve_for_delivery(url: str, allow_hosts: tuple[str, ...] | None = None) -> tuple[str, str, int, str]:
    """(scheme, host, port, address to connect to) for a delivery, the address checked now; UrlRefused when the
    host resolves to a private or loopback address and is not allowed, OSError when it does not resolve."""
    host, port, scheme = _parts(url)
    allowed = host in (active().webhook_allow_hosts if allow_hosts is None else allow_hosts)
    if scheme == "http" and not allowed:
        raise UrlRefused.because("plain http to a host that is not allowed")
    addresses = _resolved(host, port) if allowed else _public_addresses(host, port)
    return scheme, host, port, addresses[0]


def _parts(url: str) -> tuple[str, int, str]:
    """Host (lower case), port and scheme of an http(s) URL without credentials; UrlRefused otherwise."""
    try:
        parts = urlsplit(str(url).strip())
        port = parts.port
    except ValueError:
        raise UrlRefused.because("This is not a URL a webhook can be sent to.") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UrlRefused.because("Give an https URL, such as https://hooks.example.com/radio.")
    if parts.username or parts.password:
        raise UrlRefused.because("Leave the user name and password out of the URL; the secret signs every delivery.")
    return parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80), parts.scheme


def _resolved(host: str, port: int) -> list[str]:
    """Every address the host resolves to now."""
    return sorted({info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


def _public_addresses(host: str, port: int) -> list[str]:
    """The host's addresses, UrlRefused when any is private, loopback, link-local or otherwise not public."""
    addresses = _resolved(host, port)
    for address in addresses:
        if not ipaddress.ip_address(address.split("%")[0]).is_global:
            raise UrlRefused.because("This URL reaches a private or loopback address, which webhooks may not call.")
    return addresses
