"""The one reader of the station's words (core.search.understanding.read_criteria), on a vocabulary built in memory:
every kind of vocabulary a query may name, however it is cased, spelt or abbreviated, read leniently (a search query
or a theme speaks only of listeners); read strictly (a brief), an interest and a lowercase place still need their
context."""
from __future__ import annotations

import pytest

from core.search.queries import understand
from core.search.understanding import read_criteria
from core.search.vocabulary import Vocabulary, build_vocabulary

SHOWS = {2: "Dawn Devotion", 3: "Vuka Mzansi Breakfast", 11: "Saturday Braai Breakfast", 15: "Gospel Sunday",
         18: "Jazz on Sunday"}
CHANNELS = {1: "SMS 33123", 2: "WhatsApp 082 555 0123", 5: "Demo FM App", 7: "Facebook & Instagram"}
WHATSAPP, GOSPEL_SUNDAY = 2, 15


def make_vocabulary(shows: dict | None = None, **held) -> Vocabulary:
    """A station's vocabulary built from what it holds (snapshot values overridden by `held`)."""
    values = {"location": ["Durban", "Johannesburg", "Soweto", "Cape Town"], "language": ["English", "isiZulu"],
              "tags": ["gospel", "jazz", "soccer", "food"], "inferred_interests": ["motorsport"],
              "campaign_types": ["competition", "song_request"], **held}
    return build_vocabulary(1, "Africa/Johannesburg", values, SHOWS if shows is None else shows, CHANNELS)


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    return make_vocabulary()


def read(vocab: Vocabulary, text: str, lenient: bool = True) -> list[tuple]:
    """(field, values) of each criterion the text names."""
    items, _ = read_criteria(vocab, text, lenient=lenient)
    return [(item["field"], item["values"]) for item in items]


@pytest.mark.parametrize("query", ["Gospel Sunday", "gospel sunday", "GOSPEL SUNDAY", "Gospel Sunday listeners"])
def test_a_show_is_read_by_its_title_in_any_case(vocab, query):
    assert read(vocab, query) == [("timeslot_id", [GOSPEL_SUNDAY])]


@pytest.mark.parametrize("query", ["the gospel show", "gospel programme", "listeners of the Gospel program"])
def test_a_word_of_a_show_title_with_show_or_programme_is_that_show(vocab, query):
    assert read(vocab, query) == [("timeslot_id", [GOSPEL_SUNDAY])]


def test_a_word_shared_by_several_show_titles_names_any_of_those_shows(vocab):
    assert read(vocab, "the sunday show") == [("timeslot_id", [15, 18])]


@pytest.mark.parametrize("query", ["breakfast show", "the breakfast show"])
def test_breakfast_show_stays_the_daypart_even_when_show_titles_hold_breakfast(vocab, query):
    assert read(vocab, query) == [("peak_time_of_day", ["breakfast"])]


@pytest.mark.parametrize("query", ["gospel", "Gospel", "GOSPEL", "gospel music"])
def test_a_tag_alone_is_read_in_any_case_in_lenient_mode(vocab, query):
    assert read(vocab, query) == [("tags", ["gospel"])]


def test_an_inferred_interest_alone_is_read_in_lenient_mode(vocab):
    assert read(vocab, "motorsport") == [("inferred_interests", ["motorsport"])]


def test_in_strict_mode_an_interest_alone_is_not_the_audiences_but_a_cue_makes_it_so(vocab):
    assert read(vocab, "gospel", lenient=False) == []
    assert read(vocab, "motorsport", lenient=False) == []
    assert read(vocab, "gospel lovers", lenient=False) == [("tags", ["gospel"])]
    assert read(vocab, "motorsport fans", lenient=False) == [("inferred_interests", ["motorsport"])]


@pytest.mark.parametrize("query", ["WhatsApp", "whatsapp", "WHATSAPP", "whats app", "on WA", "WA users",
                                   "WhatsApp users", "listeners on WA"])
def test_whatsapp_is_read_however_it_is_cased_spelt_or_abbreviated(vocab, query):
    assert read(vocab, query) == [("channel_type", [WHATSAPP])]


@pytest.mark.parametrize("query", ["wa", "Ngiyabonga kakhulu, wa ngithanda umculo wa Rebecca",
                                   "ngicela ingoma wa Mafikizolo"])
def test_a_bare_wa_without_a_channel_cue_is_not_whatsapp(vocab, query):
    assert ("channel_type", [WHATSAPP]) not in read(vocab, query)


def test_a_plain_channel_word_needs_a_channel_cue_even_in_lenient_mode(vocab):
    assert read(vocab, "app") == []
    assert read(vocab, "on the app") == [("channel_type", [5])]
    assert read(vocab, "fb") == []
    assert read(vocab, "on fb") == [("channel_type", [7])]


@pytest.mark.parametrize("query, kind", [("song requests", "song_request"), ("request a song", "song_request"),
                                         ("enter competitions", "competition"),
                                         ("entered a competition", "competition")])
def test_a_campaign_type_is_read_from_what_listeners_do(vocab, query, kind):
    assert read(vocab, query) == [("campaign_type", [kind])]


@pytest.mark.parametrize("query", ["zulu", "Zulu", "isiZulu", "isizulu", "zulu speakers", "isiZulu speakers"])
def test_a_language_is_read_by_its_name_or_its_short_name(vocab, query):
    assert read(vocab, query) == [("language", ["isiZulu"])]


