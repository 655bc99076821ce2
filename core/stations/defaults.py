"""What a station is when nobody said otherwise: created on first sight by an import, with these values."""

TIMEZONE = "Africa/Johannesburg"
COUNTRY = "ZA"
CHANNELS = {1: "SMS", 2: "WhatsApp", 3: "USSD", 4: "Web", 5: "App", 6: "Voice", 7: "Social"}
"""Default channel names by channel_type; a station's own names (Company.channels) win over these."""


def display_name(company_id: int, name: str | None = None) -> str:
    """The station's name as people read it: its own name, else "Station <id>"."""
    return name or f"Station {company_id}"


def channel_name(names: dict[int, str], channel: int) -> str:
    """A channel's name from the station's names (Company.channel_names), else "Channel <id>"."""
    return names.get(int(channel), f"Channel {channel}")


def show_name(titles: dict[int, str], timeslot: int) -> str:
    """A show's title from the station's schedule (shows.show_titles), else "Show <id>" for a timeslot that an
    import named but the schedule does not hold."""
    return titles.get(int(timeslot), f"Show {timeslot}")
