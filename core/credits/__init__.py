"""Credits: each station's account of AI credits, an append-only ledger from which its balance can always be
recomputed, atomic charges (refunded when the work then fails), admin loads and pauses, and the usage history."""