@pytest.mark.parametrize("query, capitalised, places", [
    ("durban", "Durban", ["Durban"]), ("listeners in durban", "listeners in Durban", ["Durban"]),
    ("joburg", "Joburg", ["Johannesburg", "Soweto"])])  # GeoNames' other name of Johannesburg, Soweto lies in it
def test_a_one_word_place_is_read_lowercase_in_lenient_mode_but_needs_its_capital_in_strict_mode(vocab, query,
                                                                                                  capitalised, places):
    assert read(vocab, query) == [("location", places)]
    assert read(vocab, query, lenient=False) == []
    assert read(vocab, capitalised, lenient=False) == [("location", places)]


def test_a_place_named_in_another_language_is_still_the_place(vocab):
    assert read(vocab, "mense in Durban") == [("location", ["Durban"])]
    assert read(vocab, "abathandi be-gospel") == [("tags", ["gospel"])]


@pytest.mark.parametrize("query", ["super fans", "superfans", "Super Fans"])
def test_a_segment_is_read_by_its_label_and_what_producers_call_it(vocab, query):
    assert read(vocab, query) == [("segment", ["super_fan"])]


@pytest.mark.parametrize("query", ["women", "Women", "ladies"])
def test_a_gender_is_read_from_words_for_people(vocab, query):
    assert read(vocab, query) == [("gender", ["female"])]


@pytest.mark.parametrize("query, groups", [("18-24", ["18-24"]), ("listeners aged 18-24", ["18-24"]),
                                           ("youth", ["18-24", "25-34"]), ("young adults", ["18-24", "25-34"]),
                                           ("teens", ["18-24"])])
def test_an_age_group_is_read_from_its_range_or_words_for_an_age(vocab, query, groups):
    assert read(vocab, query) == [("age_group", groups)]


def test_a_weekday_pattern_is_read_from_words_for_the_week(vocab):
    assert read(vocab, "weekend listeners") == [("weekday_pattern", [False])]


@pytest.mark.parametrize("query, expected", [
    ("not in Durban", [("exclude_location", ["Durban"])]),
    ("listeners not in durban", [("exclude_location", ["Durban"])]),
    ("gospel lovers not in Durban", [("tags", ["gospel"]), ("exclude_location", ["Durban"])]),
    ("excluding super fans", [("exclude_segment", ["super_fan"])]),
    ("not women", [("exclude_gender", ["female"])]),
])
def test_what_follows_a_negation_is_an_exclusion(vocab, query, expected):
    assert read(vocab, query) == expected


def test_a_negated_list_excludes_each_of_its_values(vocab):
    assert read(vocab, "not in Durban or Soweto") == [("exclude_location", ["Durban"]),
                                                      ("exclude_location", ["Soweto"])]


def test_each_criterion_keeps_the_words_of_the_query_it_came_from(vocab):
    items, unmapped = read_criteria(vocab, "gospel lovers who enter competitions on WhatsApp", lenient=True)
    assert [(i["field"], i["words"]) for i in items] == [("tags", "gospel"), ("campaign_type", "enter competitions"),
                                                         ("channel_type", "WhatsApp")]
    assert unmapped == []


def test_one_word_may_name_several_things_and_each_is_read():
    station = make_vocabulary(inferred_interests=["cooking"])
    assert read(station, "cooking") == [("tags", ["food"]), ("inferred_interests", ["cooking"])]


def test_a_value_the_station_does_not_hold_is_never_read():
    station = make_vocabulary(shows={}, tags=["jazz"], language=["English"])  # no gospel show either
    assert read(station, "gospel") == []
    assert read(station, "zulu") == []


def test_strict_reading_of_a_brief_is_unchanged_by_lenient_mode(vocab):
    brief = "Reach women in Durban who love gospel, on WhatsApp"
    assert read(vocab, brief, lenient=False) == [("gender", ["female"]), ("location", ["Durban"]),
                                                 ("tags", ["gospel"]), ("channel_type", [WHATSAPP])]
    assert read(vocab, "Our business sells gospel CDs in durban", lenient=False) == []


@pytest.mark.parametrize(("query", "field"), [
    ("abalaleli base Durban", "location"),
    ("abathandi be-gospel", "tags"),
    ("ababhalisa emincintiswaneni ku-WhatsApp", "campaign_type"),
    ("batho ba Bloemfontein", "location"),
    ("mense in Durban", "location"),
    ("luisteraars wat Afrikaans praat", "language"),
    ("sokker aanhangers", "tags"),
])
def test_a_query_in_isizulu_sesotho_or_afrikaans_is_read_whole_with_no_free_text_left(query, field):
    understood = understand(make_vocabulary(location=["Durban", "Bloemfontein"], language=["Afrikaans", "isiZulu"]),
                            query)
    assert field in {c["field"] for c in understood.as_dict()["criteria"]}
    assert understood.free_text == ""


def test_music_alone_is_no_taste_but_music_lovers_are():
    vocab = make_vocabulary(tags=["gospel", "music_lover"])
    assert read(vocab, "thanking the station for the music") == []
    assert read(vocab, "music lovers") == [("tags", ["music_lover"])]
