"""Column headers by meaning: the names stations give each field, in English and the languages of the station's
country (for ZA: Afrikaans, isiZulu, isiXhosa, Sesotho and Setswana), and how a header is matched to them: as
written, without spaces (`Cellphone`), among other words (`Listener mobile no.`) or misspelt (`Moblie`).

The lists are data, one family per field and kind; core.ingest.proposal weighs what they say against the values.
"""
from __future__ import annotations

import re
import unicodedata

from rapidfuzz import process
from rapidfuzz.distance import OSA

from core.ingest.columns import columns_of

_COMMON = {
    "company_id": "company id|company|station id|station|station no|station number|companyid|stasie|stasie id",
    "originator": "originator|sender id|listener id|user id|userid|subscriber id|member id|customer id|contact id|uid"
                  "|listener|from|sender|source address|luisteraar id|gebruiker id|id",
    "mobile_number": "mobile|mobile number|mobile no|mobile nr|mobile phone|cell|cellphone|cell phone|cell no|cell nr"
                     "|cell number|cellphone number|cellphone no|phone|phone number|phone no|telephone|telephone number"
                     "|tel|tel no|contact number|contact no|contact|number|msisdn|whatsapp|whatsapp number|sms number"
                     "|selfoon|selfoonnommer|selfoon nommer|sel|sel nr|sel no|telefoon|telefoonnommer|foon|nommer"
                     "|kontaknommer|inombolo|inombolo yocingo|inombolo yeselula|iselula|umakhalekhukhwini|ucingo"
                     "|inombolo yefowuni|ifowuni|nomoro|nomoro ya mohala|nomoro ya selefouno|mohala|sellphone",
    "message": "message|text|sms|msg|body|content|comment|comments|message text|sms text|reply|note|notes"
               "|message body|boodskap|teks|kommentaar|umlayezo|molaetsa|umyalezo",
}
_FAMILIES = {
    "profiles": {
        "name": "name|full name|fullname|names|listener name|first name|firstname|given name|surname|last name"
                "|lastname|family name|naam|volle naam|voornaam|van|igama|amagama|igama eligcwele|isibongo|lebitso"
                "|fane|contact name|customer name|display name|first names|name and surname",
        "email": "email|e mail|email address|mail|epos|e pos|eposadres|e posadres|imeyili|i imeyili|emaili"
                 "|e mail address",
        "id_number": "id number|id no|id nr|identity number|sa id|rsa id|sa id number|national id|identification"
                     "|identity|id document|passport|passport number|id nommer|identiteitsnommer|inombolo kamazisi"
                     "|omazisi|id num",
        "gender": "gender|sex|geslag|ubulili|bong|isini|m f|male female|gender identity",
        "age_group": "age|age group|age range|agegroup|age bracket|ages|age band|ouderdom|ouderdomsgroep|leeftyd"
                     "|iminyaka|ubudala|dilemo|dob|date of birth|birth date|birthday|birthdate|geboortedatum"
                     "|verjaarsdag|usuku lokuzalwa|born",
        "location": "location|suburb|town|city|area|region|province|place|address|residential area|home town"
                    "|hometown|district|township|kasi|woonplek|voorstad|dorp|stad|gebied|provinsie|adres|indawo"
                    "|idolobha|ilokishi|isigodi|sebaka|toropo|motse|where do you live|residence|municipality",
        "language": "language|home language|preferred language|lang|mother tongue|first language|taal|huistaal"
                    "|voorkeurtaal|moedertaal|ulimi|ulwimi|puo|language preference",
        "ethnicity": "ethnicity|race|population group|ethnic group|etnisiteit|ras|bevolkingsgroep|uhlanga",
        "income_bracket": "income|income bracket|income group|salary|monthly income|household income|earnings"
                          "|income range|income band|inkomste|salaris|maandelikse inkomste|iholo|umholo|meholo",
        "education": "education|education level|highest education|qualification|highest qualification|schooling"
                     "|school|level of education|opvoeding|onderwys|kwalifikasie|imfundo|thuto|grade",
        "employment_status": "employment|employment status|employed|work status|occupation|job|working|work"
                             "|job status|werk|werkstatus|beroep|indiensneming|umsebenzi|mosebetsi",
        "tags": "tags|tag|labels|label|interests|groups|categories|etikette|merkers|interesses",
        "permission": "permission|consent|popia consent|popi consent|data consent|popia|popi|toestemming|imvume"
                      "|consent given|privacy consent",
        "opt_in": "opt in|optin|marketing|marketing consent|subscribe|subscribed|newsletter|sms opt in"
                  "|marketing opt in|accepts marketing|opted in|inteken|bemarking|receive marketing",
    },
    "interactions": {
        "timestamp": "timestamp|date|time|datetime|date time|date and time|received|received at|sent|sent at"
                     "|created|created at|time stamp|when|entry date|submitted|submitted at|date received|datum"
                     "|tyd|datum en tyd|usuku|isikhathi|ixesha|letsatsi|nako|day|entry time|message date",
        "channel_type": "channel|channel type|channel id|medium|platform|via|source channel|kanaal|indlela|source",
        "campaign_type": "campaign|campaign type|type|interaction type|category|kind|activity|entry type|keyword"
                         "|veldtog|tipe|soort|uhlobo|reason|purpose|campaign name",
        "timeslot_id": "timeslot|timeslot id|time slot|slot|show id|show|programme id|program id|programme"
                       "|program|tydgleuf|uhlelo|show name",
        "interaction_id": "interaction id|message id|msg id|sms id|event id|entry id|reference|ref|transaction id"
                          "|unique id|reference number|boodskap id|record id",
    },
    "shows": {
        "timeslot_id": "timeslot|timeslot id|time slot|slot|slot id|show id|id|programme id|program id|show no"
                       "|show number|tydgleuf",
        "title": "title|show|show name|programme|program|name|naam|titel|program naam|programnaam|uhlelo|show title"
                 "|programme name|lenaneo",
        "days": "days|day|weekdays|days of week|airs on|on air days|dae|dag|izinsuku|matsatsi|schedule",
        "start": "start|start time|from|begins|starts|on air|begin|begintyd|vanaf|begin tyd|iqala|starting"
                 "|time from",
        "end": "end|end time|to|until|ends|finish|off air|eindtyd|tot|einde|iphela|ending|time to|finish time",
    },
    "channels": {
        "channel_type": "channel type|channel id|id|type|number|code|channel number|channel no|kanaal id|kanaal nr",
        "name": "name|channel|channel name|label|naam|kanaal|kanaalnaam|description|igama",
    },
}
NOISE = frozenset({"listener", "listeners", "listener s", "the", "of", "your", "s", "column", "field", "preferred",
                   "primary", "main", "luisteraar", "se", "jou"})
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

