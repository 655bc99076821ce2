"""API keys (docs/decisions.md §2), the error shapes (§3), health and the OpenAPI document."""
from __future__ import annotations

import pytest

from core.access.api_keys import check_admin, revoke_key
from core.errors import Forbidden

pytestmark = pytest.mark.db

OVERVIEW = ["/api/v1/segments/{c}/summary", "/api/v1/segments/{c}", "/api/v1/segments/{c}/insights",
            "/api/v1/segments/{c}/tags"]


@pytest.mark.parametrize("path", OVERVIEW)
def test_missing_key_is_401(client, app, path):
    response = client.get(path.format(c=1))
    assert response.status_code == 401
    assert "X-API-Key" in response.get_json()["detail"]


def test_unknown_key_is_401(client, app):
    assert client.get("/api/v1/segments/1/summary", headers={"X-API-Key": "lss_nope"}).status_code == 401


def test_revoked_key_is_401(client, station, key_for):
    headers = key_for(1)
    from core.access.api_keys import list_keys

    revoke_key(list_keys()[0].prefix)
    assert client.get("/api/v1/segments/1/summary", headers=headers).status_code == 401


@pytest.mark.parametrize("path", OVERVIEW)
def test_key_of_company_1_reads_nothing_of_company_2(client, station, key_for, path):
    from core.segmentation.runs import segment_company
    from tests.factories import make_listener
    from tests.memory import event

    make_listener(2, "other", [event(1)], name="Secret Person")
    segment_company(2)
    response = client.get(path.format(c=2), headers=key_for(1))
    assert response.status_code == 403
    assert "Secret" not in response.get_data(as_text=True)


def test_403_does_not_tell_whether_the_other_company_exists(client, station, key_for):
    from tests.factories import make_company

    make_company(2)
    existing = client.get("/api/v1/segments/2/summary", headers=key_for(1))
    missing = client.get("/api/v1/segments/777/summary", headers=key_for(1))
    assert (existing.status_code, existing.get_json()) == (missing.status_code, missing.get_json())


def test_key_for_all_companies_reads_any_company(client, station, key_for):
    assert client.get("/api/v1/segments/1/summary", headers=key_for(all_companies=True)).status_code == 200


def test_non_integer_company_id_is_422_with_the_detail_array(client, app, key_for):
    response = client.get("/api/v1/segments/abc/summary", headers=key_for(1))
    assert response.status_code == 422
    detail = response.get_json()["detail"]
    assert detail[0]["loc"] == ["path", "company_id"]
    assert {"loc", "msg", "type"} <= detail[0].keys()


def test_admin_check_needs_the_configured_admin_key():
    check_admin("s3cret", "s3cret")
    with pytest.raises(Forbidden):
        check_admin("wrong", "s3cret")
    with pytest.raises(Forbidden):
        check_admin(None, "s3cret")


def test_admin_endpoints_are_disabled_when_admin_key_is_unset():
    with pytest.raises(Forbidden, match="ADMIN_KEY is not configured"):
        check_admin("anything", None)


def test_unknown_api_path_is_json_404(client, app, key_for):
    response = client.get("/api/v1/nothing-here", headers=key_for(1))
    assert response.status_code == 404
    assert response.get_json() == {"detail": "Not found"}


def test_health_reports_each_part(client, app):
    body = client.get("/health").get_json()
    assert body["status"] == "ok" and body["database"] == "ok" and body["vector_store"] == "ok"
    assert "detail" not in body  # nothing fails
    assert body["vectors"]["model"].startswith("local:") and body["vectors"]["stored"] == 0


def test_health_is_503_naming_the_database_when_it_is_down(test_env, tmp_path):
    import subprocess
    import time

    from core.db.embedded import free_port, port_answers, server_command
    from webapp import create_app

    port = free_port()
    proc = subprocess.Popen([server_command(), "--host", "127.0.0.1", "--port", str(port), "--storage-path",
                             str(tmp_path / "db"), "--log-level", "ERROR"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not port_answers(port):
            time.sleep(0.1)
        env = {**test_env, "MONGODB_URI": f"mongodb://127.0.0.1:{port}/?directConnection=true&serverSelectionTimeoutMS=1000"}
        app = create_app({"ENV": env, "TESTING": True})
        proc.terminate()
        proc.wait(timeout=30)
        response = app.test_client().get("/health")
        assert response.status_code == 503
        assert response.get_json()["database"] == "unreachable"
    finally:
        proc.kill()
        from webapp import create_app as recreate

        recreate({"ENV": test_env, "TESTING": True})  # reconnect the session's default alias


def test_openapi_document_is_version_2_0_0_with_the_key_scheme(client, app):
    spec = client.get("/api/v1/openapi.json").get_json()
    assert spec["info"]["version"] == "2.0.0"
    assert spec["components"]["securitySchemes"]["APIKeyHeader"]["name"] == "X-API-Key"
    assert "/api/v1/segments/{company_id}/summary" in spec["paths"]
    assert spec["security"] == [{"APIKeyHeader": []}]
    assert spec["paths"]["/health"]["get"]["security"] == []


def test_docs_page_loads_its_assets_locally(client, app):
    page = client.get("/api/v1/docs").get_data(as_text=True)
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in page
    assert "https://" not in page and "http://" not in page
    asset = client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js")
    assert asset.status_code == 200
    asset.close()
