"""Saved audiences (docs/decisions.md §8): created from a theme like a custom segment and saved with the strategy that
found them (queries, filters, min_score, limit, provider), listed without members, read with members enriched, refreshed
by re-running that same strategy (never new queries), deleted; expired once past `expires_at`, still readable, until
a refresh sets a new one. Creating and refreshing are charged as "audience", the audience id as the subject."""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from pymongo.errors import DuplicateKeyError

from core.audiences import campaign as campaigns
from core.audiences import texts
from core.audiences.arms import HOLDOUT_LIMITS, HOLDOUT_PERCENT, contactable, split
from core.audiences.custom import made_queries
from core.audiences.matching import Matched, match, per_query
from core.audiences.members import enriched, live_rows, trait_counts
from core.audiences.models import Audience
from core.audiences.rules import (
    AUDIENCE_LIMIT,
    AUDIENCE_LIMITS,
    DESCRIPTION_MAX,
    EXPIRY_DAYS,
    EXPIRY_LIMITS,
    MIN_SCORE,
    NAME_MAX,
    THEME_MAX,
    Problems,
    filter_params,
)
from core.audiences.stored import as_read, as_stored, with_keys
from core.clock import as_utc, utcnow
from core.credits import charges
from core.errors import AudienceNotFound, Conflict
from core.explore.filters import ListenerFilter, parse_filters
from core.explore.operations import Selection, select
from core.explore.records import reachable
from core.listeners import snapshot
from core.listeners.snapshot import Snapshot
from core.search.search import coverage
from core.stations.companies import get_company
from core.stations.models import Company

OPERATION = "audience"
ID_BYTES = 8  # 11 URL-safe characters
log = logging.getLogger(__name__)

MembersChanged = Callable[[int, dict, dict], None]
_after_members: list[MembersChanged] = []


def after_members_change(callback: MembersChanged) -> None:
    """Call `callback(company_id, audience, {"joined": [...], "left": [...]})` after an audience's members are saved
    (created or refreshed), so that packages above (events to other systems) follow them; registered at start-up.
    The lists name the target arm only, and `held_out` says how many members the holdout keeps (core.audiences.arms).
    A failing callback is logged, never fails the audience."""
    if callback not in _after_members:
        _after_members.append(callback)


def _members_changed(company_id: int, doc: dict, changes: dict) -> None:
    """Tell the callbacks of the target arm's changes only, and how many members are held out: nobody in the
    holdout is ever contacted through us."""
    changes = {"joined": contactable(doc, changes["joined"])[0], "left": contactable(doc, changes["left"])[0],
               "held_out": contactable(doc, [m["originator"] for m in doc["members"]])[1]}
    for callback in _after_members:
        try:
            callback(company_id, doc, changes)
        except Exception:  # noqa: BLE001 - the audience is saved; what follows it must not fail it
            log.exception("after the members of audience %s of company %s changed", doc.get("audience_id"), company_id)


def create_audience(company_id: int, name: str, theme: str, description: str | None = None,
                    limit: int = AUDIENCE_LIMIT, min_score: float = MIN_SCORE, expiry_days: int = EXPIRY_DAYS,
                    flt: ListenerFilter | None = None, queries: list[str] | None = None,
                    holdout_percent: int = HOLDOUT_PERCENT, campaign: dict | None = None,
                    plan_id: str | None = None) -> dict:
    """Find the theme's listeners as a custom segment does and save them with the strategy; the detail, plus what
    it cost; `holdout_percent` of the members (at random, core.audiences.arms) are held out of the campaign, whose
    window and goal (core.audiences.campaign) may be recorded now or later; `plan_id`: the plan it came from. 409
    when the company already has an audience of that name (compared trimmed, ignoring case)."""
    asked = _checked(name=name, theme=theme, description=description, limit=limit, min_score=min_score,
                     expiry_days=expiry_days, queries=queries, holdout_percent=holdout_percent)
    flt = flt or ListenerFilter()
    sel, now = select(company_id, flt), _now()
    asked["campaign"] = campaigns.checked(campaign, sel.snap, made_on=campaigns.made_day(now, sel.company.timezone)
                                          if campaign else None)
    asked["plan_id"] = campaigns.checked_plan_id(plan_id)
    _refuse_taken(company_id, asked["name"])
    audience_id = secrets.token_urlsafe(ID_BYTES)
    with charges.charge(company_id, OPERATION, audience_id) as bill:
        made = made_queries(company_id, asked["theme"], asked["description"], asked.pop("queries"))
        bill.record(provider=made["provider"], model=made["model"], tokens_in=made["tokens_in"],
                    tokens_out=made["tokens_out"])
        found = match(sel, made["queries"], asked["limit"], asked["min_score"])
        doc = _new(company_id, audience_id, asked, made, filter_params(flt), _stored(sel, found), now)
        _insert(as_stored(company_id, doc), doc["name"])
    _members_changed(company_id, doc, {"joined": [m["originator"] for m in doc["members"]], "left": []})
    return {**detail(doc, sel.snap, sel.company), **coverage(sel), **_spent(made, bill)}


