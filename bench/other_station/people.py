"""Who listens to Mokgosi FM: one listener at a time from its own random stream (listener i is the same whatever the
station's size), with a habit, home, tastes held as tags or shows, maybe a taste they only ever write about, and a
theme they raise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench.other_station import catalogue as cat
from bench.other_station import places as pl
from bench.other_station import words as w

HABITS = ("regular", "chatty", "casual", "chaser", "fader")
HABIT_SHARES = (0.24, 0.10, 0.36, 0.12, 0.18)
AGE_GROUPS = ("18-24", "25-34", "35-44", "45-54", "55-64", "65+")
AGE_SHARES = (0.22, 0.30, 0.20, 0.13, 0.09, 0.06)
GENDERS, GENDER_SHARES = ("female", "male", "non_binary", "undisclosed"), (0.53, 0.45, 0.01, 0.01)
RURAL = {"Taung", "Kuruman", "Giyani", "Thohoyandou", "Brits", "Musina", "Lefatshe Village", "Bushbuckridge"}
PREFIXES = ("72", "73", "76", "79", "82", "83", "71", "60", "61", "81", "84", "65", "66", "67", "68")
NAMES = {  # home language -> (first names, surnames)
    "Setswana": (("Kagiso", "Lesedi", "Boitumelo", "Onalenna", "Kabelo", "Masego", "Goitseone"),
                 ("Modise", "Motsepe", "Seleka", "Mogale", "Kgosana")),
    "Sepedi": (("Mahlatse", "Lehlogonolo", "Tshepiso", "Kgaogelo", "Mokgadi"),
               ("Maponya", "Mashaba", "Lekganyane", "Mphahlele")),
    "Xitsonga": (("Hlulani", "Tsakani", "Nyiko", "Rhulani", "Vutomi"), ("Chauke", "Hlungwani", "Mabunda", "Ngobeni")),
    "Tshivenda": (("Ndivhuwo", "Rotondwa", "Mulalo", "Khathutshelo"), ("Mudau", "Ramabulana", "Tshivhase")),
    "isiZulu": (("Sifiso", "Nompumelelo", "Zinhle", "Mthokozisi"), ("Mthethwa", "Majola", "Gumede", "Zondi")),
    "English": (("Chloe", "Brandon", "Aaliyah", "Kyle", "Priyanka"), ("Padayachee", "Moonsamy", "Peters", "Daniels")),
    "Afrikaans": (("Liezl", "Wian", "Carmen", "Regan"), ("Visser", "Kruger", "Abrahams")),
    "isiXhosa": (("Anele", "Siyasanga", "Lutho"), ("Ngqola", "Mdaka", "Qwabe")),
    "isiNdebele": (("Sibusisiwe", "Thokozani"), ("Mahlangu", "Skosana", "Masilela")),
}
DOMAINS = ("gmail.com", "vodamail.co.za", "telkomsa.net", "outlook.com", "mweb.co.za")


@dataclass
class Listener:
    """One listener's latent make-up (declared or not)."""

    index: int
    originator: str
    home: str
    place: str
    written_place: str
    age: int
    gender: int
    habit: str
    tastes: tuple[str, ...]
    message_taste: str | None
    theme: str | None
    fav: int
    primary: int
    secondary: int
    name: tuple[str, str]
    prays: bool


def _pick(rng, options, weights):
    weights = np.asarray(weights, dtype=float)
    return options[int(rng.choice(len(options), p=weights / weights.sum()))]


def originator_of(seed: int, index: int) -> str:
    """A unique MSISDN per listener index (index -> number is one-to-one: the step is coprime with the space)."""
    x = (index * 7919 + seed * 104729) % (len(PREFIXES) * 10**7)
    return f"27{PREFIXES[x // 10**7]}{x % 10**7:07d}"


def taste_weights(age: int, male: bool, home: str, place: str) -> dict[str, float]:
    """How likely each station-held taste is for a listener of this age group, gender, language and place."""
    setswana_north = home in ("Setswana", "Tshivenda", "Xitsonga", "Sepedi")
    return {"praise": 1 + 0.6 * age, "kwaito": 1.5 if 1 <= age <= 3 else 0.4, "hiphop": max(0.2, 3 - age),
            "house": max(0.2, 2.5 - 0.5 * age), "traditional": 1.4 if setswana_north else 0.3,
            "jazz": 0.3 + 0.4 * age, "football": 2.0 if male else 0.6, "motorsport": 0.8 if male else 0.2,
            "cooking": 0.4 if male else 1.2, "farming": 1.2 if place in RURAL else 0.1,
            "current_affairs": 0.5 + 0.2 * age, "talk": 0.4 + 0.2 * age, "comedy": 0.7,
            "fashion": 1.2 if not male and age < 2 else 0.15}


