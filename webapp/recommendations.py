"""How a recommendation reads on a page, shared by the briefs page (as it is made) and a saved plan (as it was
made): the filters in words with the station's channel and show names, never keys."""
from __future__ import annotations

from core.campaigns.reach import money
from core.churn.explain import LEVELS as CHURN_LEVELS
from core.explore.spec import SPEC
from core.stations.companies import get_company
from core.stations.labels import tag_labels
from core.stations.shows import show_titles
from core.text.wording import join_words
from webapp.helpers import filter_pairs, form_text
from webapp.labels import chip_words, title, value_label


def reco_context(found: dict, pairs: list[tuple[str, str]], names: dict) -> dict:
    """The recommendation with what the page says of it in words: the filters it was made for, those that overrode
    the brief, the brief's own filters that were removed here but still apply, dayparts and the churn mix."""
    audience, given = found["audience"], {name for name, _ in pairs}
    return {"reco": found,
            "applied": [chip_words(n, v, names) for n, v in filter_pairs(found["filters"])],
            "overridden": [{"title": title(o["field"]), "from_brief": _words(o["field"], o["from_brief"], names),
                            "given": _words(o["field"], o["given"], names)} for o in found["overridden"]],
            "kept": [title(name) for name in SPEC if name in found["criteria"]["filters"] and name not in given],
            "dayparts": [{**e, "label": value_label("peak_time_of_day", e["value"])}
                         for e in audience.get("dayparts", [])],
            "churn": [{"label": f"{level.capitalize()} risk", **audience["churn"][level]}
                      for level in CHURN_LEVELS if level in audience.get("churn", {})],
            "thin": _thin((found.get("schedule") or {}).get("reach"), names)}


def _thin(reach: dict | None, names: dict) -> dict | None:
    """A plan's warning that its audience is too thin for its budget, with each way to widen it in words: the filter
    to drop or widen, and the listeners and cost per listener reached without it."""
    if not reach:
        return None
    ways = [{"title": title(w["field"]), "value": _words(w["field"], w["value"], names), "size": w["size"],
             "reachable": w["reachable"], "per": money(w["per_listener"], reach["currency"])}
            for w in reach["widen"]]
    return {"words": reach["words"], "proposal": reach["proposal"], "ways": ways}


def _words(name: str, value, names: dict) -> str:
    values = value if isinstance(value, (list, tuple)) else [value]
    return join_words([value_label(name, form_text(v), names) for v in values])


def station_names(company_id: int) -> dict:
    """The station's channel names and show titles by id as text, and its names of tags, as value_label reads
    them."""
    return {"channels": {str(k): v for k, v in get_company(company_id).channel_names().items()},
            "shows": {str(k): v for k, v in show_titles(company_id).items()}, "tags": tag_labels(company_id)}
