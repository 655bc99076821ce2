"""Message language and places (no database): lingua reads the station's languages, a short message says nothing,
a detected language maps onto the station's own spelling of it (or none), and places the station's listeners
declare are found in messages."""
from __future__ import annotations

import numpy as np
import pytest

from core.ai.language import detect, message_tokens, station_spelling
from core.ai.rates import learn_rates

STATION_LANGUAGES = ["English", "isiZulu", "Afrikaans", "isiXhosa", "Sesotho"]
PLACES = ("Durban", "Cape Town", "KwaZulu-Natal", "Soweto")


@pytest.mark.parametrize(("message", "language"), [
    ("Sawubona DJ! Ngicela udlale iculo lami, ngiyabonga kakhulu", "isiZulu"),
    ("Ngibingelela umama wami, ngiyamthanda kakhulu", "isiZulu"),
    ("Goeiemôre! Speel asseblief my gunsteling liedjie vir almal by die werk", "Afrikaans"),
    ("Dumela DJ! Ke kopa o bapale pina ena, ke a leboha haholo", "Sesotho"),
    ("Motlakase o timile hape, re kopa thuso", "Sesotho"),
    ("Please play my favourite song for everyone at work, thanks DJ", "English"),
    ("Ndibulisa umama wam, ndiyamthanda kakhulu", "isiXhosa"),
])
def test_messages_are_read_in_the_stations_languages(message, language):
    assert station_spelling(detect(message), STATION_LANGUAGES) == language


@pytest.mark.parametrize("message", ["1", "A", "?", ""])
def test_a_message_too_short_to_tell_has_no_language(message):
    assert detect(message) is None


def test_a_language_the_station_does_not_use_maps_to_nothing():
    setswana = detect("Dumelang! Ke batla go utlwa pina e, ke a leboga thata bagaetsho")
    assert setswana is not None
    assert station_spelling(setswana, ["English", "isiZulu"]) is None


def test_the_stations_own_spelling_is_kept():
    zulu = detect("Sawubona DJ! Ngicela udlale iculo lami, ngiyabonga kakhulu")
    assert station_spelling(zulu, ["english", "Zulu"]) == "Zulu"


def test_places_the_stations_listeners_declare_are_found_whole_and_in_their_spelling():
    tokens = message_tokens(["Shoutout to my mom in cape town and everyone in DURBAN!", "Durbanville rocks"],
                            PLACES)
    assert sorted(t for t in tokens if t.startswith("place:")) == ["place:Cape Town", "place:Durban"]


def test_listeners_teach_how_often_each_value_writes_each_token():
    rates = learn_rates(codes=np.array([0, 0, 1]),
                        token_lists=[["lang:ZULU", "lang:ENGLISH"], ["lang:ZULU"], ["lang:ENGLISH"]],
                        labels=["isiZulu", "English"], prefixes=("lang:",))
    zulu = rates.log_likelihood(["lang:ZULU"])
    assert zulu[0] > zulu[1]
    assert rates.log_likelihood(["lang:UNSEEN"]).tolist() == [0.0, 0.0]
