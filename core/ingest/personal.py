"""The ingest package's stores, declared to the registry (core.personal.registry) field by field: the fields of its
upload jobs and of its import reports that their erasing stores do not declare (core.ingest.staging, which erases a
job's file and what its envelope keeps, and core.ingest.reports, which seals a report's bad rows), and the mappings
stations confirmed (core.ingest.remembered).

What a station sends is personal until shown otherwise, and a file's header row is what the station sent: a file
exported without one has a listener's row for headers. So a job keeps the columns its mapping names, its sheet and a
failure's words (which quote the file) sealed with its file's name (core.ingest.sealed_names), a remembered mapping
is found by a keyed hash of its headers and keeps its columns sealed, and a report says the kind of its source, never
the path it was given. The fields stored plain before are declared personal all the same, and each store's
`migrate` seals them, so that the audit (tests/core/personal/test_registry_scan.py) names any that holds a
listener's number.
"""
from __future__ import annotations

from core.ingest import remembered
from core.ingest.importer import forget_sources
from core.personal.registry import Store, declare

JOB_FIELDS = declare(Store(
    "import_job_fields", "import_jobs",
    personal=("mapping",  # stored before: the file's columns, plain (sealed since; `seal_plain` seals these)
              "sheet"),  # stored before: a workbook's sheet as the station named it, plain (likewise)
    free=("_id", "company_id", "kind", "filename_key", "sealed_key", "actor", "state", "lines", "done", "report_id",
          "segment_changes", "started_at", "finished_at", "date_order", "dry_run", "check_report_id",
          "upload",  # DATA_DIR/uploads/<job id> and the format's suffix
          "message")))  # names the problem, never quotes the file (a failure's words are sealed)
"""A job's fields beside its envelope, declared with their erasure (core.ingest.staging)."""
MAPPINGS = declare(Store(
    "import_mappings", "import_mappings", erase=remembered.forget_listener, migrate=remembered.seal_plain,
    personal=("headers",  # keyed: a hash of the station and its headers under the server's key
              "sealed",  # the file's columns, each with its field, sealed
              "pairs"),  # stored before: the same, plain (`seal_plain` seals them)
    free=("_id", "company_id", "kind", "sealed_key", "date_order", "updated_at")))
REPORT_FIGURES = declare(Store(
    "import_report_figures", "import_reports", migrate=forget_sources,
    free=("_id", "company_ids", "kind", "at", "rows", "imported", "duplicates", "suppressed", "errors_key",
          "error_count", "warnings", "warning_count", "bad_rows_by_field", "warnings_by_field", "listeners_new",
          "listeners_updated", "dry_run", "segment_changes_expected",
          "source")))  # the kind of source (`file`, `upload:<job id>`): a path kept before is forgotten by `migrate`
"""A report's counts and warnings (a warning names our field and the rule it broke, never the value); its bad rows
are declared with their sealing (core.ingest.reports)."""
