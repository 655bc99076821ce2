"""The words advertisers use for what the shared filters hold: plain data, read by core.search.vocabulary.

Each table maps a phrase to a filter value. A phrase is only offered when the station holds its value (a station
without a "Student" employment status never gets `employment_status=Student` from "students"), so the tables can be
generous while the answers stay within the station's own vocabularies.
"""
from __future__ import annotations

SEGMENT_WORDS = {
    "new_listener": ("new listeners", "new listener", "newcomers", "recently joined", "first time listeners"),
    "super_fan": ("super fans", "superfans", "super fan", "biggest fans", "die hard fans", "diehard fans",
                  "most engaged listeners", "most engaged", "top fans", "most active listeners"),
    "show_loyalist": ("show loyalists", "loyalists", "loyal listeners", "loyal fans", "loyal audience"),
    "competition_chaser": ("competition chasers", "competition junkies", "prize hunters", "contest junkies"),
    "occasional_engager": ("occasional engagers", "occasional listeners", "casual listeners"),
    "at_risk": ("at risk", "at risk listeners", "drifting away", "slipping away", "losing interest",
                "likely to churn", "about to churn"),
    "dormant": ("dormant", "dormant listeners", "lapsed", "lapsed listeners", "inactive listeners", "inactive",
                "gone quiet"),
}
"""Segment key -> phrases (the segment's own label is added by the vocabulary)."""

GENDER_WORDS = {
    "female": ("women", "woman", "female", "females", "ladies", "moms", "mums", "mothers", "mommies", "girls",
               "female listeners", "womxn"),
    "male": ("men", "male", "males", "guys", "gents", "gentlemen", "dads", "fathers", "boys", "male listeners"),
}

YOUNG = ("18-24", "25-34")
"""What "young" and "youth" mean, wherever they are read (search, audience themes, briefs, the openai provider's
instructions): the station's groups under 35, because South Africa's National Youth Policy counts youth as 15 to 34
and an advertiser's "young" follows it; the groups start at 18. "Teens" and "school leavers" are the youngest group
alone; a number ("18-24", "under 25") is read from its number instead (core.search.understanding)."""
GENERATIONS = {
    (1946, 1964): ("baby boomers", "boomers"),
    (1965, 1980): ("gen x", "generation x", "gen xers"),
    (1981, 1996): ("millennials", "millennial", "gen y", "generation y"),
    (1997, 2012): ("gen z", "generation z", "gen zers", "zoomers"),
}
"""Birth years -> the generation's words. A generation is the people born in those years (Pew Research Center's
bounds), not a word for "young": its age groups are those that at least half lie within the ages its births reach in
the clock's year (millennials in 2026 are 30 to 45: 25-34 and 35-44), so the words keep their meaning as years pass
(core.search.vocabulary)."""
OLDER = ("55-64", "65+")
"""What "older" and "seniors" mean: the two oldest groups; "older than 40" is read from its number instead."""

AGE_WORDS = {
    ("18-24",): ("teenagers", "teens", "school leavers", "varsity students"),
    YOUNG: ("youth", "young people", "young adults", "twenty somethings", "young", "younger", "young listeners",
            "younger listeners", "youngsters"),
    OLDER: ("seniors", "elderly", "older listeners", "older people", "senior citizens", "older", "older adults",
            "mature listeners"),
}
"""Age groups -> phrases, one meaning per word (YOUNG, OLDER); "students" and "pensioners" are employment statuses
first (EMPLOYMENT_WORDS)."""

ROLE_WORDS = {
    ("Employed", "gender", ("female",)): ("working moms", "working mums", "working mothers", "working women"),
    ("Employed", "gender", ("male",)): ("working dads", "working fathers", "working men"),
    ("Employed", "age_group", YOUNG): ("young professionals", "young working people"),
}
"""(employment status, another filter, its values) -> phrases that name both at once; where the station holds no such
status, each word is read alone ("moms" a gender, "working" unmapped with its reason: UNMAPPED_PATTERNS)."""

EMPLOYMENT_WORDS = {
    "Student": ("students", "student"),
    "Retired": ("pensioners", "retirees", "retired"),
    "Unemployed": ("unemployed", "job seekers", "jobseekers"),
    "Self-employed": ("self employed", "entrepreneurs", "small business owners"),
    "Employed": ("working professionals", "employed", "working people"),
}
EMPLOYMENT_FALLBACK = {"Student": ("18-24",), "Retired": ("65+",)}
"""Where the station holds no such employment status, the age groups these words mean instead."""

