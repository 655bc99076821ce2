"""When the demo station's listeners interacted: each archetype's history, built so that segments.md gives its segment.

Days are counted back from `now` in station time: day k starts at local midnight k days before today. An interaction
on day k at some hour is between k-1 and k+1 days old, so windows keep clear of the rule boundaries: "last 30 days" is
k <= 29, "the 30 before" is 31..59, "last 90" is k <= 89, "older than 90" is k >= 91 (k = 0 that would fall after
`now` moves a week back, to the same weekday and show). Each archetype's function says how its windows meet its rule.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import holidays
import numpy as np

from core.demo import catalogue as cat
from core.demo.people import ARCHETYPES

HISTORY_DAYS = 395  # about 13 months
SPAN = HISTORY_DAYS + 14
DAY, HOUR = 86400, 3600
RANDOM, FAV, CYCLE = 0, 1, 2  # how an interaction's show is chosen
BY_RULE, FORCED, NEVER = 0, 1, 2  # whether it is a competition entry
PREFERRED, PRIMARY, SECONDARY = 0, 1, 2  # which channel
P_FAV = dict(zip(ARCHETYPES, (0.3, 0.5, 0.5, 0.3, 0.2, 0.4, 0.35)))
TYPES = ("competition",) + cat.CAMPAIGN_TYPES


class Calendar:
    """Days before `now` as the station sees them: weekday, shows on air, competitions and public holidays."""

    def __init__(self, now: datetime):
        local = now.astimezone(timezone(timedelta(hours=cat.UTC_OFFSET_HOURS)))
        self.now = now.timestamp()
        self.midnight = int(local.replace(hour=0, minute=0, second=0, microsecond=0).timestamp())
        days = [local.date() - timedelta(days=k) for k in range(SPAN)]
        self.weekday = np.array([d.isoweekday() for d in days])
        self.start_h = np.array([int(show[3][:2]) for show in cat.SHOWS])
        self.end_h = np.array([int(show[4][:2]) for show in cat.SHOWS])
        self.airs = np.array([[day in show[2] for day in self.weekday] for show in cat.SHOWS])
        self.on_air = np.zeros((8, 24), dtype=int)  # ISO weekday x hour -> show index
        for s, show in enumerate(cat.SHOWS):
            for day in show[2]:
                self.on_air[day, self.start_h[s]:self.end_h[s]] = s
        self._campaigns(days)
        self._holidays(days)

    def _campaigns(self, days) -> None:
        self.campaign_at = np.full(SPAN, -1)
        self.campaigns, lo, hi = [], [], []
        for c, (oldest, newest) in enumerate(cat.CAMPAIGN_WINDOWS):
            self.campaign_at[newest:oldest + 1] = c
            self.campaigns.append(cat.CAMPAIGN_BY_MONTH[days[oldest].month])
            lo.append(newest)
            hi.append(oldest)
        self.campaign_lo, self.campaign_hi = np.array(lo), np.array(hi)
        self.recent_campaigns = np.flatnonzero((self.campaign_lo >= 8) & (self.campaign_hi <= 88))

    def _holidays(self, days) -> None:
        """Public holiday names by day, and for each day the busy holiday within three days of it (or -1)."""
        calendar = holidays.country_holidays("ZA", years=sorted({d.year for d in days}))
        self.holiday = [calendar.get(d) for d in days]
        busy = np.array([bool(h) and any(h.startswith(b) for b in cat.BUSY_HOLIDAYS) for h in self.holiday])
        self.busy_near = np.full(SPAN, -1)
        for d in (3, -3, 2, -2, 1, -1, 0):  # nearest wins: written last
            source = np.arange(SPAN) + d
            ok = (source >= 0) & (source < SPAN)
            hit = np.zeros(SPAN, bool)
            hit[ok] = busy[source[ok]]
            self.busy_near[hit] = source[hit]

    def snap(self, show: np.ndarray, k: np.ndarray, lo: np.ndarray, hi: np.ndarray):
        """Move each day to the nearest day within [lo, hi] on which its show airs; also says where that worked."""
        out, found = k.copy(), np.zeros(len(k), dtype=bool)
        for d in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6):
            c = k + d
            ok = ~found & (c >= lo) & (c <= hi) & (c >= 0) & (c < SPAN)
            ok[ok] = self.airs[show[ok], c[ok]]
            out[ok], found = c[ok], found | ok
        return out, found


class Plan:
    """Interactions still to be placed: who, in which window of days, and how show, entry and channel are chosen."""

    def __init__(self):
        self.parts = []

    def add(self, who, counts, lo, hi, show=RANDOM, comp=BY_RULE, channel=PREFERRED, campaign=-1):
        """`counts[i]` interactions of listener `who[i]` somewhere in days lo[i]..hi[i] (numbers broadcast)."""
        counts = np.broadcast_to(np.asarray(counts, dtype=int).clip(0), who.shape)
        total = int(counts.sum())
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        rep = {name: np.repeat(np.broadcast_to(value, who.shape), counts)
               for name, value in (("who", who), ("lo", lo), ("hi", hi), ("campaign", campaign))}
        rep.update(pos=np.arange(total) - starts, show=np.full(total, show), comp=np.full(total, comp),
                   channel=np.full(total, channel))
        self.parts.append(rep)

    def arrays(self) -> dict:
        """All parts as one set of parallel arrays."""
        return {name: np.concatenate([part[name] for part in self.parts]) for name in self.parts[0]}


def heavy(rng, n: int, mean: float, low: int, high: int) -> np.ndarray:
    """Heavy-tailed counts (log-normal) with about this mean."""
    sigma = 0.9
    return np.rint(rng.lognormal(np.log(mean) - sigma ** 2 / 2, sigma, n)).astype(int).clip(low, high)


def _new(rng, who, p, cal, plan):
    """First interaction within the last 7 days: everything on days 0..6."""
    plan.add(who, np.minimum(rng.geometric(0.35, len(who)), 12), 0, 6)


def _dormant(rng, who, p, cal, plan):
    """Nothing for more than 90 days: a past spell of activity ending 95..300 days ago."""
    last = rng.integers(95, 300, len(who))
    first = last + (rng.random(len(who)) * (HISTORY_DAYS - last)).astype(int)
    plan.add(who, 1, last, last)
    plan.add(who, heavy(rng, len(who), 9, 0, 300), last, first)


def _chaser(rng, who, p, cal, plan):
    """At least 75% competition entries, in bursts of campaigns, one of them 8..88 days ago."""
    n = heavy(rng, len(who), 26, 2, 250)
    other = (n * 0.25 * rng.random(len(who))).astype(int)
    entries = n - other
    main = np.maximum(1, np.rint(entries * 0.6).astype(int))
    first, second = rng.choice(cal.recent_campaigns, len(who)), rng.integers(0, len(cal.campaigns), len(who))
    plan.add(who, main, cal.campaign_lo[first], cal.campaign_hi[first], comp=FORCED, campaign=first)
    plan.add(who, entries - main, cal.campaign_lo[second], cal.campaign_hi[second], comp=FORCED, campaign=second)
    plan.add(who, other, 8, 88, comp=NEVER)


def _at_risk(rng, who, p, cal, plan):
    """Lapsing (last seen 35..85 days ago) or declining (4+ the month before, at most half as many since)."""
    lapsing = rng.random(len(who)) < 0.6
    lap, dec = who[lapsing], who[~lapsing]
    last = rng.integers(35, 86, len(lap))
    plan.add(lap, 1, last, last + 3)
    plan.add(lap, heavy(rng, len(lap), 16, 0, 200), last, last + 10 + (rng.random(len(lap)) * 290).astype(int))
    before = heavy(rng, len(dec), 8, 4, 40)
    plan.add(dec, before, 31, 59)
    plan.add(dec, (before * 0.5 * rng.random(len(dec))).astype(int), 1, 29)
    plan.add(dec, heavy(rng, len(dec), 10, 0, 150), 61, rng.integers(61, HISTORY_DAYS, len(dec)))


def _super_fan(rng, who, p, cal, plan):
    """10+ in the last 30 days on 2+ channels, one in the last week, at least as many as the month before."""
    n30 = heavy(rng, len(who), 24, 10, 150)
    plan.add(who, 1, 1, 6, channel=PRIMARY)
    plan.add(who, 1, 1, 6, channel=SECONDARY)
    plan.add(who, n30 - 2, 0, 29)
    plan.add(who, np.maximum(1, (n30 * 0.9 * rng.random(len(who))).astype(int)), 31, 59)
    plan.add(who, heavy(rng, len(who), 30, 0, 300), 61, rng.integers(61, HISTORY_DAYS, len(who)))


def _loyalist(rng, who, p, cal, plan):
    """Their show on the same weekday for 6..12 weeks running (distinct ISO weeks), a few extras, under 10 a month."""
    weeks = rng.integers(6, 13, len(who))
    airing = cal.airs[p["fav"][who]][:, 1:8] * rng.random((len(who), 7))
    first_day = 1 + airing.argmax(axis=1)
    reps = np.repeat(who, weeks)
    days = np.repeat(first_day, weeks) + 7 * (np.arange(len(reps)) - np.repeat(np.cumsum(weeks) - weeks, weeks))
    plan.add(reps, 1, days, days, show=FAV)
    plan.add(who, rng.integers(0, 4, len(who)), 1, 29)
    plan.add(who, heavy(rng, len(who), 15, 0, 150), 95, rng.integers(95, HISTORY_DAYS, len(who)))


def _occasional(rng, who, p, cal, plan):
    """Active in the last 30 days but light: at most 3 in 90 days, or 4..9 spread over three shows; never declining."""
    spread = rng.random(len(who)) < 0.3
    light, wide = who[~spread], who[spread]
    n30 = rng.integers(1, 4, len(light))
    plan.add(light, n30, 1, 29)
    plan.add(light, np.minimum(n30, rng.integers(0, 4 - n30)), 31, 59)
    n90 = rng.integers(4, 10, len(wide))
    plan.add(wide, (n90 + 1) // 2, 1, 29, show=CYCLE)
    plan.add(wide, n90 // 2, 31, 59, show=CYCLE)
    plan.add(who, heavy(rng, len(who), 9, 1, 120), 95, rng.integers(96, HISTORY_DAYS, len(who)))


HISTORIES = dict(zip(ARCHETYPES, (_new, _super_fan, _loyalist, _chaser, _occasional, _at_risk, _dormant)))


def plan_histories(rng, p: dict, cal: Calendar) -> dict:
    """Every interaction of the batch's listeners, still without hours, shows or channels."""
    plan = Plan()
    for code, archetype in enumerate(ARCHETYPES):
        who = np.flatnonzero(p["archetype"] == code)
        if len(who):
            HISTORIES[archetype](rng, who, p, cal, plan)
    return plan.arrays()


