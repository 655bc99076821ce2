"""The demo station: a deterministic South African station (people, histories, catalogue) written through the
ingest path, and the demo login and API key that `make run` prints."""
