"""Feudum screen: Epoch (progress die, landscape stacks), Dawn (epoch scoring),
Players (VP track, shillings, sulfur, journey, ruled locations, charters), Final."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.assistants.controller import Outcome
from companion.app.assistants.final import final_section
from companion.app.assistants.play import TallyScreen
from companion.app.assistants.players import FieldRow, field_rows, player_chips
from companion.app.kit import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    TOUCH_TARGET,
    Section,
    ask_number,
    banner,
    big_button,
    card,
    chips,
    count_stepper,
    heading,
    icon_button,
)
from companion.app.routing import RouteParams
from companion.feudum.data import (
    APPRENTICE_MIN_PLAYERS,
    EPOCHS,
    MAX_DECREES,
    MONASTERY_STAGE,
    PROGRESS_DIE_FACES,
    REGIONS,
    SERVICE_TRACK,
    WINE_CASK_MAX_SULFUR,
    GuildStatus,
)
from companion.feudum.dawn import DawnPlayer, dawn_scores
from companion.feudum.tally import (
    GUILDS,
    DawnIn,
    FeudumState,
    Guild,
    RollDie,
    ScoreDawn,
    SetDecrees,
    SetJourney,
    TakeTile,
    dawning_epoch,
    next_dawn,
    roll_needed,
)

if TYPE_CHECKING:
    from companion.app.context import AppContext

ROMAN = ("", "I", "II", "III", "IV", "V")
REGION_KEYS = {"ocean": "games.fd.region.ocean", "island": "games.fd.region.island",
               "forest": "games.fd.region.forest", "desert": "games.fd.region.desert",
               "wasteland": "games.fd.region.wasteland",
               "mountain": "games.fd.region.mountain"}
GUILD_KEYS = {"farmers": "games.fd.guild.farmers", "merchants": "games.fd.guild.merchants",
              "alchemists": "games.fd.guild.alchemists", "knights": "games.fd.guild.knights",
              "nobles": "games.fd.guild.nobles", "monks": "games.fd.guild.monks"}
STATUS_KEYS = {None: "games.fd.status.none", "master": "games.fd.status.master",
               "expert": "games.fd.status.expert", "apprentice": "games.fd.status.apprentice"}
STAGE_KEYS = ("games.fd.stage.none", "games.fd.stage.one", "games.fd.stage.two",
              "games.fd.stage.three", "games.fd.stage.monastery")


@dataclass
class DawnDraft:
    guilds: dict[Guild, GuildStatus] = field(default_factory=dict)
    outlands_with_resources: int = 0
    outlands_empty: int = 0
    active_regions: int = 0
    vassal: bool = False
    service_discs: int = 0

    def edit_row(self, player: int) -> DawnIn:
        return DawnIn(player=player, guilds=dict(self.guilds),
                      outlands_with_resources=self.outlands_with_resources,
                      outlands_empty=self.outlands_empty, active_regions=self.active_regions,
                      vassal=self.vassal, service_discs=self.service_discs)


class FeudumScreen(TallyScreen):
    title_key = "game.feudum"
    first_section = "epoch"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self.player = 0
        self.dawn_player = 0
        self.dawn_drafts: dict[int, DawnDraft] = {}
        self.dawn_epoch: int | None = None  # the epoch the drafts were made for

    @property
    def state(self) -> FeudumState:
        state: FeudumState = self.ctl.state
        return state

    def sections(self) -> list[Section]:
        t = self.ctx.t
        return [Section("epoch", t("games.section.epoch"), ft.Icons.CASINO),
                Section("dawn", t("games.section.dawn"), ft.Icons.WB_TWILIGHT),
                Section("players", t("games.section.players"), ft.Icons.PEOPLE),
                Section("final", t("games.section.final"), ft.Icons.EMOJI_EVENTS)]

    def looks_early(self) -> bool:
        return self.state.epoch < EPOCHS

    def status(self) -> str:
        return self.ctx.t("games.fd.status", epoch=ROMAN[self.state.epoch])

    def render_section(self, key: str) -> list[ft.Control]:
        if key == "epoch":
            return self.epoch_section()
        if key == "dawn":
            return self.dawn_section()
        if key == "players":
            return self.players_section()
        return final_section(self, self.ctl.session.rules.tie_keys(self.state))

    param_terms = {"region": REGION_KEYS, "guild": GUILD_KEYS}

    def term_keys(self) -> dict[str, str]:
        return GUILD_KEYS

    def region(self, name: str) -> str:
        return self.ctx.t(REGION_KEYS[name])

    # ---- epoch: progress die and stacks ---------------------------------------------------
    def epoch_section(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        locked = self.finished
        out: list[ft.Control] = [heading(t("games.fd.die_heading"))]
        if roll_needed(st):
            out.append(big_button(t("games.fd.roll"), ft.Icons.CASINO,
                                  lambda: self.edit(RollDie(source="app")),
                                  identifier="roll-die"))
            out.append(ft.Text(t("games.fd.rolled_physically"), size=SMALL_TEXT))
            out.append(chips([(face, f"{face} · {self.region(region)}")
                              for face, region in PROGRESS_DIE_FACES.items()], None,
                             lambda face: self.edit(RollDie(source="manual", face=face)),
                             id_prefix="face", disabled=list(PROGRESS_DIE_FACES) if locked
                             else []))
        else:
            out.append(ft.Text(t("games.fd.no_roll"), size=BODY_TEXT_SIZE))
        last = st.rolls[-1] if st.rolls else None
        if last is not None and last.epoch == st.epoch:
            source = t("games.fd.by_app") if last.source == "app" else t("games.fd.by_table")
            if last.reroll:
                words = t("games.fd.roll_again", face=last.face, region=self.region(last.region))
            else:
                words = t("games.fd.roll_removed", face=last.face,
                          region=self.region(last.region),
                          epoch=ROMAN[last.removed_epoch or 0])
            out.append(card(None, [ft.Text(words, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600),
                             ft.Text(source, size=SMALL_TEXT)], identifier="last-roll"))
        dawning = dawning_epoch(st)
        if dawning is not None:
            out.append(banner([t("games.fd.dawn_triggered", epoch=ROMAN[dawning])], error=False,
                              identifier="dawn-triggered"))
            out.append(big_button(t("games.fd.go_dawn"), ft.Icons.WB_TWILIGHT,
                                  partial(self.select, "dawn"), filled=False))
        out.append(heading(t("games.fd.stacks_heading")))
        out.append(ft.Text(t("games.fd.stacks_hint"), size=SMALL_TEXT,
                           color=ft.Colors.ON_SURFACE_VARIANT))
        for region in REGIONS:
            tiles = st.stacks[region]
            shown = (t("games.fd.stack", top=ROMAN[tiles[0]], count=len(tiles)) if tiles
                     else t("games.fd.stack_empty"))
            can_take = bool(tiles) and tiles[0] <= st.epoch and not locked
            out.append(ft.Row([
                ft.Column([ft.Text(self.region(region), size=BODY_TEXT_SIZE),
                           ft.Text(shown, size=SMALL_TEXT, color=ft.Colors.ON_SURFACE_VARIANT)],
                          spacing=0, expand=True),
                ft.TextButton(t("games.fd.take_tile"), height=TOUCH_TARGET, disabled=not can_take,
                              tooltip=t("games.fd.take_tile_of", region=self.region(region)),
                              on_click=lambda _e, r=region: self.edit(TakeTile(region=r))),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        return out

    # ---- dawn ------------------------------------------------------------------------------
    def draft(self, player: int) -> DawnDraft:
        epoch = next_dawn(self.state)
        if epoch != self.dawn_epoch:  # a new dawn: prefill from the tally
            self.dawn_epoch = epoch
            self.dawn_drafts = {}
        if player not in self.dawn_drafts:
            row = self.state.players[player]
            self.dawn_drafts[player] = DawnDraft(vassal=row.vassal,
                                                 service_discs=row.service_discs)
        return self.dawn_drafts[player]

    def set_draft(self, player: int, name: str, value: object) -> None:
        setattr(self.draft(player), name, value)
        self.render()

    def set_guild(self, player: int, guild: Guild, status: GuildStatus | None) -> None:
        guilds = self.draft(player).guilds
        if status is None:
            guilds.pop(guild, None)
        else:
            guilds[guild] = status
        self.render()

    def dawn_section(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        epoch = next_dawn(st)
        out: list[ft.Control] = []
        if epoch is None:
            out.append(heading(t("games.fd.all_dawns")))
            return out + self.past_dawns()
        player = self.dawn_player
        draft = self.draft(player)
        locked = self.finished
        out.append(heading(t("games.fd.dawn_heading", epoch=ROMAN[epoch])))
        out.append(player_chips(self, player, self._choose_dawn_player, id_prefix="dawn-player"))
        statuses: list[GuildStatus | None] = [None, "master", "expert"]
        if len(self.names) >= APPRENTICE_MIN_PLAYERS:
            statuses.append("apprentice")
        for guild in GUILDS:
            out.append(ft.Text(t(GUILD_KEYS[guild]), size=BODY_TEXT_SIZE,
                               weight=ft.FontWeight.W_600))
            out.append(chips([(s, t(STATUS_KEYS[s])) for s in statuses],
                             draft.guilds.get(guild),
                             partial(self.set_guild, player, guild),
                             id_prefix=f"guild-{guild}", disabled=statuses if locked else []))
        for name, key, maximum in (
                ("outlands_with_resources", "games.fd.outlands_full", None),
                ("outlands_empty", "games.fd.outlands_empty", None),
                ("active_regions", "games.fd.active_regions", len(REGIONS))):
            out.append(count_stepper(self.ctx, t(key), getattr(draft, name),
                               partial(self.set_draft, player, name), maximum=maximum,
                               disabled=locked))
        out.append(ft.Switch(label=t("games.fd.vassal"), value=draft.vassal, disabled=locked,
                             on_change=lambda e: self.set_draft(player, "vassal",
                                                                bool(e.control.value)),
                             height=TOUCH_TARGET))
        if draft.vassal:
            out.append(count_stepper(self.ctx, t("games.fd.service_discs"), draft.service_discs,
                               partial(self.set_draft, player, "service_discs"),
                               maximum=len(SERVICE_TRACK), disabled=locked,
                               note=t("games.fd.disloyalty_note")))
        out += self.dawn_preview(epoch)
        out.append(big_button(t("games.fd.score_dawn", epoch=ROMAN[epoch]), ft.Icons.WB_TWILIGHT,
                              partial(self.score_dawn, epoch), identifier="score-dawn"))
        return out + self.past_dawns()

    def _choose_dawn_player(self, player: int) -> None:
        self.dawn_player = player
        self.render()

    def dawn_preview(self, epoch: int) -> list[ft.Control]:
        t = self.ctx.t
        rows = [self.draft(i) for i in range(len(self.names))]
        try:
            scores = dawn_scores(epoch, [
                DawnPlayer(name=self.names[i], guild_statuses=list(d.guilds.values()),
                           outlands_with_resources=d.outlands_with_resources,
                           outlands_empty=d.outlands_empty, active_regions=d.active_regions,
                           vassal=d.vassal, service_discs=d.service_discs)
                for i, d in enumerate(rows)])
        except ValueError as exc:
            return [ft.Text(str(exc), color=ft.Colors.ERROR)]
        lines: list[ft.Control] = []
        for s in scores:
            lines.append(ft.Text(t("games.fd.dawn_line", name=s.name, guilds=s.guilds,
                                   outlands=s.outlands, regions=s.regions,
                                   disloyalty=s.disloyalty, total=s.total),
                                 size=SMALL_TEXT + 1))
        return [card(None, lines, identifier="dawn-preview")]

    def score_dawn(self, epoch: int) -> None:
        drafts = [self.draft(i) for i in range(len(self.names))]
        self.edit(lambda: ScoreDawn(epoch=epoch,
                                    players=[d.edit_row(i) for i, d in enumerate(drafts)]),
                  then=lambda: self.dawn_drafts.clear())

    def past_dawns(self) -> list[ft.Control]:
        t = self.ctx.t
        out: list[ft.Control] = []
        for record in self.state.dawns:
            scores = ", ".join(f"{self.names[line.player]} {line.total:+d}"
                               for line in record.lines)
            out.append(ft.Text(t("games.fd.dawn_scored", epoch=ROMAN[record.epoch],
                                 scores=scores), size=SMALL_TEXT))
        return out

    # ---- players ---------------------------------------------------------------------------
    def players_section(self) -> list[ft.Control]:
        t = self.ctx.t
        row = self.state.players[self.player]
        player = self.player
        locked = self.finished

        def choose(i: int) -> None:
            self.player = i
            self.render()

        out: list[ft.Control] = [player_chips(self, player, choose)]
        out += field_rows(self, player, [
            FieldRow("vp", t("games.field.vp")),
            FieldRow("shillings", t("games.field.shillings")),
            FieldRow("sulfur", t("games.field.sulfur"),
                     t("games.fd.sulfur_note", max=WINE_CASK_MAX_SULFUR)),
            FieldRow("outpost", t("games.fd.outposts")),
            FieldRow("farm", t("games.fd.farms")),
            FieldRow("town", t("games.fd.towns")),
            FieldRow("fief", t("games.field.fief")),
            FieldRow("service_discs", t("games.field.service_discs")),
        ], {name: getattr(row, name) for name in ("vp", "shillings", "sulfur", "outpost",
                                                  "farm", "town", "fief", "service_discs")})
        out.append(heading(t("games.fd.journey")))
        out.append(chips([(s, t(STAGE_KEYS[s])) for s in range(MONASTERY_STAGE + 1)],
                         row.journey_stage, self._set_stage, id_prefix="stage",
                         disabled=list(range(MONASTERY_STAGE + 1)) if locked else []))
        if 0 < row.journey_stage < MONASTERY_STAGE:
            out.append(count_stepper(self.ctx, t("games.fd.journey_position"), row.journey_position,
                               lambda v: self.edit(SetJourney(player=player,
                                                            stage=row.journey_stage,
                                                            position=v)),
                               minimum=1, disabled=locked))
        out.append(heading(t("games.fd.decrees")))
        for k, vp in enumerate(row.decrees):
            out.append(ft.Row([
                ft.Text(t("games.fd.decree", number=k + 1, vp=vp), size=BODY_TEXT_SIZE,
                        expand=True),
                icon_button(ft.Icons.EDIT, t("games.fd.decree_edit", number=k + 1),
                            partial(self._ask_decree, k, vp), disabled=locked),
                icon_button(ft.Icons.DELETE_OUTLINE, t("games.fd.decree_remove", number=k + 1),
                            partial(self._remove_decree, k), disabled=locked),
            ]))
        if len(row.decrees) < MAX_DECREES:
            out.append(ft.TextButton(t("games.fd.decree_add"), icon=ft.Icons.ADD,
                                     height=TOUCH_TARGET, disabled=locked,
                                     on_click=partial(self._ask_decree, None, 0)))
        return out

    def _set_stage(self, stage: int) -> None:
        position = 0 if stage == 0 else 1
        self.edit(SetJourney(player=self.player, stage=stage, position=position))

    def _remove_decree(self, index: int) -> None:
        values = list(self.state.players[self.player].decrees)
        values.pop(index)
        self.edit(SetDecrees(player=self.player, values=values))

    def _ask_decree(self, index: int | None, current: int) -> None:
        t = self.ctx.t
        player = self.player
        label = t("games.fd.decree_vp")

        async def save(value: int) -> Outcome:
            values = list(self.state.players[player].decrees)
            if index is None:
                values.append(value)
            else:
                values[index] = value
            return await self.save(lambda: SetDecrees(player=player, values=values))

        def describe(outcome: Outcome) -> str:
            return "; ".join(self.problem_message(p) for p in outcome.problems) or t(
                "games.not_saved")

        ask_number(self.ctx, f"{self.names[player]} · {label}", label, current, save, describe)
