"""Feudum tally: the numbers the assistant keeps across the five epochs, and its reducer.

Kept per player: the VP track, shillings, sulfur in the wine cask, discs on the military
service track, ruled locations, the epic-journey disc and sealed decree charters. Kept for
the table: the epoch, the six landscape stacks, every progress-die roll (a chance event:
rolled by the app from the session's seeded RNG, or entered as rolled physically) and
every dawn scored. Dawn and final arithmetic is the existing rules code (dawn.py,
progress.py, scoring.score_payload).

The seed does not print how the 24 landscape tiles split into stacks; like the rules
tests, the tally starts each region's stack as epochs I, II, III, IV (top first).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from companion.feudum.data import (
    APPRENTICE_MIN_PLAYERS,
    EPOCHS,
    FIEF_DISCS,
    MAP_LOCATIONS,
    MAX_DECREES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MONASTERY_STAGE,
    PROGRESS_DIE_FACES,
    REGIONS,
    SERVICE_TRACK,
    WINE_CASK_MAX_SULFUR,
    GuildStatus,
)
from companion.feudum.dawn import DawnPlayer, dawn_scores
from companion.feudum.final import tie_keys
from companion.feudum.progress import needs_roll, resolve_progress_roll, triggered_epoch
from companion.feudum.scoring import score_payload
from companion.scoring.tiebreak import TieKey
from companion.tally.chance import ChanceSource
from companion.tally.errors import reject
from companion.tally.rules import (
    AdjustField,
    Edit,
    FieldSpec,
    RngFactory,
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

GAME_ID = "feudum"
# L142: the six guilds, in the order the seed lists them.
Guild = Literal["farmers", "merchants", "alchemists", "knights", "nobles", "monks"]
GUILDS: tuple[Guild, ...] = ("farmers", "merchants", "alchemists", "knights", "nobles",
                             "monks")
STARTING_SHILLINGS = 7  # L150: each player starts with 7 shillings
STARTING_STACK: tuple[int, ...] = (1, 2, 3, 4)

# ---- state ---------------------------------------------------------------------------------


class FeudumRow(BaseModel):
    name: str
    vp: int = 0
    shillings: int = STARTING_SHILLINGS
    sulfur: int = 0  # in the wine cask (the tie-break)
    service_discs: int = 0  # own discs on the military service track
    outpost: int = 0
    farm: int = 0
    town: int = 0
    fief: int = 0
    journey_stage: int = 0  # 0 = not on the track, 1-3, 4 = the monastery
    journey_position: int = 0  # space within the stage, from 1
    decrees: list[int] = Field(default_factory=list)  # VP of each sealed charter

    @property
    def vassal(self) -> bool:
        return self.fief > 0


class RollRecord(BaseModel):
    epoch: int
    face: int
    region: str
    source: ChanceSource
    removed_epoch: int | None
    reroll: bool


class DawnLine(BaseModel):
    player: int
    guilds: int
    outlands: int
    regions: int
    disloyalty: int
    total: int


class DawnRecord(BaseModel):
    epoch: int
    lines: list[DawnLine]


class FeudumState(TallyState):
    players: list[FeudumRow]
    epoch: int = 1
    stacks: dict[str, list[int]] = Field(
        default_factory=lambda: {r: list(STARTING_STACK) for r in REGIONS})
    rolls: list[RollRecord] = Field(default_factory=list)
    dawns: list[DawnRecord] = Field(default_factory=list)


# ---- edits ---------------------------------------------------------------------------------


class SetJourney(Edit):
    type: Literal["journey"] = "journey"
    player: int
    stage: int
    position: int


class SetDecrees(Edit):
    type: Literal["decrees"] = "decrees"
    player: int
    values: list[int]


class RollDie(Edit):
    """A progress-die roll: `source` app (the app rolls; face filled in before it is
    recorded) or manual (the table rolled; face as read)."""

    type: Literal["roll"] = "roll"
    source: ChanceSource
    face: int | None = None


class TakeTile(Edit):
    """An upgrade took the top landscape tile of a region's stack (seed L418)."""

    type: Literal["take_tile"] = "take_tile"
    region: str


