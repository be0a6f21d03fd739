"""The table's parts that stay on screen across taps. Each is built once and then only
changed where the state changed (a cube's colour, a button's disabled state, a line of
text), so a tap sends a few properties instead of a new table, and the browser redraws
only those. Parts that change rarely and all at once are rebuilt through a `Slot` only when
what they show changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE
from companion.app.village.table.cubes import CubeButton, colour_dot, cube_count_row
from companion.app.village.table.words import player_name, space_name
from companion.village.read import TurnOptions
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

Action = Callable[[], object]
SPACE_LABEL_WIDTH = 96
BIG_BUTTON = 56
BUTTON_GAP = 8  # px between the turn's rows of buttons


def cube_order(cubes: Sequence[str]) -> list[str]:
    """How a space's cubes are shown: by colour name, plague last."""
    return sorted(cubes, key=lambda c: (c == "plague", c))


def same_controls(a: Sequence[ft.Control], b: Sequence[ft.Control]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def set_controls(holder: Any, controls: list[ft.Control]) -> bool:
    """Give `holder` (a Row or Column) these children unless it has exactly them; True
    when they changed."""
    if same_controls(holder.controls, controls):
        return False
    holder.controls = controls
    return True


class Slot:
    """A control rebuilt only when its signature (what it shows) changes."""

    def __init__(self) -> None:
        self._sig: Hashable = object()
        self.control: ft.Control | None = None

    def get(self, sig: Hashable, build: Callable[[], ft.Control | None]) -> ft.Control | None:
        if sig != self._sig:
            self._sig = sig
            self.control = build()
        return self.control


# ---- whose turn ---------------------------------------------------------------------------
class TurnHeader:
    """Whose turn, big; round and start player; what to do now."""

    def __init__(self) -> None:
        self.dot = ft.Container(width=28, height=28, border_radius=14,
                                border=ft.Border.all(1.5, ft.Colors.OUTLINE))
        self.who = ft.Text("", size=28, weight=ft.FontWeight.BOLD, expand=True)
        self.info = ft.Text("", size=BODY_TEXT_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)
        self.stage = ft.Text("", size=18, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY)
        self.control = ft.Semantics(identifier="table-turn", content=ft.Column([
            ft.Row([self.dot, self.who], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            self.info, self.stage], spacing=4, tight=True))

    def update(self, texts: tuple[str, str, str, str]) -> bool:
        """Show (dot colour, whose turn, round info, stage) as view_model worked them out;
        True when anything changed."""
        dot, who, info, stage = texts
        return any([_set(self.dot, "bgcolor", dot), _set(self.who, "value", who),
                    _set(self.info, "value", info), _set(self.stage, "value", stage)])


def _set(control: object, name: str, value: object) -> bool:
    """Assign only a changed value (an unchanged one is then not sent again); True when
    it changed."""
    if getattr(control, name) == value:
        return False
    setattr(control, name, value)
    return True


# ---- the action spaces --------------------------------------------------------------------
class SpaceRow:
    def __init__(self, ctx: AppContext, space: str,
                 on_tap: Callable[[str, int], object]) -> None:
        self.ctx, self.space, self.on_tap = ctx, space, on_tap
        self.colours: list[str] = []
        self.cubes: list[CubeButton] = []
        self.empty = ft.Text("—", size=BODY_TEXT_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)
        self.chips = ft.Row([self.empty], wrap=True, spacing=6, expand=True)
        self.control = ft.Container(
            padding=ft.Padding.symmetric(vertical=4),
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            content=ft.Row([
                ft.Container(ft.Text(space_name(ctx, space), size=BODY_TEXT_SIZE,
                                     weight=ft.FontWeight.W_600), width=SPACE_LABEL_WIDTH),
                self.chips,
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER))

    def update(self, cubes: Sequence[str], takes: frozenset[tuple[str, str]]) -> bool:
        """Show these cubes; True when anything changed."""
        self.colours = cube_order(cubes)
        while len(self.cubes) < len(self.colours):
            self.cubes.append(CubeButton(self.ctx, partial(self.on_tap, self.space,
                                                           len(self.cubes))))
        changed = [self.cubes[k].show(colour, f"cube-{self.space}-{colour}-{k}",
                                      (self.space, colour) in takes)
                   for k, colour in enumerate(self.colours)]
        shown: list[ft.Control] = [c.control for c in self.cubes[:len(self.colours)]]
        return set_controls(self.chips, shown or [self.empty]) or any(changed)


class SpacesPanel:
    """Every space's cubes. A cube the engine would let the current player take now
    (`options.takes`) is bright; any cube answers a tap (a refused one says why)."""

    def __init__(self, ctx: AppContext, on_take: Callable[[str, str], Awaitable[object]]) -> None:
        self.ctx, self.on_take = ctx, on_take
        self.rows: dict[str, SpaceRow] = {}
        self.column = ft.Column(spacing=0)
        self.control = ft.Semantics(identifier="action-spaces", content=self.column)

    def update(self, state: VillageState, options: TurnOptions,
               locked: bool = False) -> list[ft.Control]:
        """Show `state`; the controls that changed (to send). `locked` (a watching phone):
        every cube dimmed, as none may be taken from here."""
        takes = frozenset[tuple[str, str]]() if locked else options.takes
        if list(state.spaces) != list(self.rows):
            self.rows = {space: SpaceRow(self.ctx, space, self._tap) for space in state.spaces}
            self.column.controls = [row.control for row in self.rows.values()]
            for space, cubes in state.spaces.items():
                self.rows[space].update(cubes, takes)
            return [self.control]
        return [self.rows[space].chips for space, cubes in state.spaces.items()
                if self.rows[space].update(cubes, takes)]  # (list: runs them all)

    async def _tap(self, space: str, index: int) -> None:
        row = self.rows.get(space)
        if row is not None and index < len(row.colours):
            await self.on_take(space, row.colours[index])


# ---- the turn's buttons -------------------------------------------------------------------
class TurnButtons:
    """The acting player's panel, the well, the free action (final turns, empty board) and
    End turn, each offered when the engine would accept it now (`options`)."""

    def __init__(self, ctx: AppContext, *, on_well: Action, on_free: Action, on_end: Action,
                 on_panel: Action) -> None:
        t = ctx.t
        self.ctx = ctx
        self.panel = ft.OutlinedButton("", icon=ft.Icons.PERSON, on_click=on_panel,
                                       height=BIG_BUTTON, expand=True)
        self.panel_row = ft.Row([self.panel])
        # The panel's row comes and goes as the content of a holder (with the gap above
        # the other buttons as its padding), never hidden: a hidden first child moves the
        # row under it to another index on the phone, which builds that row again.
        self.panel_holder = ft.Container()
        self.well = ft.OutlinedButton(t("village.table.well"), icon=ft.Icons.WATER_DROP,
                                      on_click=on_well, height=BIG_BUTTON)
        self.free = ft.OutlinedButton(t("village.table.free_action"), icon=ft.Icons.STAR,
                                      on_click=on_free, height=BIG_BUTTON, visible=False)
        self.end = ft.FilledButton(t("village.table.end_turn"), icon=ft.Icons.CHECK,
                                   on_click=on_end, height=BIG_BUTTON, expand=True)
        self.control = ft.Semantics(identifier="turn-buttons", content=ft.Column([
            self.panel_holder, ft.Row([self.well, self.free, self.end], spacing=8)],
            spacing=0))

    def update(self, state: VillageState, options: TurnOptions) -> bool:
        """Show what the engine accepts now; True when anything changed."""
        changed = False
        if options.end_turn:  # the current player is acting: their panel holds the forms
            changed = _set(self.panel, "content", self.ctx.t(
                "village.table.open_panel", player=player_name(self.ctx, state, state.current)))
        shown = self.panel_row if options.end_turn else None
        if self.panel_holder.content is not shown:
            self.panel_holder.content = shown
            self.panel_holder.padding = (ft.Padding.only(bottom=BUTTON_GAP) if shown
                                         else None)
            changed = True
        return any([changed,
                    _set(self.well, "disabled", not options.well),
                    _set(self.free, "visible", options.free_action),
                    _set(self.end, "disabled", not options.end_turn)])


# ---- players ------------------------------------------------------------------------------
class PlayerTile:
    """One player: name and marks, counters and cubes; tapping opens their panel. Built
    once; `update` takes what `sections.player_sig` says it shows."""

    def __init__(self, ctx: AppContext, index: int, kind: str, colour: str,
                 on_open: Callable[[int], object] | None) -> None:
        self.ctx = ctx
        human = kind == "human"
        opens = human and on_open is not None  # None: read only (the replay)
        self.title = ft.Text("", size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600, expand=True)
        self.counters = ft.Text("", size=14, color=ft.Colors.ON_SURFACE_VARIANT,
                                visible=human)
        self.cubes = ft.Container(visible=human)
        self.counts: object = None
        self.box = ft.Container(
            # 12 px above and below: 48 px high even around a single line of text.
            padding=ft.Padding.symmetric(horizontal=10, vertical=12), border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            content=ft.Column([ft.Row([colour_dot(colour, 22), self.title]), self.counters,
                               self.cubes], spacing=4, tight=True),
            on_click=partial(on_open, index) if opens and on_open is not None else None,
            ink=opens)
        self.control = ft.Semantics(identifier=f"player-{index}", content=self.box,
                                    button=opens)
        self.kind, self.colour = kind, colour

    def update(self, sig: tuple[Any, ...]) -> None:
        _kind, _colour, title, counters, counts, current = sig
        _set(self.title, "value", title)
        if counters is not None:
            _set(self.counters, "value", counters)
        _set(self.box, "bgcolor", ft.Colors.PRIMARY_CONTAINER if current
             else ft.Colors.SURFACE_CONTAINER_LOW)
        if counts != self.counts and self.kind == "human":
            self.counts = counts
            self.cubes.content = (cube_count_row(self.ctx, dict(counts)) if counts else ft.Text(
                self.ctx.t("village.players.no_cubes"), size=14,
                color=ft.Colors.ON_SURFACE_VARIANT))
