"""What the demo station is made of: its channels, its week of shows, and the words, places and songs of its listeners.

Plain data only; core.demo.station draws from it. Shares and affinities are rough shapes of a South African community
station, chosen so that declared demographics and behaviour go together (the signal AI inference looks for).
"""
from __future__ import annotations

STATION_NAME = "Demo FM"
TIMEZONE = "Africa/Johannesburg"
UTC_OFFSET_HOURS = 2  # South African Standard Time has had no daylight saving since 1944
OFFSET_SUFFIX = "+02:00"

CHANNELS = {1: "SMS 33123", 2: "WhatsApp 082 555 0123", 3: "USSD *120*3232#", 4: "demofm.co.za",
            5: "Demo FM App", 6: "Studio Line 031 555 0100", 7: "Facebook & Instagram"}

AGE_GROUPS = ("18-24", "25-34", "35-44", "45-54", "55-64", "65+")
AGE_SHARES = (0.18, 0.27, 0.22, 0.15, 0.11, 0.07)
AGE_BIRTH_YEARS = ((18, 24), (25, 34), (35, 44), (45, 54), (55, 64), (65, 85))
GENDERS = ("female", "male", "non_binary", "undisclosed")
GENDER_SHARES = (0.51, 0.47, 0.01, 0.01)

WEEKDAYS, MON_THU, WEEKEND, EVERY_DAY = [1, 2, 3, 4, 5], [1, 2, 3, 4], [6, 7], [1, 2, 3, 4, 5, 6, 7]

# (timeslot_id, title, days, start, end, genre, affinity by AGE_GROUPS, {language: boost})
SHOWS = (
    (1, "The Night Shift", WEEKDAYS, "00:00", "04:00", "music", (3, 2, 1, 1, 1, 1), {}),
    (2, "Dawn Devotion", EVERY_DAY, "04:00", "06:00", "gospel", (0.2, 0.5, 1, 1.5, 2, 2.5), {}),
    (3, "Vuka Mzansi Breakfast", WEEKDAYS, "06:00", "09:00", "news", (1, 3, 4, 4, 4, 3.5), {}),
    (4, "The Midmorning Mix", WEEKDAYS, "09:00", "12:00", "music", (1, 2, 3, 2, 2, 1), {}),
    (5, "Ezabantu Talk", WEEKDAYS, "12:00", "15:00", "talk", (0.3, 1, 2, 3, 4, 4), {"isiZulu": 1.5}),
    (6, "The Drive with Thabo & Lerato", WEEKDAYS, "15:00", "19:00", "music", (3, 4, 3, 2, 1, 0.5), {"Sesotho": 1.3}),
    (7, "Amapiano Nights", MON_THU, "19:00", "22:00", "amapiano", (5, 4, 1.5, 0.5, 0.2, 0.1), {}),
    (8, "Gqom Fridays", [5], "19:00", "24:00", "amapiano", (5, 3, 1, 0.3, 0.1, 0.1), {"isiZulu": 1.5}),
    (9, "The Quiet Storm", MON_THU, "22:00", "24:00", "soul", (0.5, 1.5, 3, 3, 2, 1), {}),
    (10, "Weekend After Party", WEEKEND, "00:00", "04:00", "amapiano", (4, 3, 1, 0.3, 0.1, 0.1), {}),
    (11, "Saturday Braai Breakfast", [6], "06:00", "10:00", "music", (1, 2, 3, 3, 2, 1), {"Afrikaans": 1.8}),
    (12, "Sports Saturday", [6], "10:00", "14:00", "sports", (1.5, 2.5, 3, 2.5, 2, 1), {}),
    (13, "Mzansi Top 40", [6], "14:00", "18:00", "music", (4, 3, 1.5, 0.7, 0.3, 0.2), {}),
    (14, "Saturday Night Amapiano Mix", [6], "18:00", "24:00", "amapiano", (5, 4, 1.5, 0.5, 0.2, 0.1), {}),
    (15, "Gospel Sunday", [7], "06:00", "10:00", "gospel", (0.3, 0.8, 2, 3, 4, 5), {}),
    (16, "Kasi Classics", [7], "10:00", "14:00", "kwaito", (0.5, 2, 4, 3, 1.5, 1), {"Sesotho": 1.3}),
    (17, "Maskandi & Mbaqanga", [7], "14:00", "17:00", "maskandi", (0.3, 0.8, 1.5, 2.5, 3, 3), {"isiZulu": 3}),
    (18, "Jazz on Sunday", [7], "17:00", "21:00", "jazz", (0.3, 0.8, 1.5, 2.5, 3, 3), {"English": 1.4}),
    (19, "Sunday Soul", [7], "21:00", "24:00", "soul", (0.5, 1.5, 3, 3, 2, 1), {}),
)
SPORTS_SHOW_MALE_BOOST = 2.0