class DawnIn(Edit):
    player: int
    guilds: dict[Guild, GuildStatus] = Field(default_factory=dict)
    outlands_with_resources: int = 0
    outlands_empty: int = 0
    active_regions: int = 0
    vassal: bool = False
    service_discs: int = 0


class ScoreDawn(Edit):
    type: Literal["dawn"] = "dawn"
    epoch: int
    players: list[DawnIn]


FIELDS: dict[str, FieldSpec] = {
    # Disloyalty can take a vassal below 0 VP; the seed sets no floor (L446-L450).
    "vp": FieldSpec("vp", minimum=None),
    "shillings": FieldSpec("shillings"),
    "sulfur": FieldSpec("sulfur", maximum=WINE_CASK_MAX_SULFUR,
                        why_max="(the wine cask holds 3 sulfur)",
                        max_key="feudum.at_most_sulfur"),
    "service_discs": FieldSpec("service_discs", maximum=len(SERVICE_TRACK),
                               why_max="(the service track has 3 catapult spaces)",
                               max_key="feudum.at_most_service_discs"),
    "outpost": FieldSpec("outpost", maximum=MAP_LOCATIONS),
    "farm": FieldSpec("farm", maximum=MAP_LOCATIONS),
    "town": FieldSpec("town", maximum=MAP_LOCATIONS),
    "fief": FieldSpec("fief", maximum=FIEF_DISCS, why_max="(the game has 12 fief discs)",
                      max_key="feudum.at_most_fief"),
}

# ---- pure helpers the screens use too ------------------------------------------------------


def stacks_of(state: FeudumState) -> dict[str, tuple[int, ...]]:
    return {r: tuple(t) for r, t in state.stacks.items()}


def roll_needed(state: FeudumState) -> bool:
    return needs_roll(stacks_of(state), state.epoch)


def dawning_epoch(state: FeudumState) -> int | None:
    """The epoch whose dawn the stacks have triggered and that is not scored yet."""
    return triggered_epoch(stacks_of(state), state.epoch)


def next_dawn(state: FeudumState) -> int | None:
    return state.epoch + 1 if state.epoch < EPOCHS else None


def default_dawn_input(state: FeudumState, player: int) -> DawnIn:
    """A dawn row prefilled from what the tally knows (vassal = rules a fief)."""
    row = state.players[player]
    return DawnIn(player=player, vassal=row.vassal, service_discs=row.service_discs)


# ---- the reducer ---------------------------------------------------------------------------