DAYPART_WORDS = {
    "overnight": ("overnight", "late night", "graveyard shift"),
    "breakfast": ("breakfast", "breakfast show", "morning drive", "morning show", "mornings", "early morning"),
    "midmorning": ("midmorning", "mid morning"),
    "afternoon": ("lunchtime", "lunch time", "afternoons"),
    "drive": ("drive time", "drivetime", "afternoon drive", "home drive", "evening drive", "drive show"),
    "evening": ("evenings", "evening listeners", "evening show", "night time listeners"),
}

CHANNEL_WORDS = {
    1: ("sms", "text message", "text messages", "texts"),
    2: ("whatsapp", "whatsapp users", "wa", "whats app"),
    3: ("ussd",),
    4: ("web", "website", "online"),
    5: ("app", "mobile app", "app users"),
    6: ("voice", "phone in", "phone ins", "call ins", "callers"),
    7: ("social", "social media", "facebook", "instagram", "fb", "ig"),
}
"""Default channel_type -> phrases (docs/decisions.md §4 gives every station these types; names may differ)."""
PLAIN_CHANNEL_WORDS = {"web", "online", "app", "voice", "social", "texts", "callers", "wa", "fb", "ig"}
"""Words that name a channel only beside a channel cue ("on the app", "app users", "on WA"), not alone: "wa" is also
a word of isiZulu."""
SHOW_WORDS = ("show", "programme", "program")
"""What a producer calls a show by one word of its title: "the gospel show" is Gospel Sunday."""

LANGUAGE_WORDS = {
    "isiZulu": ("zulu", "zulu speaking", "zulu speakers"),
    "isiXhosa": ("xhosa", "xhosa speaking", "xhosa speakers"),
    "Sesotho": ("sotho", "southern sotho", "sotho speaking"),
    "Setswana": ("tswana",),
    "Sepedi": ("pedi", "northern sotho"),
    "Afrikaans": ("afrikaans speaking", "afrikaans speakers"),
    "English": ("english speaking", "english speakers"),
}

INTEREST_WORDS = {
    "soccer": ("football", "psl", "soccer fans", "sokker", "voetbal", "ibhola", "bhola", "bolo"),
    "sports": ("sport", "sports fans"),
    "gospel": ("gospel music",),
    "faith": ("church goers", "churchgoers", "christians", "worshippers"),
    "food": ("foodies", "cooking"),
    "music_lover": ("music lovers",),  # not "music" alone: "thanking the station for the music" is no taste
    "rnb_soul": ("r&b", "rnb", "soul music"),
    "talk_radio": ("talk radio",),
    "competitions": ("competitions", "contests"),
}
RELATED = {
    "sport": (("sport", "sports"), ("sport", "sports", "sporting", "ezemidlalo", "imidlalo",  # isiZulu, isiXhosa
                                   "dipapadi", "papadi")),  # Sesotho
    "soccer": (("soccer", "football", "psl"), ("football", "footy", "soccer", "psl", "ibhola", "bhola",
                                               "ibhola lezinyawo", "ibhola ekhatywayo", "bolo", "bolo ya maoto",
                                               "sokker", "voetbal")),
    "rugby": (("rugby",), ("rugby",)),
    "cricket": (("cricket",), ("cricket", "krieket")),
    "hiphop": (("hiphop", "hip", "rap"), ("hip hop", "hiphop", "hip-hop", "rap", "rappers", "ihiphop")),
    "jazz": (("jazz",), ("jazz", "smooth jazz", "jazzy", "ijazz", "ijezi", "jeze", "jazzmusiek")),
    "amapiano": (("amapiano", "piano", "gqom"), ("amapiano", "ama piano", "piano", "yanos", "log drum")),
    "gospel": (("gospel",), ("gospel", "church music", "praise and worship", "hymns", "ivangeli", "umculo wevangeli",
                             "iingoma zokholo", "mmino wa kereke", "dipina tsa kereke", "kerkmusiek", "evangelie",
                             "lofprysing")),
    "kwaito": (("kwaito", "kasi"), ("kwaito", "kasi classics", "kasi music", "kasi")),
    "soul": (("soul", "rnb"), ("r and b", "neo soul", "slow jams", "love songs")),
}
"""Tastes by their free words (English, isiZulu, isiXhosa, Sesotho, Afrikaans): concept -> (the words a station's own
tag, interest or show title may use for it, the words a query may use). A free word not already naming something of
the station names every tag, interest and show of the concept it holds ("football supporters": the `sport` tag and
Sports Saturday): core.search.vocabulary. No phrase here wraps a taste in a word for music ("mmino wa jazz"): those
words frame a query (core.search.queries.FILLER), so the taste's own word is read, as the station holds it."""
BROADER = {"soccer": "sport", "rugby": "sport", "cricket": "sport"}
"""A kind of taste -> the taste it is a kind of. A kind's words reach the broader taste's tags and shows only where a
text is read leniently (a search query: "rugby fans" finds the sports show); a brief's are read strictly, and a kind
the station does not hold is never replaced by its neighbour or its broader taste ("cricket fans" at a station with
only soccer and sports stays unread, with the reason)."""

