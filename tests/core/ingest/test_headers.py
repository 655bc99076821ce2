"""Column headers by meaning (core.ingest.headers): each family of names, in English and the station's languages,
as written, without spaces, among other words and misspelt."""
from __future__ import annotations

import pytest

from core.ingest.headers import header_match, normalised

FAMILIES = [
    ("profiles", "mobile_number", ["Cell", "Cellphone", "Mobile no.", "Selfoon", "Phone", "Cell #", "MSISDN",
                                   "WhatsApp number", "Selfoonnommer", "Inombolo yeselula", "mobileNumber"]),
    ("profiles", "location", ["Suburb", "Town", "City", "Area", "Woonplek", "Dorp", "Indawo", "Province"]),
    ("profiles", "name", ["Name", "Full name", "First name", "Surname", "Naam", "Igama", "Name and surname"]),
    ("profiles", "email", ["Email", "E-mail", "Email address", "E-pos", "Imeyili"]),
    ("profiles", "gender", ["Gender", "Sex", "Geslag", "Ubulili", "M/F"]),
    ("profiles", "age_group", ["Age", "Age group", "Ouderdom", "Iminyaka", "DOB", "Date of birth"]),
    ("profiles", "language", ["Language", "Home language", "Taal", "Huistaal", "Ulimi"]),
    ("profiles", "id_number", ["ID number", "ID no.", "SA ID", "Identity number", "ID nommer"]),
    ("profiles", "opt_in", ["Opt in", "Opt-in", "Marketing", "Newsletter"]),
    ("profiles", "permission", ["Consent", "POPIA consent", "Toestemming"]),
    ("profiles", "originator", ["Originator", "Listener ID", "Member ID"]),
    ("profiles", "tags", ["Tags", "Interests", "Labels"]),
    ("interactions", "timestamp", ["Date", "Time", "Timestamp", "Date received", "Datum", "Tyd", "Sent at"]),
    ("interactions", "channel_type", ["Channel", "Medium", "Platform", "Kanaal"]),
    ("interactions", "campaign_type", ["Campaign", "Type", "Interaction type", "Keyword"]),
    ("interactions", "message", ["Message", "SMS text", "Text", "Boodskap", "Comment"]),
    ("interactions", "timeslot_id", ["Show", "Timeslot", "Programme"]),
    ("interactions", "interaction_id", ["Message ID", "Reference", "SMS ID"]),
    ("shows", "title", ["Show", "Show name", "Programme", "Titel"]),
    ("shows", "days", ["Days", "Day", "Dae"]),
    ("shows", "start", ["Start", "Start time", "From", "Begintyd"]),
    ("shows", "end", ["End", "End time", "To", "Until", "Eindtyd"]),
    ("channels", "name", ["Channel", "Channel name", "Naam"]),
    ("channels", "channel_type", ["Channel type", "Channel ID", "Code"]),
]


@pytest.mark.parametrize("kind, field, headers", FAMILIES, ids=[f"{k}-{f}" for k, f, _ in FAMILIES])
def test_each_family_of_header_names_is_its_field(kind, field, headers):
    assert {header: header_match(kind, header)[0] for header in headers} == {header: field for header in headers}


def test_a_field_name_itself_is_its_field_with_full_confidence():
    assert header_match("profiles", "mobile_number") == ("mobile_number", 1.0, "name")


def test_a_header_written_without_its_spaces_or_among_other_words_is_matched():
    assert header_match("profiles", "CELLPHONENUMBER")[0] == "mobile_number"
    assert header_match("profiles", "Listener's mobile number (2)")[0] == "mobile_number"


def test_a_misspelt_header_is_matched_by_its_spelling_with_less_confidence():
    field, confidence, how = header_match("profiles", "Moblie")
    assert (field, how) == ("mobile_number", "spelling") and confidence < 0.85


def test_an_unknown_header_names_no_field():
    assert header_match("profiles", "Favourite colour") == (None, 0.0, "")


def test_a_header_is_read_without_accents_case_or_punctuation():
    assert normalised("  Téléphone_No. ") == "telephone no"