def list_audiences(company_id: int) -> dict:
    """Every audience of the company, newest first, without members."""
    get_company(company_id)
    snap = snapshot.current(company_id)
    docs = sorted(as_read(company_id, list(Audience._get_collection().find({"company_id": company_id}))),
                  key=lambda d: d["created_at"], reverse=True)
    audiences = [summary(doc, snap) for doc in docs]
    return {"company_id": company_id, "total": len(audiences), "audiences": audiences}


def get_audience(company_id: int, audience_id: str) -> dict:
    """One audience with its members enriched with their profiles and how many of them are reachable."""
    doc = stored_audience(company_id, audience_id)
    return detail(doc, snapshot.current(company_id), get_company(company_id))


def refresh_audience(company_id: int, audience_id: str) -> dict:
    """Re-run the saved strategy (its queries and filters, not new ones) and answer the detail with who joined, who
    left and how many stayed; a new `expires_at` makes an expired audience active again."""
    doc = stored_audience(company_id, audience_id)
    strategy = doc["strategy"]
    sel = select(company_id, parse_filters(strategy["filters"]))
    with charges.charge(company_id, OPERATION, audience_id) as bill:
        bill.record(provider=strategy["provider"], model=strategy["model"], tokens_in=0, tokens_out=0)
        found = match(sel, strategy["queries"], strategy["limit"], strategy["min_score"])
        now = _now()
        members = _stored(sel, found, doc["members"], now)
        changes = _changes(live_rows(sel.snap, doc["members"])[0], members)
        update = {"members": members, "refreshed_at": now, "expires_at": now + timedelta(days=doc["expiry_days"]),
                  "changes": changes}
        if not Audience._get_collection().update_one({"_id": doc["_id"]},
                                                     {"$set": with_keys(company_id, update)}).matched_count:
            raise AudienceNotFound()  # deleted meanwhile: nothing to pay for
    _members_changed(company_id, {**doc, **update}, changes)
    made = {"provider": strategy["provider"], "model": strategy["model"], "tokens_in": 0, "tokens_out": 0}
    return {**detail({**doc, **update}, sel.snap, sel.company), "changes": changes, **coverage(sel),
            **_spent(made, bill)}


def record_campaign(company_id: int, audience_id: str, campaign: dict) -> dict:
    """Record when the audience's campaign runs (from the day the audience was made at the earliest) and what counts
    as a response, replacing what was recorded; the audience's summary."""
    doc = stored_audience(company_id, audience_id)
    snap = snapshot.current(company_id)
    made_on = campaigns.made_day(doc["created_at"], get_company(company_id).timezone)
    doc["campaign"] = campaigns.checked(campaign, snap, made_on=made_on)
    campaigns.record(company_id, audience_id, doc["campaign"])
    return summary(doc, snap)


def delete_audience(company_id: int, audience_id: str) -> dict:
    """Delete the audience for good."""
    doc = stored_audience(company_id, audience_id)
    if not Audience._get_collection().delete_one({"_id": doc["_id"]}).deleted_count:
        raise AudienceNotFound()
    texts.destroy(company_id, [doc])
    return {"company_id": company_id, "audience_id": audience_id, "name": doc["name"], "deleted": True}


def summary(doc: dict, snap: Snapshot) -> dict:
    """What the list shows of an audience: everything but its members, counted (erased listeners never count), and
    how many are in each arm."""
    members, rows = live_rows(snap, doc["members"])
    arms = split(doc, members)
    strategy = doc["strategy"]
    counts = per_query([m["query"] for m in members], strategy["queries"])
    refreshed = doc.get("refreshed_at")
    return {"audience_id": doc["audience_id"], "company_id": doc["company_id"], "name": doc["name"],
            "theme": doc["theme"], "description": doc.get("description"), "limit": doc["limit"],
            "min_score": doc["min_score"], "expiry_days": doc["expiry_days"], "filters": strategy["filters"],
            "queries": counts, "provider": strategy["provider"], "model": strategy["model"],
            "member_count": len(members), "reachable": int(reachable(snap, rows).sum()),
            "holdout_percent": arms["holdout_percent"], "target_count": arms["target_count"],
            "holdout_count": arms["holdout_count"], "campaign": campaigns.of(doc), "plan_id": doc.get("plan_id"),
            "created_at": _iso(doc["created_at"]), "refreshed_at": _iso(refreshed) if refreshed else None,
            "expires_at": _iso(doc["expires_at"]), "status": status(doc["expires_at"]),
            "last_changes": _counted(doc.get("changes"))}


