"""Small City tally: the state the assistant keeps during a game and its reducer.

The table plays; the app keeps the numbers: round and phase, each player's money, votes
and accumulated pollution, this round's special-action picks (and what they cost), the
votes gained in phase 5, trades, every phase-6 measurement, and the promise cards kept.
All arithmetic is the existing rules code (actions, voting, trade, pollution, promises);
the final sheet goes through scoring.score_payload, exactly like `village-companion score`.

Seats follow the setup order: seat 1 (index 0) holds the mayor in round 1.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from companion.scoring.tiebreak import TieKey
from companion.small_city.actions import pick_cost
from companion.small_city.data import (
    ACTION_CIRCLE_SIZE,
    ELIMINATION_LEVEL,
    MAX_PLAYERS,
    MAX_RESIDENTS_PER_RESIDENCE,
    MIN_PLAYERS,
    MONEY_TO_VOTES,
    PHASES,
    PROMISE_VALUES,
    ROUNDS,
    STARTING_MONEY,
)
from companion.small_city.final import tie_keys
from companion.small_city.pollution import TownPollution, pollution_phase
from companion.small_city.scoring import score_payload
from companion.small_city.trade import (
    Material,
    money_for_material,
    votes_for_material,
    votes_for_money,
)
from companion.small_city.voting import residence_votes, voting_phase
from companion.tally.errors import EditRejected, Problem, reject
from companion.tally.rules import (
    AdjustField,
    Edit,
    FieldSpec,
    SetField,
    TallyRules,
    TallyState,
    check_not_negative,
    check_player,
    edit_table,
    unknown_edit,
)
from companion.tally.setup import TallySetup

GAME_ID = "small-city"
PROMISE_CARDS = range(1, 33)

# ---- state ---------------------------------------------------------------------------------


class CityRow(BaseModel):
    name: str
    seat: int  # 1..4, decides the starting money
    money: int
    votes: int = 0
    pollution: int = 0  # accumulated level (per cent)

    @property
    def out(self) -> bool:
        return self.pollution >= ELIMINATION_LEVEL


class ActionPick(BaseModel):
    round: int
    player: int
    position: int  # 0..7 around the circle
    cost: int


class VoteRecord(BaseModel):
    round: int
    player: int
    votes: int


class TownRecord(BaseModel):
    player: int
    produced: int
    level: int


class PollutionRecord(BaseModel):
    round: int
    towns: list[TownRecord]
    deaths_triggered: bool
    losers: list[int]  # must lose one resident
    eliminated: list[int]  # reached 100: out of the game


class KeptPromise(BaseModel):
    card: int  # 1..32
    player: int
    value: int  # 6, 12 or 18 (its pile)
    fulfilled: bool | None = None  # decided at the end


class SmallCityState(TallyState):
    players: list[CityRow]
    round: int = 1
    phase: int = 1
    mayor: int = 0
    picks: list[ActionPick] = Field(default_factory=list)
    votes_gained: list[VoteRecord] = Field(default_factory=list)
    pollution_rounds: list[PollutionRecord] = Field(default_factory=list)
    promises: list[KeptPromise] = Field(default_factory=list)


# ---- edits ---------------------------------------------------------------------------------


class SetStep(Edit):
    type: Literal["step"] = "step"
    round: int
    phase: int


class SetMayor(Edit):
    type: Literal["mayor"] = "mayor"
    player: int


class PickAction(Edit):
    type: Literal["pick"] = "pick"
    player: int
    position: int


class AddVotes(Edit):
    """Phase 5: residents per residence (each scored 1+2+...), plus an active University."""

    type: Literal["vote"] = "vote"
    player: int
    residences: list[int]
    university: bool = False


TradeKind = Literal["money_to_votes", "material_to_votes", "material_to_money"]


class Trade(Edit):
    type: Literal["trade"] = "trade"
    player: int
    kind: TradeKind
    dollars: int | None = None  # money_to_votes: $1-$4
    material: Material | None = None  # the two material trades


class TownIn(Edit):
    player: int
    residents: int
    materials: int
    parks: int
    engineer: bool = False


class MeasurePollution(Edit):
    type: Literal["pollution"] = "pollution"
    towns: list[TownIn]


class KeepPromise(Edit):
    type: Literal["keep_promise"] = "keep_promise"
    player: int
    card: int
    value: int


class DropPromise(Edit):
    type: Literal["drop_promise"] = "drop_promise"
    card: int


class PromiseResult(Edit):
    type: Literal["promise_result"] = "promise_result"
    card: int
    fulfilled: bool | None


FIELDS: dict[str, FieldSpec] = {
    "money": FieldSpec("money"),
    "votes": FieldSpec("votes"),
    "pollution": FieldSpec("pollution"),
}

# ---- pure helpers the screens use too ------------------------------------------------------


def round_picks(state: SmallCityState) -> list[ActionPick]:
    return [p for p in state.picks if p.round == state.round]


def pick_order(state: SmallCityState) -> list[int]:
    """Who picks this round, in order: the mayor, then clockwise; players out skip."""
    n = len(state.players)
    seats = [(state.mayor + k) % n for k in range(n)]
    return [i for i in seats if not state.players[i].out]


def next_picker(state: SmallCityState) -> int | None:
    done = {p.player for p in round_picks(state)}
    return next((i for i in pick_order(state) if i not in done), None)


def cost_for(state: SmallCityState, position: int) -> int:
    """What the next picker pays for the card at `position` (ValueError if it is taken)."""
    picks = round_picks(state)
    previous = picks[-1].position if picks else None
    return pick_cost(previous, position, [p.position for p in picks])


def kept(state: SmallCityState, card: int) -> KeptPromise | None:
    return next((k for k in state.promises if k.card == card), None)


def measured(state: SmallCityState, round_number: int) -> PollutionRecord | None:
    return next((r for r in state.pollution_rounds if r.round == round_number), None)


def next_step(state: SmallCityState) -> tuple[int, int] | None:
    if state.phase < len(PHASES):
        return state.round, state.phase + 1
    if state.round < ROUNDS:
        return state.round + 1, 1
    return None


def next_mayor_clockwise(state: SmallCityState) -> int:
    """Phase 8 when nobody took the Mayor card: the mayor passes clockwise (to a player
    still in the game)."""
    n = len(state.players)
    for k in range(1, n + 1):
        candidate = (state.mayor + k) % n
        if not state.players[candidate].out:
            return candidate
    return state.mayor


# ---- the reducer ---------------------------------------------------------------------------


def _check_in_game(state: SmallCityState, player: int) -> CityRow:
    check_player(player, state.players)
    row = state.players[player]
    if row.out:
        reject("player", f"{row.name} is out of the game (pollution {row.pollution})",
               key="small_city.out_of_game", params={"name": row.name, "pollution": row.pollution})
    return row


def _check_card(card: int) -> None:
    if card not in PROMISE_CARDS:
        reject("card", f"must be a promise card 1 to {PROMISE_CARDS[-1]}, not {card}",
               key="small_city.promise_card_range",
               params={"maximum": PROMISE_CARDS[-1], "card": card})


class SmallCityRules(TallyRules[SmallCityState]):
    game = GAME_ID
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    edits = edit_table(SetField, AdjustField, SetStep, SetMayor, PickAction, AddVotes, Trade,
                       MeasurePollution, KeepPromise, DropPromise, PromiseResult)
    fields = FIELDS
    scorer = score_payload

    def start(self, setup: TallySetup) -> SmallCityState:
        return SmallCityState(players=[
            CityRow(name=name, seat=i + 1, money=STARTING_MONEY[i + 1])
            for i, name in enumerate(setup.players)])

    def apply_edit(self, work: SmallCityState, edit: Edit) -> None:
        if isinstance(edit, SetStep):
            self._step(work, edit)
        elif isinstance(edit, SetMayor):
            _check_in_game(work, edit.player)
            work.mayor = edit.player
        elif isinstance(edit, PickAction):
            self._pick(work, edit)
        elif isinstance(edit, AddVotes):
            self._vote(work, edit)
        elif isinstance(edit, Trade):
            self._trade(work, edit)
        elif isinstance(edit, MeasurePollution):
            self._pollution(work, edit)
        elif isinstance(edit, KeepPromise | DropPromise | PromiseResult):
            self._promise(work, edit)
        else:  # pragma: no cover - parse() only yields the edits above
            unknown_edit(edit)

    # -- phases ------------------------------------------------------------------------------
    @staticmethod
    def _step(work: SmallCityState, edit: SetStep) -> None:
        if not 1 <= edit.round <= ROUNDS:
            reject("round", f"must be 1 to {ROUNDS}, not {edit.round}",
                   key="tally.range_from_one", params={"maximum": ROUNDS, "value": edit.round})
        if not 1 <= edit.phase <= len(PHASES):
            reject("phase", f"must be 1 to {len(PHASES)}, not {edit.phase}",
                   key="tally.range_from_one", params={"maximum": len(PHASES), "value": edit.phase})
        work.round, work.phase = edit.round, edit.phase

    @staticmethod
    def _pick(work: SmallCityState, edit: PickAction) -> None:
        row = _check_in_game(work, edit.player)
        if not 0 <= edit.position < ACTION_CIRCLE_SIZE:
            reject("position", f"must be a card 0 to {ACTION_CIRCLE_SIZE - 1}, "
                               f"not {edit.position}",
                   key="small_city.action_card_range",
                   params={"maximum": ACTION_CIRCLE_SIZE - 1, "position": edit.position})
        turn = next_picker(work)
        if turn is None:
            reject("player", "everyone has picked a special action this round",
                   key="small_city.all_picked")
        if turn != edit.player:
            reject("player", f"it is {work.players[turn].name}'s turn to pick "
                             "(the mayor picks first, then clockwise)",
                   key="small_city.not_your_pick", params={"name": work.players[turn].name})
        try:
            cost = cost_for(work, edit.position)
        except ValueError as exc:
            reject("position", str(exc),
                   key="small_city.card_taken", params={"card": edit.position})
        if cost > row.money:
            reject("position", f"costs ${cost} but {row.name} has ${row.money}",
                   key="small_city.pick_costs_too_much",
                   params={"cost": cost, "name": row.name, "money": row.money})
        row.money -= cost
        work.picks.append(ActionPick(round=work.round, player=edit.player,
                                     position=edit.position, cost=cost))

    @staticmethod
    def _vote(work: SmallCityState, edit: AddVotes) -> None:
        row = _check_in_game(work, edit.player)
        for i, residents in enumerate(edit.residences):
            try:
                residence_votes(residents)
            except ValueError as exc:
                reject(f"residences[{i}]", str(exc),
                       key="small_city.residents_range",
                       params={"maximum": MAX_RESIDENTS_PER_RESIDENCE, "residents": residents})
        gained = voting_phase(edit.residences, edit.university)
        row.votes += gained
        work.votes_gained.append(VoteRecord(round=work.round, player=edit.player,
                                            votes=gained))

    @staticmethod
    def _trade(work: SmallCityState, edit: Trade) -> None:
        row = _check_in_game(work, edit.player)
        if edit.kind == "money_to_votes":
            if edit.dollars is None:
                reject("dollars", "say how many dollars the trade spends ($1 to $4)",
                       key="small_city.say_trade_dollars")
            try:
                votes = votes_for_money(edit.dollars)
            except ValueError as exc:
                reject("dollars", str(exc),
                       key="small_city.trade_dollars_range",
                       params={"maximum": max(MONEY_TO_VOTES), "dollars": edit.dollars})
            if edit.dollars > row.money:
                reject("dollars", f"the trade costs ${edit.dollars} but {row.name} "
                                  f"has ${row.money}",
                       key="small_city.trade_costs_too_much",
                       params={"dollars": edit.dollars, "name": row.name, "money": row.money})
            row.money -= edit.dollars
            row.votes += votes
            return
        if edit.material is None:
            reject("material", "say which material is traded (white, grey or black)",
                   key="small_city.say_material")
        if edit.kind == "material_to_votes":
            row.votes += votes_for_material(edit.material)
        else:
            row.money += money_for_material(edit.material)

    @staticmethod
    def _pollution(work: SmallCityState, edit: MeasurePollution) -> None:
        if measured(work, work.round) is not None:
            reject("round", f"pollution of round {work.round} is already measured "
                            "(undo it to measure again)",
                   key="small_city.pollution_measured", params={"round": work.round})
        in_game = [i for i, p in enumerate(work.players) if not p.out]
        listed = [t.player for t in edit.towns]
        if sorted(listed) != in_game:
            names = ", ".join(work.players[i].name for i in in_game)
            reject("towns", f"give one town for each player still in the game: {names}",
                   key="small_city.one_town_per_player", params={"names": names})
        towns = []
        for k, t in enumerate(edit.towns):
            check_not_negative(t, ("residents", "materials", "parks"), f"towns[{k}]")
            # The rules code names towns; the index as name maps results back to players.
            towns.append(TownPollution(name=str(t.player), level=work.players[t.player].pollution,
                                       residents=t.residents, materials=t.materials,
                                       parks=t.parks, engineer=t.engineer))
        outcome = pollution_phase(towns)
        records = []
        for result in outcome.towns:
            player = int(result.name)
            work.players[player].pollution = result.level
            records.append(TownRecord(player=player, produced=result.produced,
                                      level=result.level))
        work.pollution_rounds.append(PollutionRecord(
            round=work.round, towns=records, deaths_triggered=outcome.deaths_triggered,
            losers=[int(n) for n in outcome.losers],
            eliminated=[int(n) for n in outcome.eliminated]))

    @staticmethod
    def _promise(work: SmallCityState,
                 edit: KeepPromise | DropPromise | PromiseResult) -> None:
        _check_card(edit.card)
        existing = kept(work, edit.card)
        if isinstance(edit, KeepPromise):
            check_player(edit.player, work.players)
            if edit.value not in PROMISE_VALUES:
                allowed = ", ".join(str(v) for v in PROMISE_VALUES)
                reject("value", f"must be one of {allowed} (the pile it came from), "
                                f"not {edit.value}",
                       key="small_city.promise_not_from_pile",
                       params={"allowed": allowed, "value": edit.value})
            if existing is not None:
                reject("card", f"card {edit.card} is already kept by "
                               f"{work.players[existing.player].name}",
                       key="small_city.promise_kept",
                       params={"card": edit.card, "name": work.players[existing.player].name})
            work.promises.append(KeptPromise(card=edit.card, player=edit.player,
                                             value=edit.value))
            return
        if existing is None:
            reject("card", f"nobody keeps card {edit.card}",
                   key="small_city.nobody_keeps_card", params={"card": edit.card})
        if isinstance(edit, DropPromise):
            work.promises.remove(existing)
        else:
            existing.fulfilled = edit.fulfilled

    # -- end of game ---------------------------------------------------------------------------
    def score_payload(self, state: SmallCityState) -> dict[str, Any]:
        problems = [
            Problem(f"promise {k.card}", f"mark whether {state.players[k.player].name} "
                                         "fulfilled it or failed", "small_city.mark_promise",
                    {"card": k.card, "name": state.players[k.player].name})
            for k in state.promises if k.fulfilled is None]
        if problems:
            raise EditRejected(problems)
        return {"game": GAME_ID, "players": [
            {"name": p.name, "votes": p.votes, "pollution": p.pollution, "money": p.money,
             "promises": [{"value": k.value, "fulfilled": k.fulfilled}
                          for k in state.promises if k.player == i]}
            for i, p in enumerate(state.players)]}

    def tie_keys(self, state: SmallCityState) -> list[TieKey]:
        return tie_keys([p.pollution for p in state.players], [p.money for p in state.players])


RULES = SmallCityRules()