GENRE_TAGS = {"music": "music_lover", "gospel": "gospel", "news": "news", "talk": "talk_radio",
              "amapiano": "amapiano", "soul": "rnb_soul", "sports": "sports", "kwaito": "kwaito",
              "maskandi": "maskandi", "jazz": "jazz"}
EXTRA_TAGS = ("music_lover", "sports", "news", "comedy", "food", "fashion", "faith", "soccer", "business")

# channel weights (SMS, WhatsApp, USSD, Web, App, Voice, Social) by AGE_GROUPS
CHANNEL_AFFINITY = (
    (1, 4, 1, 1, 3, 0.5, 4),
    (1.5, 4, 1.5, 1.5, 3, 1, 3),
    (2.5, 4, 2, 1.5, 2, 1.5, 1.5),
    (3.5, 3, 2.5, 1, 1, 2.5, 0.7),
    (4, 2, 2.5, 0.7, 0.5, 3, 0.3),
    (4, 1, 2, 0.3, 0.2, 4, 0.1),
)
VOICE, USSD, SMS = 6, 3, 1

LANGUAGES = ("English", "isiZulu", "Afrikaans", "isiXhosa", "Sesotho")
LANGUAGE_SHARES = (0.22, 0.30, 0.13, 0.17, 0.18)

KZN, GP, WC, EC, FS = "KwaZulu-Natal", "Gauteng", "Western Cape", "Eastern Cape", "Free State"
# language -> ((city, province, weight), ...)
CITIES = {
    "English": (("Johannesburg", GP, 3), ("Durban", KZN, 2), ("Cape Town", WC, 2.5), ("Pretoria", GP, 2),
                ("Gqeberha", EC, 0.7), ("Sandton", GP, 1), ("Polokwane", "Limpopo", 0.5),
                ("Mbombela", "Mpumalanga", 0.5)),
    "isiZulu": (("Durban", KZN, 4), ("Pietermaritzburg", KZN, 2), ("Richards Bay", KZN, 1), ("Newcastle", KZN, 1),
                ("Johannesburg", GP, 2), ("Soweto", GP, 1.5)),
    "Afrikaans": (("Cape Town", WC, 3), ("Stellenbosch", WC, 1), ("Paarl", WC, 1), ("George", WC, 1),
                  ("Bloemfontein", FS, 2), ("Pretoria", GP, 1.5), ("Upington", "Northern Cape", 0.5)),
    "isiXhosa": (("East London", EC, 2.5), ("Gqeberha", EC, 2.5), ("Mthatha", EC, 2), ("Cape Town", WC, 3),
                 ("Makhanda", EC, 0.5)),
    "Sesotho": (("Bloemfontein", FS, 2), ("Welkom", FS, 1.5), ("Bethlehem", FS, 1), ("Soweto", GP, 2),
                ("Johannesburg", GP, 1.5), ("Vereeniging", GP, 1.5), ("Pretoria", GP, 0.5)),
}

