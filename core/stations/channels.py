"""Channels by the names people write them: the station's own names (its channels file), the default names, and the
common spellings and abbreviations of those (`Whats App`, `wa`, `text`, `Facebook`), matched whatever their case,
spaces and punctuation. The one place where a written channel becomes its channel_type number, for imports, their
preview and the mapping's proposal alike.
"""
from __future__ import annotations

import re
from difflib import get_close_matches

from core.stations import defaults


def _spellings(**groups: str) -> dict[str, int]:
    """{spelling: default channel_type} from DefaultName=`spelling|spelling|...`."""
    numbers = {name.lower(): number for number, name in defaults.CHANNELS.items()}
    return {key_of(spelling): numbers[name.lower()] for name, spellings in groups.items()
            for spelling in spellings.split("|")}


def key_of(written) -> str:
    """A name as it is matched: lower case, without spaces, dots, dashes, slashes or underscores (`Whats App` is
    `whatsapp`, `W/A` is `wa`)."""
    return re.sub(r"[\s._/\-]+", "", str(written).lower())


SPELLINGS = _spellings(
    SMS="sms|text|texts|txt|text message|text messages|sms message|sms line|short message|bulk sms|teks|boodskap",
    WhatsApp="wa|whats app|whatsapp message|whatsapp messages|watsapp|whatsap|wattsapp|whatsapp business|wapp",
    USSD="ussd|ussd menu|ussd code|star code",
    Web="web|website|web site|online|internet|web form|webform|site|webpage|web page|portal|browser|webwerf",
    App="app|mobile app|station app|our app|application|android|ios|iphone",
    Voice="voice|call|calls|call in|phone|phone call|phone in|phone line|studio line|telephone|ivr|voicemail|voice note"
          "|voice notes|oproep|bel",
    Social="social|social media|socials|facebook|fb|instagram|ig|twitter|tiktok|youtube|messenger")
"""Spellings of the default channels, by the default channel_type they mean; the station's own names win over
them (a station whose channel 8 is `Facebook` reads `facebook` as 8)."""


class ChannelNames:
    """One station's channels by name: `number` reads a written channel, `closest` proposes a known name for one it
    cannot read."""

    def __init__(self, names: dict[int, str]):
        """`names`: channel_type -> name, the station's over the defaults (Company.channel_names)."""
        self.names = dict(sorted(names.items()))
        self._numbers = {**SPELLINGS, **{key_of(name): number for number, name in defaults.CHANNELS.items()},
                         **{key_of(name): number for number, name in self.names.items()}}

    @classmethod
    def of(cls, stored: dict | None) -> ChannelNames:
        """The names of a station as stored (Company.channels: {"2": "WhatsApp"}), over the defaults."""
        return cls({**defaults.CHANNELS, **{int(number): name for number, name in (stored or {}).items()}})

    def number(self, written) -> int | None:
        """The channel_type a name (or a number written as text) stands for; None when it is no known channel."""
        if type(written) is int:
            return written
        key = key_of(written)
        if key.isdigit():
            return int(key)
        return self._numbers.get(key)

    def closest(self, written) -> str | None:
        """The station's channel name nearest to an unknown one (None when none is near)."""
        keys = {key_of(name): name for name in self.names.values()}
        keys.update({spelling: self.names.get(number, spelling) for spelling, number in SPELLINGS.items()
                     if spelling not in keys})
        found = get_close_matches(key_of(written), list(keys), n=1, cutoff=0.6)
        return keys[found[0]] if found else None

    def listed(self) -> str:
        """The station's channel names, in channel_type order, for a sentence."""
        return ", ".join(self.names.values())
