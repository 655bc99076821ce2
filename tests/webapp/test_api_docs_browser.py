"""The browsable API docs render from local assets only (no CDN) under the Content-Security-Policy, in a real
browser."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.db


def test_api_docs_render_every_operation_from_local_assets(page, screenshot, live_url, csp_violations):
    outside = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(live_url) and not request.url.startswith("data:") else None)
    page.goto("/api/v1/docs")
    page.get_by_text("/api/v1/segments/{company_id}/summary").first.wait_for()
    assert page.get_by_text("/api/v1/listeners/{company_id}/{originator}").count() >= 1
    page.get_by_text("/api/v1/segments/{company_id}/summary").first.click()
    page.get_by_role("button", name="Try it out").first.wait_for()
    screenshot(page, "api-docs")
    assert outside == []
    assert csp_violations == []
