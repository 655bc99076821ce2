"""What the people on call read: health and readiness (health) and the Prometheus figures of a host (metrics)."""
