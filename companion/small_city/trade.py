"""Phase 4B: commercial trades (seed L194-L200).

Each resident on a trade square allows one trade of that kind; the caller counts them.
"""

from __future__ import annotations

from typing import Literal

from companion.small_city.data import MATERIAL_TO_MONEY, MATERIAL_TO_VOTES, MONEY_TO_VOTES

Material = Literal["white", "grey", "black"]


def money_for_material(material: Material) -> int:
    """Material -> $ (white 2, grey 3, black 5; L196)."""
    return MATERIAL_TO_MONEY[material]


def votes_for_material(material: Material) -> int:
    """Material -> votes (white 3, grey 5, black 7; L200)."""
    return MATERIAL_TO_VOTES[material]


def votes_for_money(dollars: int) -> int:
    """$ -> votes for one trade: $1 -> 2, $2 -> 3, $3 -> 4, $4 -> 5 (L198)."""
    if dollars not in MONEY_TO_VOTES:
        raise ValueError(f"one trade spends $1 to ${max(MONEY_TO_VOTES)}, not ${dollars}")
    return MONEY_TO_VOTES[dollars]