def _typos(length: int) -> int:
    """Letters a header of this length may have wrong, missing, extra or swapped and still be its field."""
    return 0 if length < 5 else 1 if length < 9 else 2


def normalised(header: str) -> str:
    """Lower case words without accents or punctuation: `Mobile no.`, `mobile_no` and `MobileNo` are `mobile no`."""
    text = CAMEL.sub(" ", header.replace("#", " no "))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.replace("&", " and ")).split())


def _families(kind: str) -> dict[str, dict[str, str]]:
    """{field: {normalised spelling: spelling}} of the kind (field names themselves included)."""
    merged = {name: spellings for name, spellings in {**_COMMON, **_FAMILIES[kind]}.items()
              if name in columns_of(kind)}
    return {name: {normalised(s): s for s in [name, *spellings.split("|")]} for name, spellings in merged.items()}


FAMILIES = {kind: _families(kind) for kind in _FAMILIES}
"""Per kind, each field's spellings, normalised."""
_BY_SPELLING = {kind: {spelling: name for name, spellings in families.items() for spelling in spellings}
                for kind, families in FAMILIES.items()}


def header_match(kind: str, header: str) -> tuple[str | None, float, str]:
    """(field, confidence 0..1, how) the header names: exactly (1), without its spaces (0.98), once words like
    `listener` are left out (0.95), as a spelling among other words (0.85), or misspelt (0.75: a letter or two
    wrong, missing, extra or swapped); (None, 0, "")."""
    spellings = _BY_SPELLING[kind]
    text = normalised(header)
    if not text:
        return None, 0.0, ""
    if text in spellings:
        return spellings[text], 1.0, "name"
    compact = {spelling.replace(" ", ""): name for spelling, name in spellings.items()}
    if text.replace(" ", "") in compact:
        return compact[text.replace(" ", "")], 0.98, "name"
    words = [word for word in text.split() if word not in NOISE and not word.isdigit()]
    if words and " ".join(words) in spellings:
        return spellings[" ".join(words)], 0.95, "name"
    within = _within(words, spellings)
    if within:
        return within, 0.85, "name"
    squeezed = text.replace(" ", "")
    allowed = _typos(len(squeezed))
    found = process.extractOne(squeezed, list(compact), scorer=OSA.distance, score_cutoff=allowed) if allowed else None
    if found:
        return compact[found[0]], 0.75, "spelling"
    return None, 0.0, ""


def _within(words: list[str], spellings: dict[str, str]) -> str | None:
    """The field of the longest spelling that stands among the header's words (`contact mobile number 2`)."""
    padded = f" {' '.join(words)} "
    best = max((spelling for spelling in spellings if len(spelling) > 2 and f" {spelling} " in padded),
               key=len, default=None)
    return spellings[best] if best else None
