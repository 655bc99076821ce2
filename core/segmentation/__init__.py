"""Segmentation: the rules of segments.md, behavioural profiles computed in one vectorised pass, reasons in plain
English, runs that publish the snapshot, rollups, movements, insights and the station overview built on them."""
