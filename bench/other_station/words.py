"""What Mokgosi FM's listeners write, in nine languages, with slang, misspellings and emoji. Tastes the station holds
nowhere (no tag, no show) live only here, in MESSAGE_TASTES; so do the themes listeners raise (THEMES). A few
messages use a taste's word for something else ("Mokgosi rocks!"), as people do.
"""
from __future__ import annotations

EN, TN, NSO, TS, VE, ZU, AF, XH = "English", "Setswana", "Sepedi", "Xitsonga", "Tshivenda", "isiZulu", "Afrikaans", \
    "isiXhosa"
WRITES_AS = {"isiNdebele": ZU}  # a home language whose speakers write here in a neighbour's words

# taste -> ((language, phrasing), ...): tastes nobody holds as a tag or a show
MESSAGE_TASTES = {
    "maskandi": ((EN, "Can you play some maskandi?"), (ZU, "Ngicela ningidlalele i-maskandi bafethu"),
                 (EN, "mskandi pls DJ 🙏🏾"), (TN, "Ke kopa pina ya maskandi"), (ZU, "Dlalani u-Khuzani sibili!"),
                 (EN, "Some Phuzekhemisi for the guys at the taxi rank"), (ZU, "skandi skandi!! 🔥🔥"),
                 (VE, "Ndi humbela maskandi")),
    "reggae": ((EN, "Please play reggae, Lucky Dube for me"), (TN, "Ke kopa Lucky Dube, Slave"),
               (EN, "reggae vibes for the weekend 🇯🇲"), (NSO, "Ke kgopela mmino wa reggae"),
               (TS, "Ndzi kombela reggae ya Lucky Dube"), (EN, "Bob Marley One Love pls"), (EN, "regge regge DJ!")),
    "country": ((EN, "Any country music? Dolly Parton maybe"), (EN, "Play some country and western for my dad"),
                (TN, "Ke kopa mmino wa country"), (EN, "Kenny Rogers The Gambler please!!"),
                (EN, "kantri music pls my guy"), (EN, "Don Williams for the old folks please")),
    "rock": ((EN, "Play some rock music!"), (EN, "Some Seether for the rockers pls 🤘"),
             (EN, "Can we get rock n roll tonight?"), (TN, "Ke kopa rock, Springbok Nude Girls"),
             (EN, "Queen please! Bohemian Rhapsody"), (EN, "rok music DJ 🎸")),
    "boeremusiek": ((AF, "Speel asseblief boeremusiek vir oupa"), (AF, "Bietjie boeremusiek, asb!"),
                    (EN, "Concertina music please, boeremusiek for the farm"), (AF, "Sakkie-sakkie vir die plaasmense"),
                    (AF, "boere musiek asb oom"), (AF, "Kan julle 'n vastrap draai?")),
    "bollywood": ((EN, "Please play Bollywood songs for Diwali"), (EN, "Some Hindi music please, Arijit Singh"),
                  (EN, "Bollywood vibes 💃"), (EN, "Can you play music from Indian movies?"),
                  (EN, "Kal Ho Naa Ho please for my wife"), (EN, "bolywood songs plz")),
    "afrikaans_pop": ((AF, "Ek wil Afrikaanse pop hoor!"), (AF, "Juanita du Plessis asb!"),
                      (AF, "Kan julle Riana Nel vir my draai?"), (EN, "Some Afrikaans pop please, Snotkop"),
                      (AF, "Afrikaanse popmusiek asseblief 🎶"), (AF, "Speel Ray Dylan vir my vrou")),
}

# theme -> (campaign type its messages go with, ((language, phrasing), ...)); {place} is the listener's place
THEMES = {
    "potholes": ("other", ((EN, "The potholes in {place} are killing our cars"),
                           (TN, "Ditsela tsa rona di tletse mekoti kwa {place}"),
                           (ZU, "Imigwaqo yase-{place} igcwele imigodi"),
                           (EN, "When will they fix the potholes on our road?"),
                           (EN, "pothole next to the school in {place} is huge 😡"))),
    "no_water": ("other", ((EN, "No water in {place} for three days now"), (TN, "Ga re na metsi mo {place}"),
                           (ZU, "Amanzi awekho e-{place} kusukela izolo"), (VE, "A hu na maḓi {place}"),
                           (TS, "Ku hava mati e {place}"), (NSO, "Ga go na meetse mo {place}"))),
    "taxi_strike": ("traffic_report", ((EN, "Taxi strike again, stuck in {place}"),
                                       (TN, "Ditekisi ga di tsamae gompieno"),
                                       (ZU, "Kunesiteleka samatekisi e-{place}"),
                                       (EN, "No taxis at the rank in {place} this morning 😩"))),
    "matric": ("other", ((EN, "Good luck to all the matrics writing today!"), (TN, "Masego go bana ba matric"),
                         (ZU, "Ngifisela ama-matric inhlanhla"), (EN, "matric exams start tomorrow, pray for us"))),
    "grandmother": ("dedication", ((EN, "Big up to my granny in {place}"), (TN, "Ke dumedisa koko wa me kwa {place}"),
                                   (TS, "Ndzi xeweta kokwana wa mina"), (VE, "Ndi lumelisa makhulu wanga"),
                                   (ZU, "Ngithumela imikhonzo kugogo wami"), (NSO, "Ke dumediša koko wa ka"))),
}