class FeudumRules(TallyRules[FeudumState]):
    game = GAME_ID
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    edits = edit_table(SetField, AdjustField, SetJourney, SetDecrees, RollDie, TakeTile, ScoreDawn)
    fields = FIELDS
    scorer = score_payload

    def start(self, setup: TallySetup) -> FeudumState:
        return FeudumState(players=[FeudumRow(name=n) for n in setup.players])

    def complete(self, state: FeudumState, edit: Edit, rng: RngFactory) -> Edit:
        if isinstance(edit, RollDie) and edit.source == "app" and edit.face is None:
            face = rng("progress_die").randint(1, len(PROGRESS_DIE_FACES))
            return edit.model_copy(update={"face": face})
        return edit

    def check_row(self, work: FeudumState, player: int) -> None:
        self._check_ruled(work.players[player])

    def apply_edit(self, work: FeudumState, edit: Edit) -> None:
        if isinstance(edit, SetJourney):
            self._journey(work, edit)
        elif isinstance(edit, SetDecrees):
            check_player(edit.player, work.players)
            if len(edit.values) > MAX_DECREES:
                reject("values", f"must list at most {MAX_DECREES} charters "
                                 "(a player never holds more than 3 royal decrees)",
                       key="feudum.too_many_decrees", params={"maximum": MAX_DECREES})
            for i, vp in enumerate(edit.values):
                if vp < 0:
                    reject(f"values[{i}]", f"must be at least 0, not {vp}",
                           key="tally.not_negative", params={"value": vp})
            work.players[edit.player].decrees = list(edit.values)
        elif isinstance(edit, RollDie):
            self._roll(work, edit)
        elif isinstance(edit, TakeTile):
            self._take_tile(work, edit)
        elif isinstance(edit, ScoreDawn):
            self._dawn(work, edit)
        else:  # pragma: no cover - parse() only yields the edits above
            unknown_edit(edit)

    @staticmethod
    def _check_ruled(row: FeudumRow) -> None:
        ruled = row.outpost + row.farm + row.town + row.fief
        if ruled > MAP_LOCATIONS:
            reject("value", f"{row.name} would rule {ruled} locations; the map has "
                            f"{MAP_LOCATIONS}",
                   key="feudum.too_many_locations",
                   params={"name": row.name, "ruled": ruled, "locations": MAP_LOCATIONS})

    @staticmethod
    def _journey(work: FeudumState, edit: SetJourney) -> None:
        check_player(edit.player, work.players)
        stage, pos = edit.stage, edit.position
        if not 0 <= stage <= MONASTERY_STAGE:
            reject("stage", f"must be 0 to {MONASTERY_STAGE}, not {stage}",
                   key="feudum.journey_stage_range",
                   params={"maximum": MONASTERY_STAGE, "stage": stage})
        if stage == 0 and pos != 0:
            reject("position", "must be 0 when the disc is not on the journey track",
                   key="feudum.position_off_track")
        if stage == MONASTERY_STAGE and pos != 1:
            reject("position", "must be 1 at the monastery (a single space)",
                   key="feudum.position_monastery")
        if 0 < stage < MONASTERY_STAGE and pos < 1:
            reject("position", "must be at least 1 (spaces are counted from 1)",
                   key="feudum.position_from_one")
        row = work.players[edit.player]
        row.journey_stage, row.journey_position = stage, pos

    @staticmethod
    def _roll(work: FeudumState, edit: RollDie) -> None:
        if edit.face is None:
            reject("face", "say which face the die shows (1 to 6)", key="feudum.say_die_face")
        try:
            result = resolve_progress_roll(edit.face, stacks_of(work), work.epoch)
        except ValueError as exc:
            reject("face", str(exc),
                   key="feudum.no_roll_needed" if 1 <= edit.face <= 6 else "feudum.die_face_range",
                   params={"face": edit.face})
        work.stacks = {r: list(t) for r, t in result.stacks.items()}
        work.rolls.append(RollRecord(epoch=work.epoch, face=edit.face, region=result.region,
                                     source=edit.source, removed_epoch=result.removed_epoch,
                                     reroll=result.reroll))

    @staticmethod
    def _take_tile(work: FeudumState, edit: TakeTile) -> None:
        if edit.region not in work.stacks:
            reject("region", f"must be one of {', '.join(REGIONS)}, not {edit.region!r}",
                   key="tally.not_one_of",
                   params={"options": ", ".join(REGIONS), "value": edit.region})
        tiles = work.stacks[edit.region]
        if not tiles:
            reject("region", f"the {edit.region} stack is empty",
                   key="feudum.stack_empty", params={"region": edit.region})
        if tiles[0] > work.epoch:
            reject("region", f"the top {edit.region} tile is from epoch {tiles[0]}; only "
                             f"tiles of epoch {work.epoch} or earlier can be taken",
                   key="feudum.tile_too_new",
                   params={"region": edit.region, "tile_epoch": tiles[0], "epoch": work.epoch})
        tiles.pop(0)

    @staticmethod
    def _dawn(work: FeudumState, edit: ScoreDawn) -> None:
        expected = next_dawn(work)
        if expected is None:
            reject("epoch", "every dawn is scored; the game is at its end",
                   key="feudum.all_dawns_scored")
        if edit.epoch != expected:
            reject("epoch", f"the next dawn to score is epoch {expected}, not {edit.epoch}",
                   key="feudum.wrong_dawn", params={"expected": expected, "epoch": edit.epoch})
        check_one_row_each(edit.players, work.players)
        few = len(edit.players) < APPRENTICE_MIN_PLAYERS
        for guild in GUILDS:  # a guild has one master, one expert, one apprentice
            holders: dict[str, int] = {}
            for k, row in enumerate(edit.players):
                status = row.guilds.get(guild)
                if status is None:
                    continue
                if status == "apprentice" and few:  # L712: the position is not used
                    reject(f"players[{k}].guilds.{guild}",
                           f"there is no apprentice with fewer than {APPRENTICE_MIN_PLAYERS} "
                           "players",
                           key="feudum.no_apprentice", params={"players": APPRENTICE_MIN_PLAYERS})
                if status in holders:
                    other = work.players[edit.players[holders[status]].player].name
                    reject(f"players[{k}].guilds.{guild}",
                           f"{other} is already {status} of the {guild}",
                           key="feudum.guild_seat_taken",
                           params={"other": other, "status": status, "guild": guild})
                holders[status] = k
        for k, row in enumerate(edit.players):
            check_not_negative(row, ("outlands_with_resources", "outlands_empty",
                                     "active_regions", "service_discs"), f"players[{k}]")
            if row.active_regions > len(REGIONS):
                reject(f"players[{k}].active_regions",
                       f"must be at most {len(REGIONS)} (the map has {len(REGIONS)} regions), "
                       f"not {row.active_regions}",
                       key="feudum.too_many_regions",
                       params={"maximum": len(REGIONS), "value": row.active_regions})
            if row.service_discs > len(SERVICE_TRACK):
                reject(f"players[{k}].service_discs",
                       f"must be at most {len(SERVICE_TRACK)} (the service track has "
                       f"{len(SERVICE_TRACK)} catapult spaces), not {row.service_discs}",
                       key="feudum.at_most_service_discs",
                       params={"maximum": len(SERVICE_TRACK), "value": row.service_discs})
        try:
            scores = dawn_scores(edit.epoch, [
                DawnPlayer(name=work.players[row.player].name,
                           guild_statuses=list(row.guilds.values()),
                           outlands_with_resources=row.outlands_with_resources,
                           outlands_empty=row.outlands_empty,
                           active_regions=row.active_regions, vassal=row.vassal,
                           service_discs=row.service_discs)
                for row in edit.players])
        except ValueError as exc:  # pragma: no cover - every row is checked above
            reject("players", str(exc), key="feudum.dawn_not_scored", params={"reason": str(exc)})
        lines = []
        for row, score in zip(edit.players, scores, strict=True):
            player = work.players[row.player]
            # No floor: the seed's disloyalty penalties are simply subtracted (L446-L450).
            player.vp += score.total
            player.service_discs = row.service_discs
            lines.append(DawnLine(player=row.player, guilds=score.guilds,
                                  outlands=score.outlands, regions=score.regions,
                                  disloyalty=score.disloyalty, total=score.total))
        work.epoch = edit.epoch
        work.dawns.append(DawnRecord(epoch=edit.epoch, lines=lines))

    # -- end of game ---------------------------------------------------------------------------
    def score_payload(self, state: FeudumState) -> dict[str, Any]:
        return {"game": GAME_ID, "players": [
            {"name": p.name, "vp": p.vp,
             "journey": {"stage": p.journey_stage, "position": p.journey_position},
             "ruled": {"outpost": p.outpost, "farm": p.farm, "town": p.town, "fief": p.fief},
             "shillings": p.shillings, "decrees": list(p.decrees), "sulfur": p.sulfur}
            for p in state.players]}

    def tie_keys(self, state: FeudumState) -> list[TieKey]:
        return tie_keys([p.sulfur for p in state.players])


RULES = FeudumRules()
