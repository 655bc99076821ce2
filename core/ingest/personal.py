"""The ingest package's stores, declared to the registry (core.personal.registry) field by field: the fields of its
upload jobs and of its import reports that their erasing stores do not declare (core.ingest.staging, which erases a
job's file and name, and core.ingest.reports, which seals a report's bad rows), and the mappings stations confirmed.

What a station sends is personal until shown otherwise, and a file's header row is what the station sent: a file
exported without one has a listener's row for headers, so the columns a mapping names are personal (and a
failed mapping's message quotes them). Those kept plain are declared personal here all the same, so that the audit
(tests/core/personal/test_registry_scan.py) names them when one holds a listener's number.
"""
from __future__ import annotations

from core.personal.registry import Store, declare

JOB_FIELDS = declare(Store(
    "import_job_fields", "import_jobs",
    personal=("mapping",  # plain: the file's column names, each with its field
              "sheet"),  # plain: a workbook's sheet, as the station named it
    free=("_id", "company_id", "kind", "filename_key", "actor", "state", "lines", "done", "report_id",
          "segment_changes", "started_at", "finished_at", "date_order", "dry_run", "check_report_id")))
"""A job's fields beside its file's name, upload and message, declared with their erasure (core.ingest.staging)."""
MAPPINGS = declare(Store(
    "import_mappings", "import_mappings",
    personal=("pairs",  # plain: the file's column names, each with its field
              "headers"),  # plain: an unkeyed SHA-1 of the column names, which confirms a guess of them
    free=("_id", "company_id", "kind", "date_order", "updated_at")))
REPORT_FIGURES = declare(Store(
    "import_report_figures", "import_reports",
    personal=("source",),  # plain: the path an import was given; the CLI's is the file as the operator named it
    free=("_id", "company_ids", "kind", "at", "rows", "imported", "duplicates", "suppressed", "errors_key",
          "error_count", "warnings", "warning_count", "bad_rows_by_field", "warnings_by_field", "listeners_new",
          "listeners_updated", "dry_run", "segment_changes_expected")))
"""A report's counts and warnings (a warning names our field and the rule it broke, never the value); its bad rows
are declared with their sealing (core.ingest.reports)."""
