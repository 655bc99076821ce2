"""The service's own processes: start-up and shut-down of the connections (startup), the job runner of the worker
process (worker) and what it schedules each station's day (daily). The top layer of core: it imports every capability
below it and nothing imports it but the edges (api, webapp, cli)."""
