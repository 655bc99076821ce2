"""The name a station gave an uploaded file, sealed: a station names its exports as it likes
(`zanele-0829990001.csv`), so a name is personal until shown otherwise, and an import job keeps it only as an envelope
under a data key of its own (core.db.vault), as reports keep their bad rows (core.ingest.reports).

The key is named per job and sealing (`upload:<job id>:<version>`), so that a name can be sealed again under a new key
and the old one destroyed, after which no copy of the old name, in the oplog or a backup, can be read. A job's message
says the file by its upload's name (`<job id>.csv`), which `shown_message` turns back into the station's. Erasure
writes again the names that spell the erased listener (`forget_names`). Jobs stored before sealing kept the name plain
in `filename`; `seal_plain` seals them in place.
"""
from __future__ import annotations

import re
from pathlib import Path

from bson import Binary, ObjectId

from core.db.connection import key_vault
from core.ingest.models import ImportJob

UNNAMED = "the file"  # what a message says of a file whose name can no longer be read
ERASED = "(erased)"  # what a name says where it spelt an erased listener
SEPARATORS = r"[\s._-]*"  # between the words of a spelling in a file name


def key_name(job_id: ObjectId, version: str) -> str:
    """The name of the data key a job's file name is sealed under."""
    return f"upload:{job_id}:{version}"


def sealed_name(job_id: ObjectId, name: str) -> dict:
    """The fields that store the job's file name, sealed under a new key (none for no name)."""
    if not name:
        return {"sealed_filename": None, "filename_key": None}
    version = str(ObjectId())
    envelope = key_vault().seal_bytes(key_name(job_id, version), name.encode())
    return {"sealed_filename": Binary(envelope), "filename_key": version}


def opened_names(jobs: list[ImportJob]) -> list[str]:
    """The jobs' file names, unsealed together (one look-up of their keys); "" where a key was destroyed."""
    sealed = [i for i, job in enumerate(jobs) if job.sealed_filename is not None]
    opened = iter(key_vault().unseal_bytes([bytes(jobs[i].sealed_filename) for i in sealed]) if sealed else [])
    names = [job.filename or "" for job in jobs]  # stored before sealing
    for i, name in zip(sealed, opened):
        names[i] = name.decode() if name is not None else ""
    return names


def with_names(jobs: list[ImportJob]) -> list[ImportJob]:
    """The jobs, each with its file name unsealed (`name_of`), all together: a list of twenty costs one look-up of
    their keys, not twenty."""
    for job, name in zip(jobs, opened_names(jobs)):
        job.shown_name = name
    return jobs


def name_of(job: ImportJob) -> str:
    """The job's file name, unsealed once."""
    if getattr(job, "shown_name", None) is None:
        job.shown_name = opened_names([job])[0]
    return job.shown_name


def shown_message(job: ImportJob, name: str) -> str:
    """The job's message with its file called by the name the station gave it."""
    upload = Path(job.upload).name if job.upload else ""
    return job.message.replace(upload, name or UNNAMED) if upload and upload in job.message else job.message


def forget_names(company_id: int, spellings: list[str]) -> int:
    """Write again the station's file names that hold any of an erased listener's spellings (in any case, its words
    apart or joined by `-`, `_` or `.` as file names join them), each one replaced, under new keys, and destroy their
    old keys; how many names."""
    wanted = re.compile("|".join(SEPARATORS.join(map(re.escape, s.split())) for s in spellings if s.strip())
                        or "(?!)", re.IGNORECASE)
    jobs = list(ImportJob.objects(company_id=company_id).only("id", "filename", "sealed_filename", "filename_key"))
    named = [(job, name) for job, name in zip(jobs, opened_names(jobs)) if wanted.search(name)]
    for job, name in named:
        fields = sealed_name(job.id, wanted.sub(ERASED, name))
        ImportJob._get_collection().update_one({"_id": job.id}, {"$set": fields, "$unset": {"filename": ""}})
    key_vault().destroy([key_name(job.id, job.filename_key) for job, _ in named if job.filename_key])
    return len(named)


def seal_plain(company_id: int) -> int:
    """Seal the file names of the station's jobs stored before sealing, and take them out of their messages; how many
    jobs. Resumable: a job is rewritten in one update, and only jobs still plain are read."""
    jobs = ImportJob._get_collection()
    plain = list(jobs.find({"company_id": company_id, "filename": {"$exists": True}},
                           {"filename": 1, "message": 1, "upload": 1}))
    for job in plain:
        jobs.update_one({"_id": job["_id"], "filename": {"$exists": True}}, _sealed_update(job))
    return len(plain)


def _sealed_update(job: dict) -> dict:
    """The update that seals a plain job's name and says its file by its upload's name in its message."""
    name, message = job.get("filename") or "", job.get("message") or ""
    fields = {key: value for key, value in sealed_name(job["_id"], name).items() if value is not None}
    if name and job.get("upload") and name in message:
        fields["message"] = message.replace(name, Path(job["upload"]).name)
    return {"$set": fields, "$unset": {"filename": ""}} if fields else {"$unset": {"filename": ""}}