def _days(rng, a: dict, show: np.ndarray, cal: Calendar) -> tuple[np.ndarray, np.ndarray]:
    """Days within each window: on a day the show airs, or pulled onto a busy public holiday nearby."""
    k = a["lo"] + (rng.random(len(show)) * (a["hi"] - a["lo"] + 1)).astype(int)
    near = cal.busy_near[k]
    pinned = ((near >= a["lo"]) & (near <= a["hi"]) & (a["show"] == RANDOM) & (a["comp"] != FORCED)
              & (rng.random(len(k)) < 0.25))
    snapped, on_schedule = cal.snap(show, k, a["lo"], a["hi"])
    return np.where(pinned, near, snapped), on_schedule & ~pinned


def _shows(rng, a: dict, p: dict) -> np.ndarray:
    """Show index of each interaction: the listener's favourite, one of three in turn, or drawn from their tastes."""
    who = a["who"]
    weights = p["show_weights"][who]
    drawn = (rng.random(len(who))[:, None] * weights.sum(axis=1)[:, None] >= np.cumsum(weights, axis=1)).sum(axis=1)
    p_fav = np.asarray(list(P_FAV.values()))[p["archetype"][who]]
    fav = (a["show"] == FAV) | ((a["show"] == RANDOM) & (rng.random(len(who)) < p_fav))
    show = np.where(fav, p["fav"][who], drawn.clip(max=weights.shape[1] - 1))
    return np.where(a["show"] == CYCLE, p["cycle"][who, a["pos"] % 3], show)


