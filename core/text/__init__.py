"""Text at the service's edges, one home each: sentences (wording), spreadsheet-safe CSV cells (cells),
query values as clients send them (query) and text the database can keep (storable)."""
