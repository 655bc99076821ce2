"""API test helpers: keys scoped like a client's, and a station with a few segmented listeners."""
from __future__ import annotations

from dataclasses import replace

import pytest

from core.access.api_keys import create_key
from core.config import activate, active
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_listener
from tests.memory import NOW, event
from tests.openai_server import loopback_openai  # noqa: F401 - the openai_server fixture


@pytest.fixture
def key_for(app):
    """key_for(1, 2) -> headers with a key scoped to those companies; key_for(all_companies=True) for all."""

    def make(*companies: int, all_companies: bool = False) -> dict:
        _, token = create_key(list(companies), all_companies=all_companies, name="test")
        return {"X-API-Key": token}

    return make


@pytest.fixture
@kept
def station(app):
    """Company 1 with a super fan, a new listener and two dormant listeners, segmented as of NOW."""
    make_listener(1, "fan", [event(d, channel=1 + d % 2) for d in range(1, 15)], tags=["music", "vip"])
    make_listener(1, "newbie", [event(2)], tags=["music"])
    make_listener(1, "gone", [event(120)])
    make_listener(1, "quiet", [])
    segment_company(1, NOW)
    return 1


@pytest.fixture
def openai(app, openai_server):
    """The service asks the loopback OpenAI server for AI answers during the test."""
    previous = active()
    activate(replace(previous, ai_provider="openai", openai_base_url=openai_server.url, openai_api_key="sk-test",
                     openai_model="test-model"))
    yield openai_server
    activate(previous)