def detail(doc: dict, snap: Snapshot, company: Company) -> dict:
    """The summary with the members, each enriched with the listener's profile, and how many have each thing the
    theme asks for; each member says its arm, "target" or "holdout"."""
    return {**summary(doc, snap), "changes": last_changes(doc),
            "traits": trait_counts(snap, company, doc["strategy"]["queries"][0], doc["members"]),
            "members": split(doc, enriched(snap, company, doc["members"], doc["strategy"]["queries"]))["members"]}


def status(expires_at: datetime) -> str:
    """"expired" once now is past `expires_at`, else "active"."""
    return "expired" if utcnow() > as_utc(expires_at) else "active"


def stored_audience(company_id: int, audience_id: str) -> dict:
    """The stored audience of the company (AudienceNotFound for another company's id or an unknown one)."""
    found = Audience._get_collection().find_one({"company_id": company_id, "audience_id": str(audience_id)})
    if found is None:
        raise AudienceNotFound()
    return as_read(company_id, [found])[0]


def _checked(**given) -> dict:
    """Every value of a create request cleaned, or one 422 naming each problem."""
    problems = Problems()
    asked = {"name": problems.text("name", given["name"], NAME_MAX),
             "theme": problems.text("theme", given["theme"], THEME_MAX),
             "description": problems.text("description", given["description"], DESCRIPTION_MAX, required=False),
             "limit": problems.whole("limit", given["limit"], AUDIENCE_LIMITS),
             "min_score": problems.score("min_score", given["min_score"]),
             "expiry_days": problems.whole("expiry_days", given["expiry_days"], EXPIRY_LIMITS),
             "queries": problems.queries(given["queries"]),
             "holdout_percent": problems.whole("holdout_percent", given["holdout_percent"], HOLDOUT_LIMITS)}
    problems.check()
    return asked


def _refuse_taken(company_id: int, name: str) -> None:
    """409 before anything is charged; the unique index decides between two creates racing."""
    taken = {"company_id": company_id, "name_key": {"$in": texts.name_keys(company_id, name)}}
    if Audience._get_collection().find_one(taken, {"_id": 1}):
        raise Conflict(f"This station already has an audience named \"{name}\" (or one that reads the same: names "
                       "ignore case, spacing, invisible characters and look-alike letters); choose another.")


def _insert(doc: dict, name: str) -> None:
    try:
        Audience._get_collection().insert_one(doc)
    except DuplicateKeyError:
        _refuse_taken(doc["company_id"], name)
        raise


def _stored(sel: Selection, found: Matched, before: list[dict] | None = None,
            now: datetime | None = None) -> list[dict]:
    """Members as stored: originator, score and the index of the query that found them, best first; and for one who
    joined at a refresh (not among the members `before` it), when (`now`), kept while they stay: results count
    each member from when they joined (core.audiences.results)."""
    originators = sel.snap.originators[found.rows].tolist()
    members = [{"originator": o, "score": float(s), "query": int(q)}
               for o, s, q in zip(originators, found.scores.tolist(), found.queries.tolist())]
    kept = {m["originator"]: m.get("joined_at") for m in before or ()}
    for member in members if before is not None else ():
        joined = kept[member["originator"]] if member["originator"] in kept else now
        if joined:
            member["joined_at"] = joined
    return members


def _new(company_id: int, audience_id: str, asked: dict, made: dict, filters: dict, members: list[dict],
         now: datetime) -> dict:
    strategy = {"queries": made["queries"], "filters": filters, "min_score": asked["min_score"],
                "limit": asked["limit"], "provider": made["provider"], "model": made["model"]}
    return {"company_id": company_id, "audience_id": audience_id, **asked,
            "strategy": strategy, "members": members, "created_at": now, "refreshed_at": None,
            "expires_at": now + timedelta(days=asked["expiry_days"]), "changes": None}


def last_changes(audience_doc: dict) -> dict | None:
    """Who the last refresh let in and out (their numbers, erased listeners taken out by `erase_members`) and how
    many stayed; None before the first refresh, or for one stored before the lists were kept."""
    changes = audience_doc.get("changes")
    return changes if changes and isinstance(changes.get("joined"), list) else None


def _counted(changes: dict | None) -> dict | None:
    return {name: len(v) if isinstance(v, list) else v for name, v in changes.items()} if changes else None


def _changes(before: list[dict], after: list[dict]) -> dict:
    """Who joined (best first), who left (in their old order) and how many stayed."""
    old, new = {m["originator"] for m in before}, {m["originator"] for m in after}
    return {"joined": [m["originator"] for m in after if m["originator"] not in old],
            "left": [m["originator"] for m in before if m["originator"] not in new], "stayed": len(old & new)}


def _spent(made: dict, bill) -> dict:
    return {"tokens_in": made["tokens_in"], "tokens_out": made["tokens_out"], "cached": False, "cost": bill.cost,
            "balance": bill.balance}


def _now() -> datetime:
    """Now as the database keeps it (milliseconds), so that an answer and a later read say the same time."""
    now = utcnow()
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat()
