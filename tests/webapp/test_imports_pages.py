"""The import page over the test client (issue 47): a hostile workbook is refused on the page with the bound it
passes and nothing is kept; a mapping step sent without its form's fields is answered with a page, never a 500."""
from __future__ import annotations

import io

import pytest

from core.ingest.jobs import ImportJob
from core.segmentation.runs import segment_company
from tests import workbooks
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def signed_in(auth, producer):
    auth.login(producer)
    return auth.client


def staged(client, body: bytes, name: str = "channels.xlsx", kind: str = "channels"):
    return client.post("/stations/1/imports", data={"kind": kind, "file": (io.BytesIO(body), name)},
                       content_type="multipart/form-data")


@pytest.mark.parametrize(("name", "said"), [("sparse", "memory"), ("inflating", "100 times"),
                                            ("billion laughs", "document type")])
def test_a_hostile_workbook_is_refused_on_the_page_naming_the_bound_and_nothing_is_kept(signed_in, name, said):
    answer = staged(signed_in, workbooks.HOSTILE[name]())
    assert answer.status_code == 422 and answer.mimetype == "text/html"
    assert said in answer.get_data(as_text=True)
    assert ImportJob.objects(company_id=1).count() == 0


def test_a_mapping_step_sent_without_its_fields_is_answered_with_the_page(signed_in):
    answer = staged(signed_in, workbooks.plain())
    assert answer.status_code == 303
    job = ImportJob.objects(company_id=1).first()
    for fragment in ({}, {"HX-Request": "true"}):
        sent = signed_in.post(f"/stations/1/imports/{job.id}/preview", data={}, headers=fragment)
        assert sent.status_code in (200, 422) and sent.mimetype == "text/html"


def test_the_page_lists_the_locations_the_map_does_not_know_as_written(signed_in):
    make_listener(1, "27820000001", [event(3)], location="Joburg CBD")
    make_listener(1, "27820000002", [event(3)], location="Soweto")
    segment_company(1, NOW)
    page = signed_in.get("/stations/1/imports").get_data(as_text=True)
    unknown = page.split('data-testid="places-unknown"')[1].split("</table>")[0]
    assert "Joburg CBD" in unknown and "Soweto" not in unknown
    assert "Soweto" in page.split('data-testid="places-placed"')[1]
