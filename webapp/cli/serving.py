"""CLI commands (placeholder)."""
COMMANDS = []
