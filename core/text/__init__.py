"""Text at the service's edges, one home each: sentences (wording), spreadsheet-safe CSV cells (cells) and query
values as clients send them (query)."""
