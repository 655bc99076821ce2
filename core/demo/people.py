"""Who the demo station's listeners are: an archetype, latent demographics, and which of them each one declared.

Latent values drive behaviour for everyone (shows, channels, message language); only some are declared, so a listener
with an empty declared field still behaves like their demographic and AI inference has something to find.
"""
from __future__ import annotations

import numpy as np

from core.demo import catalogue as cat

ARCHETYPES = ("new_listener", "super_fan", "show_loyalist", "competition_chaser", "occasional_engager", "at_risk",
              "dormant")
"""Same keys and order as core.segmentation.rules.SEGMENTS: each history is built to land in its segment."""
ARCHETYPE_SHARES = (0.07, 0.08, 0.15, 0.10, 0.25, 0.15, 0.20)
AGE_TILT = ((1.6, 1.3, 1, 0.8, 0.6, 0.5), (1.7, 1.5, 1, 0.7, 0.5, 0.4), (0.7, 0.9, 1, 1.2, 1.4, 1.5),
            (1, 1.3, 1.3, 1, 0.8, 0.6), (1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1), (0.9, 1, 1, 1, 1.1, 1.2))
PROFILE_SHARE, COMPLETE_SHARE = 0.85, 0.15
DECLARE_SHARE = {"mobile_number": 0.75, "name": 0.65, "gender": 0.6, "age": 0.55, "location": 0.5, "language": 0.45,
                 "email": 0.35, "ethnicity": 0.3, "id_number": 0.2, "income_bracket": 0.25, "education": 0.25,
                 "employment_status": 0.3, "tags": 0.4, "opt_in": 0.85, "permission": 0.8}
ORIGINATOR_SPACE = len(cat.MOBILE_PREFIXES) * 10**7
ORIGINATOR_STEP = 48271  # coprime with ORIGINATOR_SPACE, so index -> number is one-to-one
GOLDEN = 0.6180339887498949
CITY_TABLE = [(city, province, lang) for lang in cat.LANGUAGES for city, province, _ in cat.CITIES[lang]]
NAME_POOLS = ("English", "isiZulu", "Afrikaans", "isiXhosa", "Sesotho", "Indian")


def archetypes_of(seed: int, index: np.ndarray) -> np.ndarray:
    """Archetype codes by a low-discrepancy sequence: exact shares even for a few dozen listeners."""
    u = (index * GOLDEN + (seed * 0.7548776662466927) % 1.0) % 1.0
    return np.searchsorted(np.cumsum(ARCHETYPE_SHARES), u, side="right").clip(max=len(ARCHETYPES) - 1)


