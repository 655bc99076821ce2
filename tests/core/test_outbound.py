"""The one TLS context every outbound request shares: made once, and still checking certificates and host names."""
from __future__ import annotations

import ssl

from core.outbound import tls_context


def test_the_shared_context_is_made_once_and_checks_certificates_and_host_names():
    context = tls_context()
    assert tls_context() is context
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0  # the system's authorities are loaded
