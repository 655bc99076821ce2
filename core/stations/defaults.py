"""What a station is when nobody said otherwise: created on first sight by an import, with these values."""

TIMEZONE = "Africa/Johannesburg"
COUNTRY = "ZA"
CHANNELS = {1: "SMS", 2: "WhatsApp", 3: "USSD", 4: "Web", 5: "App", 6: "Voice", 7: "Social"}
"""Default channel names by channel_type; a station's own names (Company.channels) win over these."""


def display_name(company_id: int, name: str | None = None) -> str:
    """The station's name as people read it: its own name, else "Station <id>"."""
    return name or f"Station {company_id}"
