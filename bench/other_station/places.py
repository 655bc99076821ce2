"""Where Mokgosi FM's listeners live and what they speak: townships, suburbs and towns (never a province), written
as listeners write them (Mafikeng for Mahikeng, Jozi for Johannesburg), and a few places no gazetteer holds.
"""
from __future__ import annotations

GP, NW, LP, KZN, WC, MP, FS, NC = ("Gauteng", "North West", "Limpopo", "KwaZulu-Natal", "Western Cape", "Mpumalanga",
                                   "Free State", "Northern Cape")

# home language -> (declared values with their weights); "Tswana" and "Setswana" are one language written two ways
LANGUAGES = {
    "Setswana": (("Setswana", 5), ("Tswana", 1)),
    "Sepedi": (("Sepedi", 4), ("Northern Sotho", 1), ("Sesotho sa Leboa", 1)),
    "Xitsonga": (("Xitsonga", 4), ("Tsonga", 1)),
    "Tshivenda": (("Tshivenda", 4), ("Venda", 1)),
    "isiZulu": (("isiZulu", 4), ("Zulu", 1)),
    "English": (("English", 1),),
    "Afrikaans": (("Afrikaans", 1),),
    "isiXhosa": (("isiXhosa", 1),),
    "isiNdebele": (("isiNdebele", 1),),
}
LANGUAGE_SHARES = {"Setswana": 0.24, "Sepedi": 0.18, "Xitsonga": 0.10, "Tshivenda": 0.07, "isiZulu": 0.14,
                   "English": 0.12, "Afrikaans": 0.06, "isiXhosa": 0.05, "isiNdebele": 0.04}

# place -> (province or None when no gazetteer holds it, ways of writing it with weights)
PLACES = {
    "Mamelodi": (GP, (("Mamelodi", 4), ("Mamelodi East", 1))),
    "Soshanguve": (GP, (("Soshanguve", 4), ("Soshanguve Block L", 1))),
    "Tembisa": (GP, (("Tembisa", 3), ("Thembisa", 1))),
    "Atteridgeville": (GP, (("Atteridgeville", 1),)),
    "Hammanskraal": (GP, (("Hammanskraal", 1),)),
    "Diepsloot": (GP, (("Diepsloot", 1),)),
    "Centurion": (GP, (("Centurion", 1),)),
    "Johannesburg": (GP, (("Johannesburg", 2), ("Joburg", 1), ("Jozi", 1))),
    "Mahikeng": (NW, (("Mahikeng", 3), ("Mafikeng", 2))),
    "Mmabatho": (NW, (("Mmabatho", 1),)),
    "Rustenburg": (NW, (("Rustenburg", 1),)),
    "Ga-Rankuwa": (NW, (("Ga-Rankuwa", 2), ("GaRankuwa", 1))),
    "Brits": (NW, (("Brits", 1),)),
    "Potchefstroom": (NW, (("Potchefstroom", 2), ("Potch", 1))),
    "Taung": (NW, (("Taung", 1),)),
    "Polokwane": (LP, (("Polokwane", 3), ("Pietersburg", 1))),
    "Seshego": (LP, (("Seshego", 1),)),
    "Mankweng": (LP, (("Mankweng", 1),)),
    "Thohoyandou": (LP, (("Thohoyandou", 1),)),
    "Giyani": (LP, (("Giyani", 1),)),
    "Tzaneen": (LP, (("Tzaneen", 1),)),
    "Musina": (LP, (("Musina", 1),)),
    "Umlazi": (KZN, (("Umlazi", 3), ("uMlazi", 1))),
    "KwaMashu": (KZN, (("KwaMashu", 2), ("Kwa Mashu", 1))),
    "Chatsworth": (KZN, (("Chatsworth", 1),)),
    "Pietermaritzburg": (KZN, (("Pietermaritzburg", 2), ("PMB", 1))),
    "Khayelitsha": (WC, (("Khayelitsha", 3), ("Khayalitsha", 1))),
    "Mitchells Plain": (WC, (("Mitchells Plain", 2), ("Mitchell's Plain", 1))),
    "Gugulethu": (WC, (("Gugulethu", 2), ("Guguletu", 1))),
    "Mbombela": (MP, (("Mbombela", 2), ("Nelspruit", 2))),
    "eMalahleni": (MP, (("eMalahleni", 1), ("Witbank", 1))),
    "KwaMhlanga": (MP, (("KwaMhlanga", 1),)),
    "Bushbuckridge": (MP, (("Bushbuckridge", 1),)),
    "Botshabelo": (FS, (("Botshabelo", 1),)),
    "Kimberley": (NC, (("Kimberley", 1),)),
    "Kuruman": (NC, (("Kuruman", 1),)),
    "Lefatshe Village": (None, (("Lefatshe Village", 1),)),
    "Mzansi Park Ext 3": (None, (("Mzansi Park Ext 3", 1),)),
    "Kasi yase Dinokeng": (None, (("Kasi yase Dinokeng", 1),)),
}

# home language -> (place, weight): where its speakers live
HOMES = {
    "Setswana": (("Mahikeng", 4), ("Mmabatho", 1), ("Rustenburg", 3), ("Ga-Rankuwa", 3), ("Brits", 1),
                 ("Taung", 1), ("Potchefstroom", 1), ("Kuruman", 1), ("Kimberley", 0.5), ("Soshanguve", 1),
                 ("Lefatshe Village", 0.3)),
    "Sepedi": (("Polokwane", 4), ("Seshego", 2), ("Mankweng", 2), ("Mamelodi", 2), ("Hammanskraal", 1),
               ("Tembisa", 1.5), ("Kasi yase Dinokeng", 0.3)),
    "Xitsonga": (("Giyani", 3), ("Tzaneen", 2), ("Soshanguve", 2), ("Bushbuckridge", 2), ("Mamelodi", 1)),
    "Tshivenda": (("Thohoyandou", 4), ("Musina", 2), ("Soshanguve", 1), ("Atteridgeville", 1)),
    "isiZulu": (("Umlazi", 3), ("KwaMashu", 2), ("Pietermaritzburg", 1), ("Tembisa", 3), ("Diepsloot", 1),
                ("Mzansi Park Ext 3", 0.3)),
    "English": (("Centurion", 2), ("Johannesburg", 2), ("Chatsworth", 2), ("Mbombela", 1), ("Polokwane", 1),
                ("Kimberley", 1)),
    "Afrikaans": (("Mitchells Plain", 2), ("Potchefstroom", 2), ("Centurion", 1), ("Brits", 1), ("Kimberley", 1)),
    "isiXhosa": (("Khayelitsha", 3), ("Gugulethu", 2), ("Botshabelo", 1), ("Johannesburg", 1)),
    "isiNdebele": (("KwaMhlanga", 3), ("eMalahleni", 2), ("Mamelodi", 1)),
}


def province_of(written: str) -> str | None:
    """The province of a location as written (None: no gazetteer can place it)."""
    for province, spellings in PLACES.values():
        if any(written == value for value, _ in spellings):
            return province
    raise KeyError(written)


def written_places() -> dict[str, str | None]:
    """Every location value the station holds, with its province (the truth a province query is measured on)."""
    return {value: province for province, spellings in PLACES.values() for value, _ in spellings}