# a request that names a station-held taste: (language, lead) put before an artist, team or dish
REQUEST = {EN: ("Please spin some {x} for me", "Yo DJ, {x} next?", "Can I get {x} for my crew"),
           TN: ("Dumela DJ, ke kopa pina ya {x}", "Ke kopa {x} ka kopo"), NSO: ("Thobela, ke kgopela koša ya {x}",),
           TS: ("Avuxeni, ndzi kombela risimu ra {x}",), VE: ("Ndi humbela luimbo lwa {x}",),
           ZU: ("Ngicela ningidlalele i-{x}", "Sanibonani, {x} ngicela"), AF: ("Kan julle {x} vir my draai?",),
           XH: ("Ndingacela i-{x}",)}
GENRE_WORDS = {"praise": ("praise and worship", "praise songs"), "kwaito": ("kwaito", "old school kwaito"),
               "hiphop": ("hip hop", "hiphop", "rap"), "house": ("deep house", "house music"),
               "traditional": ("mmino wa setso",), "jazz": ("jazz", "smooth jazz")}
TALK = {"football": ("{x} all the way! ⚽", "Ke rata {x} thata"),
        "motorsport": ("Who is watching {x} this weekend? 🏎️", "{x} was madness yesterday"),
        "cooking": ("Mma Dikeledi please share the {x} recipe", "Ke apeile {x} maabane, le a leboga"),
        "farming": ("Lenaneo la temo le a thusa, re bua ka {x}", "Question for the farming show about {x}")}

GENERAL = {
    "dedication": {EN: ("Dedicating this one to my wife, love you 💕", "Greetings to everyone at work in {place}"),
                   TN: ("Ke dumedisa mme wa me kwa {place}", "Ke dumedisa ditsala tsa me"),
                   NSO: ("Ke dumediša bagwera ba ka ka moka",), TS: ("Ndzi xeweta vatirhi-kulobye",),
                   VE: ("Ndi lumelisa mme anga",), ZU: ("Ngithumela imikhonzo kubo bonke base-{place}",),
                   AF: ("Groete aan my vriende in {place}",), XH: ("Ndithumela imibuliso kubahlobo bam",)},
    "prayer_request": {EN: ("Please pray for my mother in hospital", "Pray for us, times are tough"),
                       TN: ("Re kopa thapelo ya lelapa la rona",), NSO: ("Ke kgopela thapelo",),
                       TS: ("Ndzi kombela xikhongelo",), VE: ("Ndi humbela thabelo",),
                       ZU: ("Ngicela imithandazo, ngiyagula",), AF: ("Bid asseblief vir my pa",),
                       XH: ("Ndicela umthandazo",)},
    "feedback": {EN: ("Mokgosi rocks!! 🔥", "Best station in the country!", "Sharp sharp DJ, keep it up"),
                 TN: ("Lenaneo le monate thata", "Ke a leboga Mokgosi"), NSO: ("Re a leboga kudu",),
                 TS: ("Inkomu ngopfu",), VE: ("Ndo livhuwa nga mbekanyamushumo",),
                 ZU: ("Niyashisa bakithi 🔥",), AF: ("Lekker, julle is die beste",), XH: ("Niyaphambili!",)},
    "poll": {EN: ("1", "2", "3", "Yes"), TN: ("Ee", "Nnyaa"), NSO: ("Ee", "Aowa"), TS: ("Ina", "E-e"),
             VE: ("Ee", "Hai"), ZU: ("Yebo", "Qha"), AF: ("Ja", "Nee"), XH: ("Ewe", "Hayi")},
    "traffic_report": {EN: ("Accident on the R101 near {place}", "N1 standstill at the toll gate"),
                       TN: ("Sephethephethe se maswe mo {place}",), ZU: ("Umgwaqo uvaliwe e-{place}",)},
    "other": {EN: ("What time is the news?", "Is the jackpot still on?", "Hello from {place}!"),
              TN: ("Le kae bagaetsho", "Dumelang go tswa kwa {place}"), NSO: ("Thobela go tšwa {place}",),
              ZU: ("Sanibonani kusuka e-{place}",)},
}
COMPETITION = ("{keyword} {place}", "{keyword} {name}", "{keyword}", "{keyword} {keyword}")
EMOJI = (" 🔥", " 🙏", " 😍", " 💯", " 🎶", "!!", " 👏🏾")
SLANG = (("please", "pls"), ("please", "plz"), ("for", "4"), ("the", "da"), ("you", "u"))


def texted(text: str, rng) -> str:
    """Written as people text: sometimes lower case, a word shortened, an emoji added (rng: numpy Generator)."""
    u = rng.random(3)
    if u[0] < 0.2:
        text = text.lower()
    if u[1] < 0.25:
        old, new = SLANG[int(u[1] * 100) % len(SLANG)]
        text = text.replace(f" {old} ", f" {new} ")
    if u[2] < 0.2:
        text += EMOJI[int(u[2] * 1000) % len(EMOJI)]
    return text
