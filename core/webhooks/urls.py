"""Which URLs a webhook may reach: https to a public address, or http to a host the operator allows
(WEBHOOK_ALLOW_HOSTS). Checked when an endpoint is saved and again at every delivery, on the addresses the name
resolves to then, and the delivery connects to the address checked (no server-side request forgery through DNS)."""
from __future__ import annotations

import socket
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network
from urllib.parse import urlsplit

from core.config import active
from core.errors import ValidationFailed

# IPv6 prefixes whose last 32 bits are the IPv4 address a translator delivers to (ipaddress itself unwraps the
# mapped, 6to4 and Teredo forms): NAT64's well-known prefix (RFC 6052), SIIT's IPv4-translated form (RFC 6145) and the
# deprecated IPv4-compatible form ::a.b.c.d (RFC 4291). ::1 in it reads as 0.0.0.1, refused like loopback itself.
_CARRY_IPV4 = (ip_network("64:ff9b::/96"), ip_network("::ffff:0:0:0/96"), ip_network("::/96"))
# NAT64 for a network's own use (RFC 8215): what it translates to is the operator's choice, so never public to us.
_LOCAL_NAT64 = ip_network("64:ff9b:1::/48")


class UrlRefused(ValidationFailed):
    """A webhook URL this service will not call."""

    @classmethod
    def because(cls, reason: str) -> UrlRefused:
        """Refused, saying why in a sentence, on the body's url field."""
        return cls.one(["body", "url"], reason)


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
    host resolves to an address that is not public (`is_public`) and is not allowed, OSError when it does not
    resolve."""
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
    """The host's addresses, UrlRefused when any is not public: one address a request may reach inside is enough."""
    addresses = _resolved(host, port)
    for address in addresses:
        if not is_public(ip_address(address.split("%")[0])):
            raise UrlRefused.because("This URL reaches a private or loopback address (or a multicast or reserved "
                                     "one), which webhooks may not call; give an https URL on a public address.")
    return addresses


def is_public(address: IPv4Address | IPv6Address) -> bool:
    """Whether a connection to the address reaches the public internet. An IPv6 spelling of an IPv4 address (mapped,
    NAT64, 6to4, Teredo, IPv4-compatible) is judged on the IPv4 addresses it leads to, since `is_global` passes
    64:ff9b::7f00:1 while a NAT64 gateway delivers it to 127.0.0.1."""
    if isinstance(address, IPv6Address):
        if address in _LOCAL_NAT64:
            return False
        carried = _carried_ipv4(address)
        if carried:
            return all(_plainly_public(inner) for inner in carried)
    return _plainly_public(address)


def _carried_ipv4(address: IPv6Address) -> tuple[IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address leads to through a translator or tunnel; none for a native address (and
    for ::, which stays unspecified)."""
    if address.ipv4_mapped is not None:
        return (address.ipv4_mapped,)
    if address.teredo is not None:
        return address.teredo  # the relay (server) and the host behind it (client): both are reached
    if address.sixtofour is not None:
        return (address.sixtofour,)
    if int(address) and any(address in prefix for prefix in _CARRY_IPV4):
        return (IPv4Address(int(address) & 0xFFFFFFFF),)
    return ()


def _plainly_public(address: IPv4Address | IPv6Address) -> bool:
    """The address's own standing, in either family: `is_global` alone lets multicast through (224.0.0.1 is not
    in Python's private list), so every kind of address that is not a unicast host on the internet is named."""
    special = (address.is_multicast, address.is_unspecified, address.is_reserved, address.is_loopback,
               address.is_link_local, address.is_private, getattr(address, "is_site_local", False))
    return address.is_global and not any(special)
