"""Placeholder; replaced by the columnar snapshot."""


def clear_cache() -> None:
    """Forget every cached snapshot."""
