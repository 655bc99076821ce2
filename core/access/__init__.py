"""Who may read what: API keys (hashes only, scoped to companies), local dashboard accounts (hashed passwords,
versioned sessions) and where the counters of failed sign-ins live (throttle)."""
