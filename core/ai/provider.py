"""The AI provider interface (docs/decisions.md §1): `local` by default, `openai` when AI_PROVIDER says so. Every
answer names its provider and model and counts its tokens (0 for local), which the credit ledger records."""
from __future__ import annotations

from typing import Protocol

from core.ai import local, local_insights
from core.ai.openai_provider import OpenAIProvider
from core.config import Settings, active


class Provider(Protocol):
    """What the AI features need of a provider."""

    name: str

    def profile(self, company_id: int, originator: str, declared: dict) -> dict:
        """{"values": {inferred_* -> {value, confidence, evidence} | None, inferred_interests -> [...]},
        "provider", "model", "tokens_in", "tokens_out"}."""

    def insights(self, facts: dict) -> dict:
        """{"headline", "segments": [{segment, meaning, actions, priority}], "provider", "model", "tokens_in",
        "tokens_out"} from core.ai.facts.station_facts."""


class LocalProvider:
    """Offline and deterministic, from the station's own data."""

    name = "local"

    def profile(self, company_id: int, originator: str, declared: dict) -> dict:
        return local.infer_listener(company_id, originator)

    def insights(self, facts: dict) -> dict:
        return {**local_insights.write_insights(facts), "provider": self.name, "model": local_insights.MODEL,
                "tokens_in": 0, "tokens_out": 0}


def provider(settings: Settings | None = None) -> Provider:
    """The provider the settings choose."""
    settings = settings or active()
    return OpenAIProvider(settings) if settings.ai_provider == "openai" else LocalProvider()
