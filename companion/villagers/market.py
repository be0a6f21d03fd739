"""The two market phases (seed L141-L160) and the locked-villager fee (L58-L62).

The companion does not see the cards, so each player's tally is entered as figures:
- gold_icons: the gold coin icons on cards in the village that are not covered (L148);
- coins_on_cards: the coins lying on the player's cards (from unlocking fees, L60-L61);
- silver: one entry per silver icon formula, e.g. "3 x builders" -> coins_each 3 and
  count = the player's own builders (L159: only the player's own village counts).

First market (road piles 1-2 drawn): gold icons + coins on cards; silver does not pay
and the coins stay on the cards (L149-L150).  Second market (all road piles drawn): gold
+ silver from the bank, then the coins on the cards are taken back (L158).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from companion.scoring.inputs import Count, StrictModel
from companion.villagers.data import UNLOCK_FEE


class SilverFormula(StrictModel):
    coins_each: Count  # the number printed in the formula
    count: Count  # how many matching things the player's own village has
    label: str = ""  # what was counted, for the table ("builders")

    @property
    def coins(self) -> int:
        return self.coins_each * self.count


class MarketTally(StrictModel):
    name: str
    gold_icons: Count = 0
    coins_on_cards: Count = 0
    silver: list[SilverFormula] = []


class MarketIncome(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    gold: int
    coins: int
    silver: int
    total: int
    coins_stay_on_cards: bool


def first_market(tallies: Sequence[MarketTally]) -> list[MarketIncome]:
    """Income in the first market: gold icons + coins on cards; silver pays nothing yet."""
    return [
        MarketIncome(name=t.name, gold=t.gold_icons, coins=t.coins_on_cards, silver=0,
                     total=t.gold_icons + t.coins_on_cards, coins_stay_on_cards=True)
        for t in tallies
    ]


def second_market(tallies: Sequence[MarketTally]) -> list[MarketIncome]:
    """Income in the second (final) market: gold + silver formulas + coins on cards."""
    out = []
    for t in tallies:
        silver = sum(f.coins for f in t.silver)
        out.append(MarketIncome(name=t.name, gold=t.gold_icons, coins=t.coins_on_cards,
                                silver=silver, total=t.gold_icons + silver + t.coins_on_cards,
                                coins_stay_on_cards=False))
    return out


class UnlockTransfer(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: Literal["bank", "player"]  # where the coins come from
    destination: Literal["own unlocker", "other unlocker", "bank"]
    amount: int


def unlock_transfer(owns_unlocker: bool, others_own_unlocker: bool) -> UnlockTransfer:
    """Who pays what when a player places a locked villager (L60-L62).

    With your own unlocking villager the bank puts 2 coins on it; otherwise you pay 2 onto
    another player's unlocking villager (you choose whose); only when nobody has one do the
    2 coins go to the bank.
    """
    if owns_unlocker:
        return UnlockTransfer(source="bank", destination="own unlocker", amount=UNLOCK_FEE)
    if others_own_unlocker:
        return UnlockTransfer(source="player", destination="other unlocker", amount=UNLOCK_FEE)
    return UnlockTransfer(source="player", destination="bank", amount=UNLOCK_FEE)
