"""AI inference: the provider interface (`local`, offline and grounded in the station's own data; `openai`, any
OpenAI-compatible endpoint), the AI listener profile and its 30-day cache, promotion of inferred demographics, and
segment insights; every new inference paid for through core.credits."""
