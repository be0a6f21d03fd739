"""Villagers tally: money (the score), the figures the round limits come from, and the
two market phases.

Per player: money (8 at the start, seed L19), food and builders in the village (draft
and build limits, limits.py), villager cards in the village (the tie-break) and the coins
lying on their unlocking villagers. Placing a locked villager puts the 2-coin fee on the
unlocker's card (or pays the bank) as unlock_transfer says (L60-L62); those coins pay at
each market and are taken back in the second (L149-L150, L158). Each market is entered
once as every player's gold icons, coins on cards and silver formulas; market.py computes
the income, which is added to money. The final sheet is scoring.score_payload.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from companion.scoring.tiebreak import TieKey
from companion.tally.errors import reject
from companion.tally.rules import (
    AdjustField,
    Edit,
    FieldSpec,
    SetField,
    TallyRules,
    TallyState,
    check_not_negative,
    check_one_row_each,
    check_player,
    edit_table,
    unknown_edit,
)
from companion.tally.setup import TallySetup
from companion.villagers.data import MAX_PLAYERS, MIN_PLAYERS, STARTING_MONEY
from companion.villagers.final import tie_keys
from companion.villagers.limits import build_limit, draft_limit
from companion.villagers.market import (
    MarketTally,
    SilverFormula,
    first_market,
    second_market,
    unlock_transfer,
)
from companion.villagers.scoring import score_payload

GAME_ID = "villagers"
MARKETS = (1, 2)

# ---- state ---------------------------------------------------------------------------------


class VillageRow(BaseModel):
    name: str
    money: int = STARTING_MONEY
    food: int = 0
    builders: int = 0
    villagers: int = 0  # villager cards in the village (fewest wins a tie)
    coins_on_cards: int = 0  # unlock fees lying on this player's unlocking villagers

    @property
    def draft_limit(self) -> int:
        return draft_limit(self.food)

    @property
    def build_limit(self) -> int:
        return build_limit(self.builders)


class MarketLine(BaseModel):
    player: int
    gold: int
    coins: int
    silver: int
    total: int


class MarketRecord(BaseModel):
    which: int  # 1 or 2
    lines: list[MarketLine]


class VillagersState(TallyState):
    players: list[VillageRow]
    markets: list[MarketRecord] = Field(default_factory=list)


# ---- edits ---------------------------------------------------------------------------------


class SilverIn(Edit):
    coins_each: int
    count: int


class MarketIn(Edit):
    player: int
    gold_icons: int = 0
    coins_on_cards: int = 0
    silver: list[SilverIn] = Field(default_factory=list)


class PayMarket(Edit):
    type: Literal["market"] = "market"
    which: int
    players: list[MarketIn]


class Unlock(Edit):
    """`player` placed a locked villager; `owner` owns the unlocking villager they used
    (None: nobody has one, the fee goes to the bank)."""

    type: Literal["unlock"] = "unlock"
    player: int
    owner: int | None = None


FIELDS: dict[str, FieldSpec] = {
    "money": FieldSpec("money"),
    "food": FieldSpec("food"),
    "builders": FieldSpec("builders"),
    "villagers": FieldSpec("villagers"),
    "coins_on_cards": FieldSpec("coins_on_cards"),
}


def next_market(state: VillagersState) -> int | None:
    done = {m.which for m in state.markets}
    return next((m for m in MARKETS if m not in done), None)


def default_market_input(state: VillagersState, player: int) -> MarketIn:
    return MarketIn(player=player, coins_on_cards=state.players[player].coins_on_cards)


def market_income(which: int, rows: list[MarketIn], names: list[str]) -> list[MarketLine]:
    """Income per player for a market (ValueError on a negative count)."""
    tallies = [MarketTally(name=names[r.player], gold_icons=r.gold_icons,
                           coins_on_cards=r.coins_on_cards,
                           silver=[SilverFormula(coins_each=s.coins_each, count=s.count)
                                   for s in r.silver])
               for r in rows]
    incomes = first_market(tallies) if which == 1 else second_market(tallies)
    return [MarketLine(player=r.player, gold=inc.gold, coins=inc.coins, silver=inc.silver,
                       total=inc.total) for r, inc in zip(rows, incomes, strict=True)]


class VillagersRules(TallyRules[VillagersState]):
    game = GAME_ID
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    edits = edit_table(SetField, AdjustField, PayMarket, Unlock)
    fields = FIELDS
    scorer = score_payload

    def start(self, setup: TallySetup) -> VillagersState:
        return VillagersState(players=[VillageRow(name=n) for n in setup.players])

    def apply_edit(self, work: VillagersState, edit: Edit) -> None:
        if isinstance(edit, PayMarket):
            self._market(work, edit)
        elif isinstance(edit, Unlock):
            self._unlock(work, edit)
        else:  # pragma: no cover - parse() only yields the edits above
            unknown_edit(edit)

    @staticmethod
    def _market(work: VillagersState, edit: PayMarket) -> None:
        expected = next_market(work)
        if expected is None:
            reject("which", "both markets are already paid out", key="villagers.markets_paid")
        if edit.which != expected:
            reject("which", f"the next market is market {expected}, not {edit.which}",
                   key="villagers.wrong_market", params={"expected": expected, "which": edit.which})
        check_one_row_each(edit.players, work.players)
        for k, row in enumerate(edit.players):
            check_not_negative(row, ("gold_icons", "coins_on_cards"), f"players[{k}]")
            for j, s in enumerate(row.silver):
                check_not_negative(s, ("coins_each", "count"), f"players[{k}].silver[{j}]")
        lines = market_income(edit.which, edit.players, [p.name for p in work.players])
        for line, row in zip(lines, edit.players, strict=True):
            player = work.players[line.player]
            player.money += line.total
            # First market: the coins stay on the cards; second: they are taken back.
            player.coins_on_cards = row.coins_on_cards if edit.which == 1 else 0
        work.markets.append(MarketRecord(which=edit.which, lines=lines))

    @staticmethod
    def _unlock(work: VillagersState, edit: Unlock) -> None:
        check_player(edit.player, work.players)
        if edit.owner is not None:
            check_player(edit.owner, work.players, field="owner")
        transfer = unlock_transfer(owns_unlocker=edit.owner == edit.player,
                                   others_own_unlocker=edit.owner is not None)
        payer = work.players[edit.player]
        if transfer.source == "player":
            if payer.money < transfer.amount:
                reject("player", f"{payer.name} has {payer.money} coins; unlocking costs "
                                 f"{transfer.amount}",
                       key="villagers.cannot_pay_unlock",
                       params={"name": payer.name, "money": payer.money, "amount": transfer.amount})
            payer.money -= transfer.amount
        if edit.owner is not None:  # the fee lies on the unlocking villager's card
            work.players[edit.owner].coins_on_cards += transfer.amount

    def score_payload(self, state: VillagersState) -> dict[str, Any]:
        return {"game": GAME_ID, "players": [
            {"name": p.name, "money": p.money, "villagers": p.villagers}
            for p in state.players]}

    def tie_keys(self, state: VillagersState) -> list[TieKey]:
        return tie_keys([p.villagers for p in state.players])


RULES = VillagersRules()