def originators_of(seed: int, index: np.ndarray) -> list[str]:
    """Unique South African MSISDNs (27 + a mobile prefix + 7 digits), one per listener index."""
    x = (index.astype(np.int64) * ORIGINATOR_STEP + seed * 7654321) % ORIGINATOR_SPACE
    prefixes = np.asarray(cat.MOBILE_PREFIXES)[x // 10**7]
    return [f"27{p}{r:07d}" for p, r in zip(prefixes.tolist(), (x % 10**7).tolist())]


def _pick(rng: np.random.Generator, weights: np.ndarray) -> np.ndarray:
    """One category per row of a (rows x categories) weight matrix."""
    cdf = np.cumsum(weights, axis=1)
    u = rng.random(len(weights)) * cdf[:, -1]
    return (u[:, None] >= cdf).sum(axis=1).clip(max=weights.shape[1] - 1)


def _choice(rng: np.random.Generator, shares, n: int) -> np.ndarray:
    return rng.choice(len(shares), size=n, p=np.asarray(shares) / np.sum(shares))


def show_weights(age: np.ndarray, gender: np.ndarray, language: np.ndarray) -> np.ndarray:
    """How much each listener likes each show (rows: listeners, columns: SHOWS), from age, gender and language."""
    affinity = np.array([show[6] for show in cat.SHOWS], dtype=float)  # shows x ages
    airtime = np.array([len(show[2]) ** 0.7 for show in cat.SHOWS])
    boost = np.array([[show[7].get(lang, 1.0) for show in cat.SHOWS] for lang in cat.LANGUAGES])
    weights = affinity[:, age].T * airtime * boost[language]
    sports = [i for i, show in enumerate(cat.SHOWS) if show[5] == "sports"]
    weights[np.ix_(gender == 1, sports)] *= cat.SPORTS_SHOW_MALE_BOOST
    return weights


def _places(rng, language: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """City (index into CITY_TABLE) and ethnicity by home language."""
    city, ethnicity = np.zeros(len(language), int), np.zeros(len(language), int)
    offset = 0
    for code, lang in enumerate(cat.LANGUAGES):
        mask = language == code
        city[mask] = offset + _choice(rng, [w for *_, w in cat.CITIES[lang]], int(mask.sum()))
        ethnicity[mask] = _choice(rng, cat.ETHNICITY_BY_LANGUAGE[lang], int(mask.sum()))
        offset += len(cat.CITIES[lang])
    return city, ethnicity


def _socio(rng, age: np.ndarray, archetype: np.ndarray) -> dict:
    """Education, employment and income that go together with age (competition chasers a little poorer)."""
    n = len(age)
    education = (_choice(rng, cat.EDUCATION_SHARES, n) - (age >= 4)).clip(0)
    employment = _pick(rng, np.asarray(cat.EMPLOYMENT_BY_AGE)[age])
    income = np.asarray(cat.EMPLOYMENT_INCOME)[employment] + 0.5 * (education - 1) + rng.normal(0, 0.7, n)
    income -= 0.5 * (archetype == ARCHETYPES.index("competition_chaser"))
    return {"education": education, "employment": employment,
            "income": np.rint(income).clip(0, len(cat.INCOME_BRACKETS) - 1).astype(int)}


def _channels(rng, age: np.ndarray, income: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Primary and a different secondary channel (1..7); younger and richer listeners lean to apps and WhatsApp."""
    weights = np.asarray(cat.CHANNEL_AFFINITY)[age].copy()
    weights[:, [3, 4]] *= (1 + 0.3 * (income[:, None] - 2)).clip(0.2)
    primary = _pick(rng, weights)
    weights[np.arange(len(age)), primary] = 0.0
    return primary + 1, _pick(rng, weights) + 1


def _declared(rng, n: int) -> dict:
    """Which fields each listener declared: a few complete profiles, most partial, some with no profile at all."""
    has_profile = rng.random(n) < PROFILE_SHARE
    complete = has_profile & (rng.random(n) < COMPLETE_SHARE)
    masks = {field: has_profile & (complete | (rng.random(n) < share)) for field, share in DECLARE_SHARE.items()}
    masks["has_profile"] = has_profile
    return masks


def make_people(seed: int, start: int, count: int) -> dict:
    """The latent attributes of listeners start..start+count-1; the same arguments always give the same people."""
    rng = np.random.default_rng([seed, start, 1])
    index = np.arange(start, start + count)
    archetype = archetypes_of(seed, index)
    age = _pick(rng, np.asarray(cat.AGE_SHARES) * np.asarray(AGE_TILT)[archetype])
    gender = _choice(rng, cat.GENDER_SHARES, count)
    language = _choice(rng, cat.LANGUAGE_SHARES, count)
    city, ethnicity = _places(rng, language)
    socio = _socio(rng, age, archetype)
    weights = show_weights(age, gender, language)
    primary, secondary = _channels(rng, age, socio["income"])
    pool = np.where(ethnicity == cat.ETHNICITIES.index("Indian/Asian"), NAME_POOLS.index("Indian"),
                    np.asarray([NAME_POOLS.index(lang) for lang in cat.LANGUAGES])[language])
    cycle = np.argsort(rng.random((count, len(cat.SHOWS))), axis=1)[:, :3]
    return {
        "index": index, "originator": originators_of(seed, index), "archetype": archetype, "age": age,
        "gender": gender, "language": language, "city": city, "ethnicity": ethnicity, **socio,
        "show_weights": weights, "fav": _pick(rng, weights ** 2), "cycle": cycle,
        "primary": primary, "secondary": secondary, "pool": pool,
        "first": rng.integers(0, 1000, count), "surname": rng.integers(0, 1000, count),
        "birth": rng.random((count, 3)), "id_serial": rng.integers(0, 5000, count),
        "email_n": rng.integers(1, 100, count), "domain": rng.integers(0, len(cat.EMAIL_DOMAINS), count),
        "other_mobile": rng.random(count) < 0.1, "tags_extra": rng.random((count, len(cat.EXTRA_TAGS))) < 0.12,
        "opt_in": rng.random(count) < 0.7, "permission": rng.random(count) < 0.85,
        "province_only": rng.random(count) < 0.15, "declared": _declared(rng, count),
    }