ETHNICITIES = ("Black African", "Coloured", "White", "Indian/Asian")
ETHNICITY_BY_LANGUAGE = {"English": (0.45, 0.12, 0.23, 0.20), "isiZulu": (0.97, 0.02, 0.005, 0.005),
                         "Afrikaans": (0.08, 0.50, 0.42, 0.0), "isiXhosa": (0.97, 0.02, 0.005, 0.005),
                         "Sesotho": (0.97, 0.02, 0.005, 0.005)}

# name pool -> (female first names, male first names, surnames)
NAMES = {
    "isiZulu": (("Thandiwe", "Nomvula", "Zanele", "Nokuthula", "Sibongile", "Lindiwe", "Ayanda", "Nandi", "Zodwa"),
                ("Sipho", "Bongani", "Themba", "Mandla", "Sibusiso", "Nkosinathi", "Lwazi", "Sanele", "Njabulo"),
                ("Dlamini", "Ndlovu", "Zulu", "Mkhize", "Ngcobo", "Khumalo", "Nxumalo", "Mthembu", "Shabalala",
                 "Cele", "Buthelezi", "Zungu")),
    "isiXhosa": (("Nosipho", "Siphokazi", "Nomsa", "Thandeka", "Yonela", "Asanda", "Lulama", "Zintle", "Noluthando"),
                 ("Lwando", "Siyabonga", "Luyolo", "Mzwandile", "Xolani", "Lonwabo", "Athenkosi", "Sizwe", "Vuyo"),
                 ("Mbeki", "Sisulu", "Dyantyi", "Gqiba", "Mgudlwa", "Nkwinti", "Ntshona", "Jafta", "Ngxola",
                  "Bokwe", "Makhaya", "Mama")),
    "Sesotho": (("Lerato", "Palesa", "Mpho", "Dineo", "Refiloe", "Puleng", "Nthabiseng", "Limpho", "Keitumetse"),
                ("Thabo", "Tumelo", "Karabo", "Teboho", "Tshepo", "Lebohang", "Katleho", "Neo", "Thabang"),
                ("Mokoena", "Mofokeng", "Molefe", "Motaung", "Letsie", "Mohapi", "Tau", "Sello", "Nthako", "Moloi",
                 "Lebona", "Makhetha")),
    "Afrikaans": (("Annelie", "Marike", "Elmarie", "Charlene", "Chantel", "Riana", "Lizelle", "Wilma", "Natasha"),
                  ("Johan", "Pieter", "Gert", "Ashwin", "Deon", "Ruan", "Jaco", "Marlon", "Francois", "Hendrik"),
                  ("van der Merwe", "Botha", "Pretorius", "du Plessis", "Adams", "Jacobs", "Petersen", "Fourie",
                   "Swart", "Hendricks", "Isaacs", "Coetzee")),
    "English": (("Sarah", "Nicole", "Jessica", "Michelle", "Naledi", "Grace", "Faith", "Precious", "Lauren"),
                ("David", "Kevin", "Michael", "Jason", "Kagiso", "Tebogo", "Blessing", "Gift", "Ryan"),
                ("Smith", "Williams", "Jones", "Brown", "Maluleke", "Nkosi", "Baloyi", "Taylor", "Mathebula",
                 "Hughes", "Fisher", "Shezi")),
    "Indian": (("Priya", "Kavitha", "Anusha", "Shanti", "Nirvana", "Reshma"),
               ("Rajesh", "Pravin", "Kumaran", "Suren", "Vikash", "Nivesh"),
               ("Naidoo", "Pillay", "Govender", "Moodley", "Reddy", "Chetty", "Singh", "Maharaj")),
}
EMAIL_DOMAINS = ("gmail.com", "yahoo.co.za", "webmail.co.za", "outlook.com", "icloud.com", "mweb.co.za")
MOBILE_PREFIXES = ("60", "61", "62", "63", "64", "65", "66", "67", "71", "72", "73", "74", "76", "78", "79", "81",
                   "82", "83", "84")

