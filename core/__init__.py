"""Domain of the Listener Segmentation Service: every rule lives here, nothing of Flask does.

Arranged by capability in layers that import only downwards. LAYERS below is the one statement of their order:
tests/test_layering.py enforces it on every import, and docs/architecture.md draws its picture from it.
"""

LAYERS = (
    ("core.config", "core.errors", "core.clock", "core.measured", "core.calibration", "core.logs", "core.outbound"),
    ("core.db", "core.text"),
    ("core.personal",),
    ("core.stations", "core.access", "core.credits", "core.places"),
    ("core.listeners",),
    ("core.churn",),
    ("core.segmentation",),
    ("core.history",),
    ("core.explore",),
    ("core.intelligence",),
    ("core.search",),
    ("core.ai",),
    ("core.ingest",),
    ("core.audiences", "core.campaigns"),
    ("core.privacy",),
    ("core.webhooks",),
    ("core.alerts",),
    ("core.demo",),
    ("core.oncall",),
    ("core.service",),
)
"""The layers of core, lowest first: a unit (a package, or a module at core's top) imports only units of lower
layers and itself. The settings, errors, clock and logs sit at the bottom because every layer reads them (the job
queue stamps the request id of core.logs on each job); the service's processes sit at the top because they wire every
capability together."""
