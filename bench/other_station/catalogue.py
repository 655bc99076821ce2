"""What Mokgosi FM is made of: channels, a week of shows, the tastes it holds as tags or shows, its campaigns and
seasons. Plain data; bench.other_station.listeners draws from it. Unlike the demo, hours with no show exist, some
tastes are a show with no tag, others a tag with no show, and channel types are not numbered 1..7.
"""
from __future__ import annotations

STATION_NAME = "Mokgosi FM"
TIMEZONE = "Africa/Johannesburg"
OFFSET_HOURS, OFFSET = 2, "+02:00"
COMPANY_ID = 2

SMS, WHATSAPP, APP, PHONE_IN, FACEBOOK, VOICE_NOTE = 1, 2, 4, 8, 9, 11
CHANNELS = {SMS: "SMS 41414", WHATSAPP: "WhatsApp Mokgosi", APP: "Mokgosi Live App", PHONE_IN: "Phone-in Desk",
            FACEBOOK: "Facebook Mokgosi FM", VOICE_NOTE: "Voice Notes"}
SPOKEN = (PHONE_IN, VOICE_NOTE)  # channels whose interactions carry no written message

WEEKDAYS, SUNDAY, SATURDAY, FRIDAY = (1, 2, 3, 4, 5), (7,), (6,), (5,)

# timeslot_id -> (title, days, start, end, taste or None)
SHOWS = {
    101: ("Mokgosi Sunrise", WEEKDAYS, "05:00", "09:00", "current_affairs"),
    102: ("Tsa Temo le Diruiwa", SATURDAY, "05:00", "08:00", "farming"),
    103: ("Pots & Pans with Mma Dikeledi", (3, 6), "10:00", "12:00", "cooking"),
    104: ("Hallelujah Hour", SUNDAY, "06:00", "10:00", "praise"),
    105: ("Morning Glory Devotions", (1, 2, 3, 4, 5, 6), "04:00", "05:00", "praise"),
    106: ("Kwaai Kwaito", FRIDAY, "18:00", "22:00", "kwaito"),
    107: ("Boom Bap Boulevard", (2, 4), "20:00", "23:00", "hiphop"),
    108: ("Deep House Dispatch", SATURDAY, "20:00", "24:00", "house"),
    109: ("Pit Lane Saturday", SATURDAY, "12:00", "15:00", "motorsport"),
    110: ("Diski Dynamite", (1,), "19:00", "21:00", "football"),
    111: ("Setso Sa Rona", SUNDAY, "14:00", "17:00", "traditional"),
    112: ("Smooth Operator Lounge", SUNDAY, "19:00", "23:00", "jazz"),
    113: ("The Midday Mokgosi", WEEKDAYS, "09:00", "13:00", None),
    114: ("Lekgotla Lunch Talk", WEEKDAYS, "13:00", "15:00", "talk"),
    115: ("Afternoon Drive with Kgomotso", WEEKDAYS, "15:00", "18:00", None),
    116: ("Giggles & Gags", FRIDAY, "22:00", "24:00", "comedy"),
    117: ("Diski Dynamite Weekend", SATURDAY, "15:00", "18:00", "football"),
}

# taste -> (tag or None, how listeners name it in requests: artists, teams, dishes ...)
TASTES = {
    "praise": ("praise", ("Joyous Celebration", "Solly Mahlangu", "Benjamin Dube", "Winnie Mashaba")),
    "kwaito": (None, ("Arthur Mafokate", "Trompies", "TKZee", "Mdu Masilela")),
    "hiphop": ("hip-hop", ("Nasty C", "Kwesta", "A-Reece", "Stogie T")),
    "house": ("house_music", ("Black Coffee", "Oskido", "Culoe De Song", "Vinny Da Vinci")),
    "motorsport": ("motorsport", ("the Kyalami race", "the F1 grand prix", "MotoGP", "Lewis Hamilton")),
    "football": ("diski", ("Kaizer Chiefs", "Orlando Pirates", "Sundowns", "Bafana Bafana")),
    "cooking": ("cooking", ("mogodu", "chakalaka", "potjiekos", "dumplings")),
    "farming": ("farming", ("dikgomo", "maize prices", "the goats", "the rain for planting")),
    "traditional": ("setso", ("tshikona", "xibelani", "dinaka", "mmino wa setso")),
    "jazz": ("jazz_lounge", ("Jonas Gwangwa", "Sibongile Khumalo", "Moses Molelekwa", "Bheki Mseleku")),
    "current_affairs": ("current_affairs", ()),
    "talk": (None, ()),
    "comedy": (None, ()),
    "fashion": ("fashion_style", ()),
}
MUSIC = ("praise", "kwaito", "hiphop", "house", "traditional", "jazz")
PRIZE_TAG = "prizes"  # declared by competition lovers
OTHER_TAGS = ("students", "church", "taxi_owners", "small_business")

# campaign types other than competitions, and their shares of what listeners send
CAMPAIGN_TYPES = ("song_request", "dedication", "prayer_request", "poll", "feedback", "traffic_report", "other")
CAMPAIGN_SHARES = (0.30, 0.20, 0.08, 0.15, 0.12, 0.05, 0.10)

# competitions: (days before now the campaign starts, how many days it runs, keyword); the four jackpots draw crowds
JACKPOTS = ((370, 14, "JACKPOT"), (280, 14, "WINTER"), (190, 14, "JACKPOT"), (100, 12, "SPRING"), (20, 14, "MOKGOSI"))
CASH_CALL = (5, "CASH")  # every Friday (ISO weekday 5) outside December: the weekly cash call

# activity by month: a winter peak indoors, a festive dip when people travel home, a spring rise
MONTH_ACTIVITY = {1: 0.7, 2: 0.9, 3: 1.0, 4: 0.95, 5: 1.1, 6: 1.3, 7: 1.3, 8: 1.0, 9: 1.2, 10: 1.1, 11: 1.0, 12: 0.55}
WEEKDAY_ACTIVITY = (None, 0.9, 0.9, 0.95, 0.95, 1.15, 1.1, 1.25)  # ISO weekday 1..7
HOUR_WEIGHTS = (0.2, 0.1, 0.1, 0.2, 0.6, 1.5, 2.5, 2.5, 2.0, 1.5, 1.2, 1.2, 1.5, 1.4, 1.2, 1.4, 2.0, 2.3, 2.0,
                1.6, 1.4, 1.1, 0.7, 0.4)
