"""The fixed vocabularies of listener data (decisions.md §4), shared by the stores, the filters and the pages."""

DECLARED_FIELDS = ("mobile_number", "gender", "age", "location", "language", "ethnicity", "name", "email", "id_number")
"""The 9 declared fields of completeness, by their `missing_fields` names (decisions.md §4)."""

DECLARED_ATTRIBUTE = {name: ("age_group" if name == "age" else name) for name in DECLARED_FIELDS}
"""Where each of the 9 is stored on a Listener (`age` is held as `age_group`)."""

OPTIONAL_DECLARED = ("income_bracket", "education", "employment_status")
INFERRED_FIELDS = ("inferred_gender", "inferred_age_group", "inferred_language", "inferred_location", "inferred_lsm")
GENDERS = ("male", "female", "non_binary", "undisclosed")
AGE_GROUPS = ("18-24", "25-34", "35-44", "45-54", "55-64", "65+")
DEFAULT_CHANNELS = {1: "SMS", 2: "WhatsApp", 3: "USSD", 4: "Web", 5: "App", 6: "Voice", 7: "Social"}