def _ranks(who: np.ndarray) -> np.ndarray:
    """Position of each interaction within its listener's (sorted) history."""
    starts = np.r_[0, np.flatnonzero(np.diff(who)) + 1]
    return np.arange(len(who)) - np.repeat(starts, np.diff(np.r_[starts, len(who)]))


def _entries_and_channels(rng, e: dict, p: dict, cal: Calendar) -> None:
    """Campaign type and channel: competition entries only in campaigns, and for non-chasers on every other one."""
    n, who = len(e["who"]), e["who"]
    campaign = np.where(e["campaign"] >= 0, e["campaign"], cal.campaign_at[e["k"]])
    entry = (e["comp"] == FORCED) | ((e["comp"] == BY_RULE) & (e["rank"] % 2 == 1) & (campaign >= 0)
                                     & (rng.random(n) < 0.6))
    drawn = 1 + rng.choice(len(cat.CAMPAIGN_TYPES), size=n, p=cat.CAMPAIGN_SHARES)
    u = rng.random(n)
    channel = np.where(u < 0.65, p["primary"][who], np.where(u < 0.9, p["secondary"][who], rng.integers(1, 8, n)))
    channel = np.where(entry & (rng.random(n) < 0.5), cat.SMS, channel)
    channel = np.where(e["channel"] == PRIMARY, p["primary"][who], channel)
    e["channel"] = np.where(e["channel"] == SECONDARY, p["secondary"][who], channel)
    e["type"], e["campaign"] = np.where(entry, 0, drawn), np.where(entry, campaign, -1)


def place(rng, a: dict, p: dict, cal: Calendar) -> dict:
    """Time, show, channel and campaign type of every planned interaction, sorted by listener and time."""
    n = len(a["who"])
    show = _shows(rng, a, p)
    k, on_schedule = _days(rng, a, show, cal)
    hour = cal.start_h[show] + (rng.random(n) * (cal.end_h[show] - cal.start_h[show])).astype(int)
    show = np.where(on_schedule, show, cal.on_air[cal.weekday[k], hour])
    t = cal.midnight - k * DAY + hour * HOUR + rng.integers(0, HOUR, n)
    late = t >= cal.now
    t, k = np.where(late, t - 7 * DAY, t), np.where(late, k + 7, k)
    order = np.lexsort((t, a["who"]))
    e = {"who": a["who"][order], "t": t[order], "k": k[order], "show": show[order], "comp": a["comp"][order],
         "channel": a["channel"][order], "campaign": a["campaign"][order]}
    e["rank"] = _ranks(e["who"])
    _entries_and_channels(rng, e, p, cal)
    e["language"] = np.where(rng.random(n) < 0.75, p["language"][e["who"]], 0)
    e["has_message"] = (e["channel"] != cat.VOICE) & (rng.random(n) < 0.85)
    e["variant"] = rng.integers(0, 1 << 20, n)
    return e
