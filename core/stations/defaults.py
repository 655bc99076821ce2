"""What a station is when nobody said otherwise: created on first sight by an import, with these values."""

import re

from core.clock import STATION_ZONE

TIMEZONE = STATION_ZONE  # a station's zone when nobody said otherwise, and the one zone_of falls back to
COUNTRY = "ZA"
CHANNELS = {1: "SMS", 2: "WhatsApp", 3: "USSD", 4: "Web", 5: "App", 6: "Voice", 7: "Social"}
"""Default channel names by channel_type; a station's own names (Company.channels) win over these."""


def display_name(company_id: int, name: str | None = None) -> str:
    """The station's name as people read it: its own name, else "Station <id>"."""
    return name or f"Station {company_id}"


def channel_name(names: dict[int, str], channel: int) -> str:
    """A channel's name from the station's names (Company.channel_names), else "Channel <id>"."""
    return names.get(int(channel), f"Channel {channel}")


SPOKEN = {1: "SMS", 2: "WhatsApp", 3: "USSD", 4: "Website", 5: "App", 6: "Phone-in calls", 7: "Social media"}
"""Each default channel as a plan names it when the station's own name is only a number or an address."""
VOICE = 6


def spoken_channel(names: dict[int, str], channel: int) -> str:
    """A channel as a plan forwarded to an advertiser names it: the station's name without its phone number, short
    code or address ("WhatsApp 082 555 0123" is "WhatsApp", "Studio Line 031 555 0100" is "Studio Line calls",
    "demofm.co.za" is "Website"), since a plan names the way to reach listeners, not a line to dial."""
    words = [w for w in channel_name(names, channel).split() if not re.search(r"[\d*#@/]|\w\.\w", w)]
    spoken = " ".join(words).strip(" -:,") or SPOKEN.get(int(channel), f"Channel {channel}")
    if int(channel) == VOICE and "call" not in spoken.casefold():
        spoken += " calls"
    return spoken


def show_name(titles: dict[int, str], timeslot: int) -> str:
    """A show's title from the station's schedule (shows.show_titles), else "Show <id>" for a timeslot that an
    import named but the schedule does not hold."""
    return titles.get(int(timeslot), f"Show {timeslot}")
