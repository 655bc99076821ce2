"""Dataset generator and benchmark runner (see bench/README.md)."""