EDUCATION = ("No matric", "Matric", "Diploma/Certificate", "Degree", "Postgraduate")
EDUCATION_SHARES = (0.20, 0.38, 0.22, 0.14, 0.06)
EMPLOYMENT = ("Employed", "Self-employed", "Part-time", "Unemployed", "Student", "Retired")
EMPLOYMENT_BY_AGE = ((0.20, 0.05, 0.05, 0.25, 0.45, 0.0), (0.50, 0.15, 0.05, 0.25, 0.05, 0.0),
                     (0.58, 0.20, 0.05, 0.17, 0.0, 0.0), (0.58, 0.20, 0.05, 0.15, 0.0, 0.02),
                     (0.45, 0.20, 0.0, 0.15, 0.0, 0.20), (0.10, 0.10, 0.0, 0.0, 0.0, 0.80))
EMPLOYMENT_INCOME = (2.3, 2.0, 1.2, 0.2, 0.5, 1.2)  # mean income bracket index per EMPLOYMENT
INCOME_BRACKETS = ("Under R5k", "R5k-R10k", "R10k-R20k", "R20k-R40k", "R40k+")

SONGS = {
    "amapiano": (("Mnike", "Tyler ICU"), ("Ke Star", "Focalistic"), ("Tshwala Bam", "TitoM & Yuppe"),
                 ("Water", "Tyla"), ("Abalele", "Kabza De Small")),
    "music": (("Jerusalema", "Master KG"), ("Fetch Your Life", "Prince Kaybee"), ("Khona", "Mafikizolo"),
              ("Water", "Tyla"), ("Doc Shebeleza", "Cassper Nyovest")),
    "kwaito": (("Nkalakatha", "Mandoza"), ("Sister Bettina", "Mgarimbe"), ("Weekend Special", "Brenda Fassie"),
               ("Vulindlela", "Brenda Fassie")),
    "gospel": (("Shwele Baba", "Rebecca Malope"), ("Jerusalema", "Master KG")),
    "jazz": (("Mannenberg", "Abdullah Ibrahim"), ("Stimela", "Hugh Masekela"),
             ("Grazing in the Grass", "Hugh Masekela")),
    "afrikaans": (("De la Rey", "Bok van Blerk"), ("Kaptein", "Kurt Darren")),
    "classic": (("Pata Pata", "Miriam Makeba"), ("Qongqothwane", "Miriam Makeba"), ("Vulindlela", "Brenda Fassie")),
}
GENRE_SONGS = {"amapiano": "amapiano", "gospel": "gospel", "jazz": "jazz", "kwaito": "kwaito",
               "maskandi": "classic", "soul": "classic"}

