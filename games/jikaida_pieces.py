"""Poron Jikaida's pieces and drins by name: the tables both the engine (``games.jikaida``)
and its menu search (``games.jikaida_search``) read.

A piece is an int ``side * 16 + kind``; these are the sides and the kinds, their letters and
names, the promotion choices, and the six drins (the 6x6 quarters of the board) with their
offsets.
"""

from __future__ import annotations

YELLOW, BLUE = 0, 1
SIDE_NAME = ("yellow", "blue")
SIDE_CHAR = ("Y", "B")

K, P, KA, C, J, H, PK, D, S = range(1, 10)
CODE = {K: "K", P: "P", KA: "Ka", C: "C", J: "J", H: "H", PK: "Pk", D: "D", S: "S"}
KIND_OF = {v: k for k, v in CODE.items()}
NAME = {
    K: "King",
    P: "Pallan",
    KA: "Kapt",
    C: "Chuktar",
    J: "Jiktar",
    H: "Hikdar",
    PK: "Paktun",
    D: "Deldar",
    S: "Swod",
}
PROMOTIONS = ("P", "Ka", "C", "J", "H", "Pk", "D")
PROMO_WORDS = {
    **{c.lower(): c for c in PROMOTIONS},
    **{NAME[KIND_OF[c]].lower(): c for c in PROMOTIONS},
}
DRINS = {  # name -> (file offset, rank offset)
    "mortil": (0, 0),
    "zhantil": (6, 0),
    "neemu": (0, 6),
    "leem": (6, 6),
    "wersting": (0, 12),
    "chavonth": (6, 12),
}
DRIN_AT = {v: k.capitalize() for k, v in DRINS.items()}
