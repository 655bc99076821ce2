"""Text at the service's edges, one home each: sentences (wording), spreadsheet-safe CSV cells (cells),
query values as clients send them (query), JSON as clients and files send it (strict_json) and text the database can
keep (storable)."""