INTEREST_CUES = {"fan", "fans", "lover", "lovers", "love", "loves", "like", "likes", "enjoy", "enjoys", "into",
                 "listen", "interested", "interest", "interests", "passionate", "followers", "enthusiasts",
                 "supporters", "listeners", "crowd", "heads", "people"}
"""Words that make a topic an audience's interest ("soccer fans", "who love gospel"), not the advertiser's business."""
CHANNEL_CUES = {"on", "via", "through", "over", "using", "use", "uses", "users", "channel", "channels"}

CAMPAIGN_WORDS = {
    "competition": ("entered a competition", "entered competitions", "entered our competitions",
                    "competition entrants", "competition entries", "competition entry",
                    "contest entrants", "emincintiswaneni", "imincintiswano",
                    "kompetisies", "dikgaisano"),
    "song_request": ("song requests", "request songs", "requested songs", "song requesters", "requests",
                     "request a song"),
    "shoutout": ("shout outs", "shoutouts", "sent shout outs"),
    "poll": ("polls", "voted in polls", "poll voters"),
}

PERMISSION_WORDS = {
    ("opt_in",): ("opted in", "opt in", "opted-in", "subscribed", "subscribers"),
    ("permission",): ("gave permission", "given permission", "with permission", "consented", "consent"),
    ("opt_in", "permission"): ("we can contact", "can be contacted", "contactable", "reachable",
                               "we may contact", "allowed to contact"),
}

REFUSAL_WORDS = {("opt_in",): ("opted out", "unsubscribed"),
                 ("permission",): ("without permission", "no permission", "refused permission", "withdrew consent",
                                   "withdrawn consent")}
"""Phrases that set these flags to false: the listener said no."""

WEEKDAY_WORDS = {True: ("weekday listeners", "weekdays only", "during the week", "on weekdays", "during weekdays"),
                 False: ("weekend listeners", "weekend crowd", "on weekends", "at weekends", "on the weekend",
                         "at the weekend", "over the weekend")}

BINDING_WORDS = frozenset("""on via by through during in at over from to for with the a an their when while
each every enter enters entered entering entries entry entrants send sends sent sending made make makes
use uses used using ku kwi nge nga ka ko ho ke op tydens oor""".split())
"""Words that join two asks about interactions into one ("competition entries on WhatsApp", "song requests during
Gospel Hour", "SMS on weekends": core.search.bound); "and", "or", "who" and a comma keep them apart."""

POSSESSIVES = {"their", "your", "his", "her", "my"}
"""A people word after one of these names someone else than the audience ("spoil their mothers")."""

NEGATIONS = {"not", "no", "excluding", "exclude", "except", "without", "never", "non", "apart", "neither", "nor",
             "cannot", "don't", "doesn't", "didn't", "haven't", "hasn't", "hadn't", "isn't", "aren't", "wasn't",
             "weren't", "won't", "can't", "shouldn't"}
"""A match one or two words after one of these is what the audience is not (core.search.negation)."""
SMALL_WORDS = {"the", "a", "an", "any", "on", "in", "via", "from", "during", "to", "of", "be", "been", "yet", "ever",
               "for", "use", "using", "who", "are", "is", "want", "target", "targeting", "include", "including"}
