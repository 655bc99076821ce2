"""Who may read what: API keys (hashes only, scoped to companies) and local dashboard accounts (hashed passwords)."""
