"""Which addresses a webhook may reach, judged by one rule when an endpoint is saved and again at delivery: every IPv6
spelling of an IPv4 address (mapped, NAT64, 6to4, IPv4-compatible, SIIT, Teredo) is judged on the IPv4 address it
leads to, and multicast, reserved, unspecified, site-local and the rest that is not public are refused in both
families. Literal addresses resolve to themselves, so no network is needed."""
from __future__ import annotations

import socket
from ipaddress import IPv4Address, IPv6Address, ip_address

import pytest

from core.config import Settings
from core.errors import ValidationFailed
from core.webhooks.urls import UrlRefused, check_url, resolve_for_delivery


def teredo(server: str, client: str) -> str:
    """The Teredo address (2001::/32) of a relay and the host behind it, the client's bits inverted as RFC 4380
    writes them."""
    value = (0x2001_0000 << 96) | (int(IPv4Address(server)) << 64) | (~int(IPv4Address(client)) & 0xFFFF_FFFF)
    return str(IPv6Address(value))


def url_of(address: str) -> str:
    """An https webhook URL written with the address itself as its host."""
    return f"https://[{address}]/in" if ":" in address else f"https://{address}/in"


def assert_refused_when_saved_and_at_delivery(address: str) -> None:
    """Both checks refuse it, each with a sentence on the body's url field."""
    for check in (check_url, resolve_for_delivery):
        with pytest.raises(UrlRefused) as refused:
            check(url_of(address), allow_hosts=())
        assert refused.value.items[0]["loc"] == ["body", "url"], check.__name__


def assert_accepted_when_saved_and_at_delivery(address: str) -> None:
    """Saved as given, and delivered to that very address."""
    assert check_url(url_of(address), allow_hosts=()) == url_of(address)
    scheme, _, port, connect_to = resolve_for_delivery(url_of(address), allow_hosts=())
    assert (scheme, port, ip_address(connect_to)) == ("https", 443, ip_address(address))


@pytest.mark.parametrize("address", [
    pytest.param("64:ff9b::7f00:1", id="nat64"), pytest.param("2002:7f00:1::", id="6to4"),
    pytest.param("::127.0.0.1", id="ipv4-compatible"), pytest.param("::ffff:127.0.0.1", id="ipv4-mapped"),
    pytest.param("::ffff:0:7f00:1", id="siit-translated"), pytest.param(teredo("8.8.8.8", "127.0.0.1"), id="teredo")])
def test_an_ipv6_spelling_of_loopback_is_refused(address):
    assert_refused_when_saved_and_at_delivery(address)


@pytest.mark.parametrize("address", ["224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1"])
def test_multicast_is_refused_in_both_families(address):
    assert_refused_when_saved_and_at_delivery(address)


@pytest.mark.parametrize("address", [
    pytest.param("::ffff:10.0.0.1", id="mapped-10.0.0.1"), pytest.param("64:ff9b::a00:1", id="nat64-10.0.0.1"),
    pytest.param("2002:c0a8:101::", id="6to4-192.168.1.1"), pytest.param("2002:a9fe:a9fe::", id="6to4-metadata"),
    pytest.param("::ffff:0:a9fe:a9fe", id="siit-metadata"), pytest.param("::10.0.0.1", id="compatible-10.0.0.1"),
    pytest.param("64:ff9b::6440:1", id="nat64-shared-100.64.0.1")])
def test_an_ipv6_spelling_of_a_private_or_link_local_ipv4_address_is_refused(address):
    assert_refused_when_saved_and_at_delivery(address)


@pytest.mark.parametrize("server, client, public", [
    ("65.54.227.120", "192.168.1.1", False), ("10.0.0.1", "8.8.8.8", False), ("65.54.227.120", "8.8.8.8", True)])
def test_a_teredo_address_is_public_only_when_its_server_and_its_client_are(server, client, public):
    if public:
        assert_accepted_when_saved_and_at_delivery(teredo(server, client))
    else:
        assert_refused_when_saved_and_at_delivery(teredo(server, client))


def test_nat64_for_local_use_is_refused_whatever_address_it_carries():
    assert_refused_when_saved_and_at_delivery("64:ff9b:1::808:808")


@pytest.mark.parametrize("address", [
    "0.0.0.0", "::", "127.0.0.1", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "fd00::1", "169.254.169.254",
    "fe80::1", "fec0::1", "240.0.0.1", "255.255.255.255", "100.64.0.1", "192.0.2.1", "2001:db8::1"])
def test_an_unspecified_loopback_private_link_local_site_local_or_reserved_address_is_refused(address):
    assert_refused_when_saved_and_at_delivery(address)


@pytest.mark.parametrize("address", [
    pytest.param("8.8.8.8", id="ipv4"), pytest.param("2606:4700:4700::1111", id="ipv6"),
    pytest.param("64:ff9b::808:808", id="nat64-8.8.8.8"), pytest.param("2002:808:808::", id="6to4-8.8.8.8"),
    pytest.param("::ffff:8.8.8.8", id="mapped-8.8.8.8")])
def test_a_public_address_is_accepted_in_each_spelling_that_leads_to_it(address):
    assert_accepted_when_saved_and_at_delivery(address)


def test_a_name_with_one_spelling_of_loopback_among_its_public_addresses_is_refused(monkeypatch):
    answers = ["8.8.8.8", "2606:4700:4700::1111", "64:ff9b::7f00:1"]
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, **_: [
        (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in answers])
    assert_refused_when_saved_and_at_delivery("hooks.example.com")


def test_the_refusal_says_in_a_sentence_what_webhooks_may_not_call():
    with pytest.raises(UrlRefused) as refused:
        resolve_for_delivery("https://[64:ff9b::7f00:1]/in", allow_hosts=())
    message = refused.value.items[0]["msg"]
    assert message[0].isupper() and message.endswith(".") and "private or loopback address" in message


@pytest.mark.parametrize("url, host", [("http://127.0.0.1:9000/in", "127.0.0.1"),
                                       ("https://[64:ff9b::7f00:1]/in", "64:ff9b::7f00:1")])
def test_a_host_the_operator_allows_is_reached_whatever_its_address(url, host):
    assert check_url(url, allow_hosts=(host,)) == url
    assert resolve_for_delivery(url, allow_hosts=(host,))[3] == host


@pytest.mark.parametrize("url", ["http://hooks.example.com/in", "https://127.0.0.1/in", "https://10.1.2.3/in",
                                 "https://[::1]/in", "https://localhost/in", "https://169.254.169.254/latest",
                                 "ftp://hooks.example.com/", "https://user:pw@hooks.example.com/"])
def test_a_url_that_is_not_https_to_a_public_address_is_refused(url):
    with pytest.raises(ValidationFailed):
        check_url(url, allow_hosts=())


def test_http_to_an_allowed_host_is_accepted_and_https_to_a_public_name_too():
    assert check_url("http://127.0.0.1:9000/in", allow_hosts=("127.0.0.1",))
    assert check_url("https://hooks.example.com/in", allow_hosts=())


def test_the_hosts_plain_http_may_reach_are_read_from_webhook_allow_hosts():
    settings = Settings.from_env({"WEBHOOK_ALLOW_HOSTS": " 127.0.0.1, Hooks.Internal "})
    assert settings.webhook_allow_hosts == ("127.0.0.1", "hooks.internal")
    assert Settings.from_env({}).webhook_allow_hosts == ()
