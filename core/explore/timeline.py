"""One listener's interactions as a timeline: newest first, a page at a time, each with its channel and show named."""
from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np

from core.explore.listener import find_listener
from core.explore.operations import check_page
from core.listeners.events import History, listener_history
from core.stations.companies import get_company
from core.stations.defaults import channel_name, show_name
from core.stations.shows import show_titles

PAGE_SIZE = 50


def listener_timeline(company_id: int, originator: str, page: int = 1, page_size: int = PAGE_SIZE) -> dict:
    """One page of the listener's interactions, newest first, with the total and the number of pages;
    ListenerNotFound for a listener who is unknown or was erased. A page past the end has no entries."""
    check_page(page, page_size)
    company = get_company(company_id)
    find_listener(company_id, originator, {"originator": 1})
    history = listener_history(company_id, originator)
    chosen = newest_first(history)[(page - 1) * page_size: page * page_size]
    names = {"channels": company.channel_names(), "shows": show_titles(company_id) if len(chosen) else {}}
    total = len(history)
    return {"originator": originator, "total": total, "page": page, "page_size": page_size,
            "pages": math.ceil(total / page_size), "first": (page - 1) * page_size + 1,
            "entries": [entry(history, int(i), names) for i in chosen]}


def newest_first(history: History) -> np.ndarray:
    """Indexes of the interactions from the newest to the oldest; interactions of the same millisecond keep the
    order they were stored in, so that pages never overlap or skip one."""
    return np.argsort(-history.ms, kind="stable")


def entry(history: History, i: int, names: dict) -> dict:
    """Interaction `i` as people read it: its UTC time (pages show it in the station's zone), its channel, campaign
    type, show (None when it aired outside every show) and message (None when none was sent)."""
    slot = int(history.timeslot[i])
    channel = int(history.channel[i])
    return {"at": datetime.fromtimestamp(int(history.ms[i]) / 1000, UTC).isoformat(), "channel": channel,
            "channel_name": channel_name(names["channels"], channel), "campaign": history.campaign[i],
            "timeslot": None if slot < 0 else slot, "show": None if slot < 0 else show_name(names["shows"], slot),
            "message": history.message[i]}
