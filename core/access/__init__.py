"""Who may read what: API keys (hashes only, scoped to companies), local dashboard accounts (hashed passwords,
versioned sessions), users of the campaign platform (its OAuth 2.0 grants, their tokens kept server-side, the stations
of their campaigns), which of the two a sign-in is (sign_in) and where the counters of failed sign-ins live
(throttle)."""
