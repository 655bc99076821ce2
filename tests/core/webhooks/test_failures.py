"""A delivery that fails says why in words an operator acts on (core.webhooks.failures), never an exception's class
name: a host name not found, a connection refused, a timeout, an answer that is not 2xx; the delivery log and the
webhooks page show those words."""
from __future__ import annotations

import errno
import http.client
import socket
import ssl

import pytest

from core.webhooks.failures import answer_in_words, failure_in_words

URL = "https://hooks.example.invalid/in"


@pytest.mark.parametrize("failure, words", [
    (socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
     "the host name hooks.example.invalid could not be found"),
    (ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"),
     "connection refused by hooks.example.invalid:443 (nothing listens there)"),
    (TimeoutError("timed out"), "timed out: no answer within 10 s"),
    (http.client.RemoteDisconnected("Remote end closed connection without response"),
     "hooks.example.invalid:443 closed the connection without answering"),
    (OSError(errno.EHOSTUNREACH, "No route to host"),
     "hooks.example.invalid:443 could not be reached (no route to it from this server)"),
    (http.client.BadStatusLine("SSH-2.0"), "hooks.example.invalid:443 answered something that is not HTTP"),
    (OSError(errno.EIO, "Input/output error"),
     "the connection to hooks.example.invalid:443 failed (input/output error)"),
])
def test_a_failed_connection_is_said_in_words_without_the_exception_s_name(failure, words):
    said = failure_in_words(failure, URL, 10.0)
    assert said == words and type(failure).__name__ not in said


def test_a_certificate_that_does_not_verify_names_the_host_and_the_reason():
    failure = ssl.SSLCertVerificationError(1, "certificate verify failed")
    failure.verify_message = "certificate has expired"
    assert failure_in_words(failure, URL, 10.0) == (
        "the certificate of hooks.example.invalid could not be verified (certificate has expired)")


def test_an_answer_that_is_not_2xx_names_its_status_in_words():
    assert answer_in_words(204) is None
    assert answer_in_words(500) == "the endpoint answered 500 (Internal Server Error)"
    assert answer_in_words(301).startswith("the endpoint answered 301 (Moved Permanently): redirects are not")
    assert answer_in_words(599) == "the endpoint answered 599"


def test_a_port_given_in_the_url_is_the_one_named():
    assert failure_in_words(ConnectionRefusedError(), "http://127.0.0.1:9/hooks", 10.0) == (
        "connection refused by 127.0.0.1:9 (nothing listens there)")
