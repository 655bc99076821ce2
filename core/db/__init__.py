"""The database: one connection per process, the embedded SecantusDB process, its quirks, leases and the registry
of stored documents. Knows no listener, station or segment; every package above declares its own documents."""
