"""Sealing in place what a station stored before sealing was built (`flask --app wsgi encrypt`): its snapshot file
and deltas, republished sealed (core.listeners.snapshot), the plain ones deleted as any replaced file is; its
listeners' personal fields (core.listeners.sealed_profiles), their AI profiles and promotions among them (core.ai);
the messages of its interactions (core.listeners.sealed_messages); the originators its stores are keyed by, which
become keyed hashes (core.listeners.originator_keys), the listeners' with their envelopes; its import reports' bad
rows (core.ingest.reports); its saved plans and cached recommendations (core.campaigns.sealed_answers); and the
texts stored with its vectors (core.search.sealed_texts).
Station by station, each under its segment lease; a station already sealed is skipped, so a run cut short (a kill,
a deploy) resumes where it stopped when started again. Copies made before (backups, the oplog) stay plain until they
expire.
"""
from __future__ import annotations

from collections.abc import Callable

from core.ai import profile, promote
from core.audiences import store as audiences
from core.campaigns import cache, plans
from core.ingest import reports
from core.listeners import originator_keys, sealed_messages, sealed_profiles, snapshot
from core.listeners.models import InteractionBatch
from core.search import sealed_texts
from core.search.models import ListenerEmbedding
from core.search.vectors import WRITE_BATCH
from core.segmentation.models import SegmentChange
from core.segmentation.runs import segment_lease
from core.stations.companies import list_companies

KEYED_STORES = (InteractionBatch, SegmentChange, ListenerEmbedding)
"""The stores keyed by originator beside the listeners, whose documents stored before keys are keyed here."""


def encrypt_stations(said: Callable[[str], None] = lambda _: None) -> dict:
    """Seal every station's plain snapshot and texts; {"sealed": [company ids], "already": [company ids]}."""
    done: dict[str, list[int]] = {"sealed": [], "already": []}
    for company in list_companies():
        company_id = company.company_id
        with segment_lease(company_id):
            plain = snapshot.stored_plain(company_id)
            if plain:
                snapshot.publish(snapshot.current(company_id))
        listeners = sealed_profiles.seal_plain(company_id)
        ai = profile.seal_plain(company_id) + promote.seal_plain(company_id)
        batches = sealed_messages.seal_plain(company_id)
        keyed = sum(originator_keys.key_plain(store._get_collection(), company_id) for store in KEYED_STORES)
        keyed += profile.key_plain_charges(company_id) + audiences.key_plain(company_id)
        originator_keys.mark_keyed(company_id)  # readers look for keys alone from now on
        bad_rows = reports.seal_plain(company_id)
        answers = plans.PLANS.seal_plain(company_id) + cache.ANSWERS.seal_plain(company_id)
        texts = sealed_texts.seal_plain(company_id, WRITE_BATCH)
        sealed = [label for count, label in ((plain, "snapshot"), (listeners, f"{listeners:,} listeners' fields"),
                                             (ai, f"{ai:,} AI profiles and promotion histories"),
                                             (batches, f"the messages of {batches:,} interaction batches"),
                                             (keyed, f"the originators of {keyed:,} documents"),
                                             (bad_rows, f"the bad rows of {bad_rows:,} import reports"),
                                             (answers, f"{answers:,} saved plans and cached recommendations"),
                                             (texts, f"{texts:,} texts")) if count]
        done["sealed" if sealed else "already"].append(company_id)
        if sealed:
            said(f"Station {company_id}: {' and '.join(sealed)} sealed")
    return done