def message_taste_of(rng, age: int, home: str, place: str) -> str | None:
    """A taste only written about, or None: who asks for what depends on language, place and age."""
    chances = {"maskandi": 0.22 if home in ("isiZulu", "isiNdebele") else 0.02, "reggae": 0.04,
               "country": 0.07 if age >= 3 else 0.01, "rock": 0.035,
               "boeremusiek": 0.25 if home == "Afrikaans" else 0.003,
               "bollywood": 0.45 if place == "Chatsworth" else 0.004,
               "afrikaans_pop": 0.22 if home == "Afrikaans" else 0.002}
    u = rng.random()
    for taste, chance in chances.items():
        if u < chance:
            return taste
        u -= chance
    return None


def theme_of(rng) -> str | None:
    """A theme the listener raises in a message, or None."""
    u, chances = rng.random(), {"potholes": 0.05, "no_water": 0.05, "taxi_strike": 0.03, "matric": 0.03,
                                "grandmother": 0.06}
    for theme, chance in chances.items():
        if u < chance:
            return theme
        u -= chance
    return None


def _channels(rng, age: int) -> tuple[int, int]:
    """A primary and a different secondary channel; the young lean to WhatsApp, the app and Facebook."""
    young = max(0.0, 1 - age / 4)
    options = list(cat.CHANNELS)
    weights = {cat.SMS: 1.5 - young, cat.WHATSAPP: 2 + young, cat.APP: 0.5 + 1.5 * young,
               cat.PHONE_IN: 0.2 + 0.3 * age, cat.FACEBOOK: 0.3 + 1.5 * young, cat.VOICE_NOTE: 0.4}
    primary = _pick(rng, options, [weights[c] for c in options])
    others = [c for c in options if c != primary]
    return primary, _pick(rng, others, [weights[c] for c in others])


def person(seed: int, index: int) -> Listener:
    """Listener `index` of the station of this seed."""
    rng = np.random.default_rng([seed, index, 64])
    home = _pick(rng, list(pl.LANGUAGE_SHARES), list(pl.LANGUAGE_SHARES.values()))
    place = _pick(rng, [p for p, _ in pl.HOMES[home]], [wt for _, wt in pl.HOMES[home]])
    spellings = pl.PLACES[place][1]
    written = _pick(rng, [s for s, _ in spellings], [wt for _, wt in spellings])
    age = int(rng.choice(len(AGE_GROUPS), p=AGE_SHARES))
    gender = int(rng.choice(len(GENDERS), p=GENDER_SHARES))
    habit = _pick(rng, HABITS, HABIT_SHARES)
    weights = taste_weights(age, gender == 1, home, place)
    count = 1 + int(rng.random() < 0.45)
    tastes = tuple(rng.choice(list(weights), size=count, replace=False,
                              p=np.array(list(weights.values())) / sum(weights.values())).tolist())
    shows = [slot for taste in tastes for slot, show in cat.SHOWS.items() if show[4] == taste]
    fav = shows[int(rng.integers(len(shows)))] if shows else int(rng.choice([101, 113, 114, 115]))
    primary, secondary = _channels(rng, age)
    firsts, surnames = NAMES[home]
    name = (firsts[int(rng.integers(len(firsts)))], surnames[int(rng.integers(len(surnames)))])
    prays = "praise" in tastes or rng.random() < 0.12
    return Listener(index, originator_of(seed, index), home, place, written, age, gender, habit, tastes,
                    message_taste_of(rng, age, home, place), theme_of(rng), fav, primary, secondary, name, prays)


def profile_row(p: Listener, rng) -> dict | None:
    """The fields listener p declared (None: no profile at all); never a province."""
    if rng.random() > 0.8:
        return None
    declared = rng.random(9) < (0.6, 0.55, 0.5, 0.55, 0.5, 0.45, 0.8, 0.25, 0.6)
    variants = pl.LANGUAGES[p.home]
    tags = [tag for taste in p.tastes if (tag := cat.TASTES[taste][0])]
    tags += [cat.PRIZE_TAG] if p.habit == "chaser" and rng.random() < 0.6 else []
    tags += [tag for tag in cat.OTHER_TAGS if rng.random() < 0.06]
    values = {"name": " ".join(p.name), "gender": GENDERS[p.gender], "age_group": AGE_GROUPS[p.age],
              "location": p.written_place,
              "language": _pick(rng, [v for v, _ in variants], [wt for _, wt in variants]),
              "tags": tags or None, "opt_in": bool(rng.random() < 0.7),
              "email": f"{p.name[0].lower()}{p.index % 97}@{DOMAINS[p.index % len(DOMAINS)]}",
              "mobile_number": "+" + p.originator}
    row = {"company_id": cat.COMPANY_ID, "originator": p.originator}
    row.update({field: value for (field, value), on in zip(values.items(), declared) if on and value is not None})
    return row


def writes_in(p: Listener, rng) -> str:
    """The language of one message: mostly the listener's own, often English, sometimes Setswana."""
    u = rng.random()
    return w.WRITES_AS.get(p.home, p.home) if u < 0.65 else w.EN if u < 0.9 else w.TN
