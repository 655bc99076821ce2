"""Fixtures of the AI tests: the loopback OpenAI server (`openai_server`) for the `openai` provider."""
from tests.openai_server import loopback_openai  # noqa: F401 - registers the fixture openai_server here
