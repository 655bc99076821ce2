"""What an import job keeps of what the station sent, sealed in one envelope per job: the name it gave its file
(`zanele-0829990001.csv`), the file's columns as its mapping names them, the workbook's sheet as the station typed
it, and a failure's own words (which quote the file's columns or values). A file exported without its header row
has a listener's row for columns, so each of these is personal until shown otherwise, and a job stores them only as
an envelope under a data key of its own (core.personal.vault), as reports keep their bad rows (core.ingest.reports).

The key is named per job and sealing (`upload:<job id>:<version>`): the envelope is sealed again under the same key
when its mapping or its failure is written, and under a new key when erasure writes it again without the listener
(`forget_names`), after which the old key is destroyed and no copy of the old envelope, in the oplog or a backup, can
be read. A list of jobs is unsealed together (`with_opened`: one look-up of their keys). A job's plain message names
the problem and never quotes the file; its message as shown is the sealed one, with the file called by the name the
station gave it (`shown_message`).

Jobs stored before kept the name plain in `filename` or alone in `sealed_filename`, and the mapping, the sheet and a
failure's message plain: they still read, and `seal_plain` seals them in place.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

import bson
from bson import Binary, ObjectId

from core.errors import ValidationFailed
from core.ingest.models import ImportJob
from core.ingest.workbook_bounds import WorkbookRefused
from core.personal.spellings import Spellings
from core.personal.vault_connection import key_vault

UNNAMED = "the file"  # what a message says of a file whose name can no longer be read
ERASED = "(erased)"  # what a name, a column or a sheet says where it spelt an erased listener
SEPARATORS = r"[\s._-]*"  # between the words of a spelling in a file name
LEGACY = ("filename", "sealed_filename", "filename_key", "mapping", "sheet")
"""The fields of a job stored before its envelope held all of what the station sent."""
READ = ("id", "company_id", "state", "message", "upload", "sealed", "sealed_key", *LEGACY)


@dataclass(frozen=True)
class Sealed:
    """What a job keeps sealed."""

    name: str = ""  # the file's name as the station gave it
    mapping: tuple[tuple[str, str | None], ...] = ()  # (column, field or None), as given
    sheet: str = ""  # a workbook's sheet, as the station typed it
    message: str = ""  # a failure's own words; the file called by its upload's name

    def encoded(self) -> bytes:
        return bson.encode({"name": self.name, "mapping": [list(pair) for pair in self.mapping],
                            "sheet": self.sheet, "message": self.message})

    @classmethod
    def decoded(cls, data: bytes) -> Sealed:
        found = bson.decode(data)
        return cls(found.get("name", ""), tuple((column, name) for column, name in found.get("mapping", [])),
                   found.get("sheet") or "", found.get("message", ""))


def key_name(job_id: ObjectId, version: str) -> str:
    """The name of the data key a job's envelope is sealed under."""
    return f"upload:{job_id}:{version}"


def sealed_fields(job_id: ObjectId, contents: Sealed, version: str | None = None) -> dict:
    """The fields that store the job's envelope, sealed under the key of `version` (a new one when None)."""
    version = version or str(ObjectId())
    envelope = key_vault().seal_bytes(key_name(job_id, version), contents.encoded())
    return {"sealed": Binary(envelope), "sealed_key": version}


def pairs_of(mapping: dict | None) -> tuple[tuple[str, str | None], ...]:
    """A {column: field or None} as the envelope keeps it."""
    return tuple((mapping or {}).items())


def sealing(job: ImportJob, contents: Sealed, fresh: bool = False) -> dict:
    """The update (mongoengine's keywords) that stores `contents` as the job's envelope under its key (a new one
    with `fresh`), the fields it was stored in before taken out."""
    fields = sealed_fields(job.id, contents, None if fresh else job.sealed_key or job.filename_key)
    update = {f"set__{name}": value for name, value in fields.items()}
    update.update({f"unset__{name}": 1 for name in LEGACY})
    if _said_plain(job):
        update["set__message"] = ""  # now sealed, in `contents`
    return update


def opened(jobs: list[ImportJob]) -> list[Sealed]:
    """What the jobs keep sealed, unsealed together (one look-up of their keys); a job whose key was destroyed keeps
    nothing readable."""
    envelopes = [(i, bytes(job.sealed if job.sealed is not None else job.sealed_filename)) for i, job in
                 enumerate(jobs) if job.sealed is not None or job.sealed_filename is not None]
    found = dict(zip((i for i, _ in envelopes),
                     key_vault().unseal_bytes([envelope for _, envelope in envelopes]) if envelopes else []))
    return [_contents(job, i in found, found.get(i)) for i, job in enumerate(jobs)]


def _contents(job: ImportJob, sealed: bool, data: bytes | None) -> Sealed:
    """A job's contents from its envelope (`data`, None when its key was destroyed), or as stored before."""
    if job.sealed is not None:
        return Sealed.decoded(data) if data is not None else Sealed()
    name = (data.decode() if data is not None else "") if sealed else job.filename or ""
    return Sealed(name, tuple((pair["column"], pair["field"]) for pair in job.mapping or []), job.sheet or "",
                  job.message if _said_plain(job) else "")