"""Words that may lie between a negation word and what it negates ("don't use the app", "not yet on WhatsApp")."""
NOT_NEGATING = {"only", "just", "merely", "necessarily", "limited"}
"""After a negation word, these make it no negation: "not only super fans" still wants super fans."""
LIST_WORDS = {"and", "or", "nor", "the", "a", "an"}
"""Words between two values of one filter that keep the first one's negation: "no SMS or WhatsApp"."""
LIST_PREPOSITIONS = {"on", "in", "via", "from", "during", "through", "of"}
"""Prepositions that may repeat in a negated list, but only with "or" or "nor" ("not on SMS or on WhatsApp"; "not in
Durban and in Cape Town" wants Cape Town)."""

MASKED_PHRASES = ("mother's day", "mothers day", "father's day", "fathers day", "women's day", "womens day",
                  "women's month", "youth day", "youth month", "black friday", "good friday")
"""Names of days that hold an audience word but name no audience ("Mother's Day" is not a gender)."""

GOALS = ("awareness", "sales", "foot_traffic", "leads", "attendance", "downloads", "engagement", "win_back")
GOAL_PATTERNS = {
    "foot_traffic": r"foot\s*traffic|feet through (?:the|our) doors?|walk[- ]?ins|visit (?:our|the) (?:store|shop"
                    r"|branch|showroom|outlet)s?",
    "attendance": r"attendance|fill (?:the|our) (?:stadium|venue|hall|church)|full (?:hall|house|venue|stadium|church)"
                  r"|tickets?\b|bums on seats|\brsvps?\b",
    "leads": r"\bleads\b|sign[- ]?ups|registrations|open (?:an|new) accounts?|new accounts|applications|enquiries"
             r"|bookings|reservations",
    "downloads": r"downloads|installs",
    "win_back": r"win (?:them )?back|re-?activate|re-?engage|bring (?:them|listeners) back",
    "awareness": r"awareness|get the word out|top of mind|visibility",
    "sales": r"\bsales\b|\bsell\b|\brevenue\b",
    "engagement": r"engagement|participation",
}
"""Goal -> pattern of the brief's words; the first goal named in the brief is its goal."""

UNMAPPED_PATTERNS = {
    r"\b(?:who|that)\s+(?:(?:do|does|did|have|has)(?:\s+not|n['’]t)\s+|never\s+|not\s+)?"
    r"(?:own|owns|drive|drives|bought|buy|buys|rent|rents|bank|banks|shop|shops|smoke|smokes"
    r"|play|plays|watch|watches|have|has)\b[^.,;:!?]*":
        "No filter holds what listeners own, buy or do away from the station.",
    r"\b(?:home|car|pet|property|vehicle)\s?owners\b|\bhomeowners\b|\bparents\b|\bwith(?:out)? (?:kids|children)\b"
    r"|\bcommuters\b|\btaxi (?:drivers|owners|commuters)\b|\bdrivers\b":
        "No filter holds this: listeners' declared profile has no such field.",
    r"\b(?:high|low|middle)[- ](?:income|earners?)\b|\baffluent\b|\bwealthy\b|\bmiddle class\b":
        "Income is a declared bracket; name the bracket itself (for example R20k-R40k).",
    r"\bworking(?=\s+(?:moms|mums|mothers|women|dads|fathers|men)\b)":
        "Whether they work is an employment status, and this station's listeners declare none.",
}
"""Asks of a brief that no shared filter can express, each with the reason given back."""

SALUTATIONS = ("good morning", "good afternoon", "good evening", "good day", "morning", "afternoon", "evening", "hi",
               "hello", "hey", "hiya", "dear", "greetings", "howzit", "sawubona", "sanibonani", "molo", "molweni",
               "dumela", "dumelang", "hallo", "goeie more", "goeie môre", "goeiemiddag", "goeienaand")
"""Words that open a message (English, isiZulu, isiXhosa, Sesotho, Afrikaans): with whom they greet ("Hi guys,",
"Morning all!") they address the reader of the brief, never its audience (core.campaigns.brief_local)."""

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
          "januarie", "februarie", "maart", "mei", "junie", "julie", "augustus", "oktober", "desember")
"""Month names and their short forms, in English and Afrikaans: "18-24 December" is a date, not an age range."""
