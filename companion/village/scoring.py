"""Village final scoring: from a score file (CLI contract) or from a tracked game state."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from companion.core.json_types import JsonObject
from companion.scoring.contract import PlayerResult, ScoreSheet
from companion.scoring.inputs import Count, StrictModel, parse_players_payload
from companion.scoring.tiebreak import TieKey, break_ties
from companion.village.commands import OverrideScore
from companion.village.components import ComponentData, load_components
from companion.village.locations import church_spot, council_spot
from companion.village.rules.errors import require
from companion.village.state import VillageState

MAX_MEMBERS = 12  # 11 per colour, a 12th gen-1 member with Marriage (rulebook components)
MAX_CUSTOMERS = 24  # customer tiles in the box
CATEGORIES = ("prestige", "travel", "church", "customers", "chronicle", "council", "coins")


class VillagePlayerIn(StrictModel):
    name: str
    prestige: Count = 0
    cities: Count = 0
    church: list[Count] = Field(default_factory=lambda: [0, 0, 0, 0])
    council: list[Count] = Field(default_factory=lambda: [0, 0, 0, 0])
    customers: list[Count] = Field(default_factory=list)
    chronicle: Count = 0
    coins: Count = 0
    grain: Count = 0
    living: Count = 0
    youngest: Count = 0

    @field_validator("cities")
    @classmethod
    def _cities(cls, v: int) -> int:
        if v > 6:
            raise ValueError("must be between 0 and 6")
        return v

    @field_validator("church", "council")
    @classmethod
    def _levels(cls, v: list[int]) -> list[int]:
        if len(v) != 4:
            raise ValueError("must list the members on levels 1 to 4 (4 numbers)")
        return v

    @field_validator("grain")
    @classmethod
    def _grain(cls, v: int) -> int:
        if v > 5:
            raise ValueError("must be between 0 and 5")
        return v

    @field_validator("youngest")
    @classmethod
    def _youngest(cls, v: int) -> int:
        if v > 4:
            raise ValueError("must be between 0 and 4")
        return v


class VillageScoreIn(StrictModel):
    game: Literal["village"] = "village"
    edition: Literal["big-box", "2011"] = "big-box"
    solo: bool = False
    expansions: list[Literal["inn", "port", "marriage"]] = Field(default_factory=list)
    players: list[VillagePlayerIn]


def _file_checks(doc: VillageScoreIn) -> list[str]:
    problems = []
    if len(set(doc.expansions)) != len(doc.expansions):
        problems.append("expansions: an expansion is listed twice")
    if doc.solo and doc.edition != "big-box":
        problems.append("solo: the solo mode (Karla) is in the Big Box edition only")
    if doc.expansions and not doc.solo:
        problems.append("expansions: only used for solo achievements (set solo to true)")
    return problems


def _player_checks(at: str, p: VillagePlayerIn) -> list[str]:
    """Counts no family can reach: 11 members (12 with Marriage), 24 customer tiles."""
    problems = []
    for name, count in (("church", sum(p.church)), ("council", sum(p.council)),
                        ("chronicle", p.chronicle), ("living", p.living)):
        if count > MAX_MEMBERS:
            problems.append(f"{at}.{name}: {count} members, but a family has at most "
                            f"{MAX_MEMBERS}")
    if len(p.customers) > MAX_CUSTOMERS:
        problems.append(f"{at}.customers: at most {MAX_CUSTOMERS} customer tiles, "
                        f"not {len(p.customers)}")
    return problems


def category_maxima(comp: ComponentData) -> dict[str, int | None]:
    """The most each category can give a family, from the component data: the top of the
    travel and chronicle tables, every member (MAX_MEMBERS) on the best church or council
    level. None where the components set no bound (prestige, customers, coins)."""
    return {
        "prestige": None,
        "travel": max(int(v) for v in comp.numbers("score_travel")),
        "church": MAX_MEMBERS * max(int(v) for v in comp.numbers("score_church")),
        "customers": None,
        "chronicle": max(int(v) for v in comp.numbers("score_chronicle")),
        "council": MAX_MEMBERS * max(int(v) for v in comp.numbers("score_council")),
        "coins": None,
    }


def check_override(comp: ComponentData, cmd: OverrideScore) -> None:
    """A new score override above `category_maxima` is taken only with `beyond_max` (the
    players were asked and kept it). Checked when the command is entered, not when a log
    is replayed: overrides saved before this check open as they were."""
    most = category_maxima(comp)[cmd.category]
    require(cmd.value is None or most is None or cmd.value <= most or cmd.beyond_max,
            "value", f"more than the game can give (max {most}): keep it only on purpose",
            key="rule.score_beyond_max", params={"maximum": most})


def categories_for(comp: ComponentData, *, prestige: int, cities: int, church: list[int],
                   council: list[int], customers: list[int], chronicle: int,
                   coins: int) -> dict[str, int]:
    travel_table = comp.numbers("score_travel")
    chron_table = comp.numbers("score_chronicle")
    return {
        "prestige": prestige,
        "travel": int(travel_table[min(cities, len(travel_table) - 1)]),
        "church": sum(n * pts for n, pts in zip(church, comp.numbers("score_church"),
                                                strict=True)),
        "customers": sum(customers),
        "chronicle": int(chron_table[min(chronicle, len(chron_table) - 1)]),
        "council": sum(n * int(pts) for n, pts in
                       zip(council, comp.numbers("score_council"), strict=True)),
        "coins": coins,
    }


def achievement(comp: ComponentData, total: int, expansions: list[str]) -> str:
    raise_by = sum(int(comp.counts("solo_expansion_raise")[e]) for e in set(expansions))
    name = "apprentice"
    for threshold, label in comp.v("solo_achievements"):
        if total >= int(threshold) + (raise_by if int(threshold) > 0 else 0):
            name = str(label)
    return name


def solo_won(comp: ComponentData, achievement_name: str | None) -> bool | None:
    """Was a solo game won against Karla? None: the achievement is not one of the ladder's.

    The rulebook (seed 000, 單人遊戲) gives Karla no points to beat: "與你不同，她不會獲得
    任何貨物、金幣，或穀物，也不會獲得聲望分數" (unlike you she gains no goods, coins or
    grain, and no prestige points). So a solo game is not decided by comparing totals.
    The one result it prints is the ladder "聲望分數成就：0 - 39 : 學徒 / 40 - 49 : 旅人 /
    50 - 59 : 大師 / 60 - 69 : 宗師 / 70 - 79 : 天才 / 80 - ∞ : 賢者", whose rungs above
    the first rise with the expansions ("每個左頁的成就分數要求提高…", see `achievement`).

    The app's reading (the rulebook has no word for "won"): the first rung, 學徒
    (apprentice, 0-39), is what any score reaches, so staying on it is a game lost to
    Karla; reaching any higher rung (旅人 traveller or better, thresholds raised as
    above) is a game won against her. The achievement itself is always said too."""
    ladder = [str(label) for _threshold, label in comp.v("solo_achievements")]
    if achievement_name not in ladder:
        return None
    return achievement_name != ladder[0]


def _tiebreaks(comp: ComponentData, names: list[str], values: dict[str, list[int]]
               ) -> list[TieKey]:
    labels = {"grain": ("most grain on the farmyard", "grain"),
              "living": ("most living family members", "living members"),
              "customers": ("most customer tiles", "customer tiles"),
              "youngest": ("the higher-numbered family member", "youngest generation")}
    return [TieKey(labels[k][1], values[k], higher_wins=True, label=labels[k][0])
            for k in comp.names("tie_breaks")]


def build_sheet(comp: ComponentData, names: list[str], cats: list[dict[str, int]],
                tb_values: dict[str, list[int]], solo: bool,
                expansions: list[str]) -> ScoreSheet:
    totals: list[int | None] = [sum(c.values()) for c in cats]
    ranking = break_ties(names, totals, _tiebreaks(comp, names, tb_values))
    players = []
    for i, name in enumerate(names):
        total = totals[i]
        assert total is not None
        players.append(PlayerResult(
            name=name, categories=cats[i], total=total, rank=ranking.ranks[i],
            achievement=achievement(comp, total, expansions) if solo else None,
            tiebreak=ranking.notes[i]))
    return ScoreSheet(game="village", players=players, winners=ranking.winners)


def score_payload(payload: JsonObject) -> ScoreSheet:
    solo = payload.get("solo") is True
    doc = parse_players_payload(VillageScoreIn, VillagePlayerIn, payload,
                                minimum=1 if solo else 2, maximum=1 if solo else 5,
                                player_checks=_player_checks, checks=_file_checks)
    comp = load_components(doc.edition)
    cats = [categories_for(comp, prestige=p.prestige, cities=p.cities, church=list(p.church),
                           council=list(p.council), customers=list(p.customers),
                           chronicle=p.chronicle, coins=p.coins) for p in doc.players]
    tb = {"grain": [p.grain for p in doc.players], "living": [p.living for p in doc.players],
          "customers": [len(p.customers) for p in doc.players],
          "youngest": [p.youngest for p in doc.players]}
    return build_sheet(comp, [p.name for p in doc.players], cats, tb, doc.solo,
                       list(doc.expansions))


# ---- from a tracked game ---------------------------------------------------------------
def tracked_categories(state: VillageState, comp: ComponentData, player: int) -> dict[str, int]:
    p = state.players[player]
    church = [len(state.members_at(church_spot(lvl), player)) for lvl in range(1, 5)]
    council = [len(state.members_at(council_spot(lvl), player)) for lvl in range(1, 5)]
    # Solo: a next-start-player marker held as a coin is no coin of the player's.
    marker = 1 if state.marker_coin_holder() == player else 0
    return categories_for(comp, prestige=p.prestige, cities=len(p.cities), church=church,
                          council=council, customers=list(p.customers),
                          chronicle=len(state.members_in("chronicle", player)),
                          coins=p.coins - marker)


def sheet_from_state(state: VillageState, comp: ComponentData,
                     expansions: list[str] | None = None) -> ScoreSheet:
    """Final scoring from tracked state, with the users' logged overrides on top."""
    humans = state.humans()
    cats = []
    for i in humans:
        c = tracked_categories(state, comp, i)
        c.update(state.score_overrides.get(str(i), {}))
        cats.append(c)

    def living(i: int) -> int:
        return sum(1 for m in state.members_of(i) if m.living and m.loc != "supply")

    def youngest(i: int) -> int:
        gens = [m.gen for m in state.members_of(i) if m.living and m.loc != "supply"]
        return max(gens, default=0)

    tb = {"grain": [state.players[i].grain for i in humans],
          "living": [living(i) for i in humans],
          "customers": [len(state.players[i].customers) for i in humans],
          "youngest": [youngest(i) for i in humans]}
    return build_sheet(comp, [state.players[i].name for i in humans], cats, tb, state.solo,
                       list(expansions or []))