def _said_plain(job: ImportJob) -> bool:
    """Whether the job is stored as before and failed with a message, which may quote its file."""
    return job.sealed is None and job.state == "failed" and bool(job.message)


def with_opened(jobs: list[ImportJob]) -> list[ImportJob]:
    """The jobs, each with what it keeps sealed unsealed (`contents`), all together: a list of twenty costs one
    look-up of their keys, not twenty."""
    for job, contents in zip(jobs, opened(jobs)):
        job.opened = (_envelope(job), contents)
    return jobs


def contents(job: ImportJob) -> Sealed:
    """What the job keeps sealed, unsealed once (again when its envelope has changed since)."""
    known = getattr(job, "opened", None)
    if known is None or known[0] != _envelope(job):
        with_opened([job])
    return job.opened[1]


def _envelope(job: ImportJob) -> bytes | None:
    held = job.sealed if job.sealed is not None else job.sealed_filename
    return bytes(held) if held is not None else None


def name_of(job: ImportJob) -> str:
    """The job's file name as the station gave it; "" where it can no longer be read."""
    return contents(job).name


def given_mapping(job: ImportJob) -> dict | None:
    """{column: field or None} as given, or None for a file whose columns are the field names."""
    return dict(contents(job).mapping) or None


def sheet_of(job: ImportJob) -> str | None:
    """The workbook's sheet the job reads, as the station typed it; None for its first."""
    return contents(job).sheet or None


def shown_message(job: ImportJob, name: str) -> str:
    """The job's message as the station reads it: a failure's own words (else its plain message), its file called by
    the name the station gave it."""
    message = contents(job).message or job.message
    upload = Path(job.upload).name if job.upload else ""
    return message.replace(upload, name or UNNAMED) if upload and upload in message else message


def seal_failure(job: ImportJob, message: str) -> None:
    """Seal a failure's own words (they may quote the file's columns, values or sheet) in the job's envelope, unless
    an erasure has written the envelope again meanwhile (its key would be made anew for words it had replaced)."""
    ImportJob.objects(id=job.id, sealed_key=job.sealed_key).update_one(
        **sealing(job, replace(contents(job), message=message)))


def problem_of(failure: Exception) -> str:
    """A failure said without the file's words, as a job stores it plain: a workbook's bound as it is (it names the
    bound, never the file), else the kind of problem."""
    if isinstance(failure, WorkbookRefused):
        return "; ".join(item["msg"] for item in failure.items)
    if isinstance(failure, ValidationFailed):
        return "The mapping does not fit the file's columns."
    return "The file cannot be read."


def forget_names(company_id: int, spellings: list[str], patterns: Spellings | None = None) -> int:
    """Write again what the station's jobs keep sealed (file names, the columns their mappings name, sheets, failures'
    words) where it holds any of an erased listener's spellings (in any case, its words apart or joined by `-`, `_`
    or `.` as file names join them; and any of `patterns`), each one replaced, under new keys, and destroy their old
    keys; how many jobs."""
    wanted = re.compile("|".join(SEPARATORS.join(map(re.escape, s.split())) for s in spellings if s.strip())
                        or "(?!)", re.IGNORECASE)

    def scrubbed(text: str) -> str:
        text = wanted.sub(ERASED, text)
        return patterns.scrub(text, ERASED)[0] if patterns is not None and text else text

    jobs = list(ImportJob.objects(company_id=company_id).only(*READ))
    named = [(job, again) for job, held in zip(jobs, opened(jobs)) if (again := _scrubbed(held, scrubbed)) != held]
    for job, again in named:
        ImportJob.objects(id=job.id).update_one(**sealing(job, again, fresh=True))
    key_vault().destroy([key_name(job.id, version) for job, _ in named
                         if (version := job.sealed_key or job.filename_key)])
    return len(named)


def _scrubbed(held: Sealed, scrubbed) -> Sealed:
    """The contents with every spelling replaced in each text."""
    return replace(held, name=scrubbed(held.name), sheet=scrubbed(held.sheet), message=scrubbed(held.message),
                   mapping=tuple((scrubbed(column), name) for column, name in held.mapping))


def seal_plain(company_id: int) -> int:
    """Seal what the station's jobs stored before their envelope kept plain or apart (a name plain or sealed alone,
    a mapping, a sheet, a failure's message), each job in one update, its name's key kept as the envelope's; how
    many jobs. Resumable: only jobs without an envelope are read."""
    jobs = list(ImportJob.objects(company_id=company_id, sealed__exists=False).only(*READ))
    for job, held in zip(jobs, opened(jobs)):
        ImportJob.objects(id=job.id, sealed__exists=False).update_one(**sealing(job, held))
    return len(jobs)