# message templates by campaign type and language; {song} {artist} {city} {holiday} {keyword} {name} are filled in
MESSAGES = {
    "song_request": {
        "English": ("Please play {song} by {artist}!", "Can I request {song}? Thanks DJ",
                    "Requesting {song} for everyone in {city}"),
        "isiZulu": ("Sawubona DJ! Ngicela udlale u-{song}", "Ngicela i-{song} ka {artist}",
                    "Ngicela nidlale {song}, ngiyabonga"),
        "Afrikaans": ("Goeiemôre! Speel asseblief {song}", "Kan julle asseblief {song} van {artist} speel?",
                      "Speel asb {song} vir almal in {city}"),
        "isiXhosa": ("Molo DJ! Ndicela udlale {song}", "Ndicela i-{song} ka {artist}", "Nceda udlale {song}, enkosi"),
        "Sesotho": ("Dumela DJ! Ke kopa o bapale {song}", "Ke kopa {song} ya {artist}", "Re kopa {song}, ke a leboha"),
    },
    "shoutout": {
        "English": ("Shoutout to my mom in {city}!", "Big shoutout to everyone at work in {city}",
                    "Greetings to my gogo, love you!"),
        "isiZulu": ("Ngibingelela umama wami e-{city}", "Sanibonani! Ngibingelela bonke abangane bami",
                    "Ngibingelela ugogo wami, ngiyakuthanda"),
        "Afrikaans": ("Groete aan my ma in {city}!", "Baie groete aan almal by die werk",
                      "Groete aan my ouma, lief jou!"),
        "isiXhosa": ("Ndibulisa umama wam e-{city}", "Molweni! Ndibulisa bonke abahlobo bam",
                     "Ndibulisa umakhulu wam, ndiyakuthanda"),
        "Sesotho": ("Ke lumelisa mme waka {city}", "Dumelang! Ke lumelisa metswalle yaka kaofela",
                    "Ke lumelisa nkgono waka, ke a o rata"),
    },
    "feedback": {
        "English": ("Love the show!", "Great interview this morning", "The music today is fire"),
        "isiZulu": ("Uhlelo oluhle kakhulu!", "Ngiyabonga ngomculo omnandi", "Siyabonga ngezindaba"),
        "Afrikaans": ("Lekker program vandag!", "Baie dankie vir die musiek", "Julle is die beste!"),
        "isiXhosa": ("Inkqubo entle kakhulu!", "Enkosi ngomculo omnandi", "Enkosi ngeendaba"),
        "Sesotho": ("Lenaneo le monate haholo!", "Ke a leboha ka mmino o monate", "Le etsa hantle haholo"),
    },
    "poll": {
        "English": ("Yes", "No", "A", "B"), "isiZulu": ("Yebo", "Cha", "1", "2"), "Afrikaans": ("Ja", "Nee", "1", "2"),
        "isiXhosa": ("Ewe", "Hayi", "1", "2"), "Sesotho": ("E", "Tjhe", "1", "2"),
    },
    "other": {
        "English": ("Traffic is backed up on the N3 near {city}", "Load shedding again in {city} tonight?",
                    "Water outage in {city} since this morning"),
        "isiZulu": ("Ugesi ucimile e-{city}",), "Afrikaans": ("Die krag is weer af in {city}",),
        "isiXhosa": ("Umbane ucimile e-{city}",), "Sesotho": ("Motlakase o timile {city}",),
    },
    "competition": {language: ("{keyword} {name} {city}", "{keyword}") for language in LANGUAGES},
    "holiday": {
        "English": ("Happy {holiday} to all the listeners!",), "isiZulu": ("Sawubona! Happy {holiday} kubo bonke",),
        "Afrikaans": ("Gelukkige {holiday} aan almal!",), "isiXhosa": ("Molweni! Happy {holiday} kuni nonke",),
        "Sesotho": ("Dumelang! Happy {holiday} ho lona bohle",),
    },
}
CAMPAIGN_TYPES = ("song_request", "shoutout", "poll", "feedback", "other")
CAMPAIGN_SHARES = (0.40, 0.25, 0.12, 0.13, 0.10)

# competition campaigns as (oldest, newest) days before now; the three between 8 and 88 days ago are "recent"
CAMPAIGN_WINDOWS = ((392, 386), (361, 357), (330, 321), (300, 296), (270, 262), (240, 236), (208, 200), (178, 174),
                    (146, 138), (117, 113), (84, 77), (56, 52), (26, 19), (6, 0))
CAMPAIGN_BY_MONTH = {1: ("Back to School Cash Drop", "SCHOOL"), 2: ("Valentine's Weekend Away", "LOVE"),
                     3: ("Easter Hamper Giveaway", "EASTER"), 4: ("Freedom Day Road Trip", "FREEDOM"),
                     5: ("Mother's Day Spoil", "MOM"), 6: ("Youth Day Data Bundles", "DATA"),
                     7: ("Win a Trip to the Durban July", "JULY"), 8: ("Women's Month Makeover", "GLAM"),
                     9: ("Heritage Month Braai Kit", "BRAAI"), 10: ("Spring Concert Tickets", "CONCERT"),
                     11: ("Black Friday Cash Bonanza", "CASH"), 12: ("Festive Bonanza R100 000", "FESTIVE")}
BUSY_HOLIDAYS = ("New Year's Day", "Freedom Day", "Youth Day", "National Women's Day", "Heritage Day",
                 "Christmas Day", "Day of Goodwill", "Family Day")
