"""The parts of the table screen, each a small builder from the state to controls.

Every builder returns a fresh control tree (never a shared instance) sized for a phone:
tappable things are at least 48 px high, text 16 px or more.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET
from companion.app.village.present import note_text
from companion.app.village.table.cubes import colour_dot, cube_chip, cube_count_row
from companion.app.village.table.words import (
    cubes_text,
    player_name,
    space_name,
    stage_text,
)
from companion.village.components import ComponentData
from companion.village.read import Reader, TurnOptions
from companion.village.session import VillageSession
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

Action = Callable[[], Any]
SPACE_LABEL_WIDTH = 96
BANNER_COLOURS = {
    "market": (ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER),
    "mass": (ft.Colors.SECONDARY_CONTAINER, ft.Colors.ON_SECONDARY_CONTAINER),
    "end": (ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER),
    "info": (ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER),
}


def card(content: ft.Control, *, identifier: str | None = None,
         bgcolor: str | None = None) -> ft.Control:
    box = ft.Container(content=content, padding=12, border_radius=12,
                       bgcolor=bgcolor or ft.Colors.SURFACE_CONTAINER_LOW,
                       border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))
    return ft.Semantics(content=box, identifier=identifier) if identifier else box


def banner(kind: str, text: str, buttons: list[tuple[str, Action]],
           identifier: str) -> ft.Control:
    bg, fg = BANNER_COLOURS[kind]
    row_buttons: list[ft.Control] = [
        ft.FilledTonalButton(label, on_click=action, height=TOUCH_TARGET)
        for label, action in buttons]
    return ft.Semantics(identifier=identifier, content=ft.Container(
        bgcolor=bg, padding=12, border_radius=12,
        content=ft.Column([
            ft.Text(text, size=BODY_TEXT_SIZE, color=fg, weight=ft.FontWeight.W_600),
            ft.Row(row_buttons, wrap=True, spacing=8),
        ], spacing=8, tight=True)))


# ---- header -------------------------------------------------------------------------------
def turn_header(ctx: AppContext, state: VillageState, comp: ComponentData) -> ft.Control:
    """Whose turn, big; round and start player; what to do now."""
    current = state.players[state.current]
    who = ctx.t("village.table.turn", player=player_name(ctx, state, state.current))
    starter = player_name(ctx, state, state.start_player)
    info = (ctx.t("village.table.round_info", round=state.round, player=starter) if state.round
            else ctx.t("village.table.setup_info", player=starter))
    return ft.Semantics(identifier="table-turn", content=ft.Column([
        ft.Row([colour_dot(current.colour, 28),
                ft.Text(who, size=28, weight=ft.FontWeight.BOLD, expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ft.Text(info, size=BODY_TEXT_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(stage_text(ctx, state, comp), size=18, weight=ft.FontWeight.W_600,
                color=ft.Colors.PRIMARY),
    ], spacing=4, tight=True))


def notes_card(ctx: AppContext, lines: list[str]) -> ft.Control | None:
    """The last action's table instructions ("Put on council: 1 green, 1 plague")."""
    if not lines:
        return None
    texts: list[ft.Control] = [ft.Text(ctx.t("village.table.notes_heading"), size=14,
                                       color=ft.Colors.ON_SURFACE_VARIANT,
                                       weight=ft.FontWeight.W_600)]
    texts += [ft.Text(line, size=BODY_TEXT_SIZE, selectable=True) for line in lines[:12]]
    return card(ft.Column(texts, spacing=4, tight=True), identifier="table-notes")


# ---- the round's draw -------------------------------------------------------------------
def last_bag_placements(session: VillageSession) -> dict[str, list[str]] | None:
    """The cubes of this round's bag draw (the newest bag chance event, redraws included)."""
    for event in reversed(session.events):
        body = event.get("body", {})
        if body.get("type") == "chance" and body.get("draw") == "bag":
            placements = body.get("outcome", {}).get("placements")
            return placements if isinstance(placements, dict) else None
    return None


def draw_lines(ctx: AppContext, spaces: list[str],
               placements: dict[str, list[str]]) -> list[str]:
    # Cubes as colour -> count, the way the engine's own "put on space" note carries them.
    return [note_text(ctx, "put_on_space", {"space": s, "cubes": {
        c: placements[s].count(c) for c in sorted(set(placements[s]))}})
        for s in spaces if placements.get(s)]


def round_draw_panel(ctx: AppContext, session: VillageSession, *, on_physical: Action,
                     on_app_redraw: Action) -> ft.Control | None:
    """Before the round's first take: what to put where, and ways to replace the draw."""
    state = session.state
    if not Reader(state, session.comp).redraw_allowed("bag"):  # the engine's precondition
        return None
    placements = last_bag_placements(session)
    lines = draw_lines(ctx, list(state.spaces), placements) if placements else []
    controls: list[ft.Control] = [
        ft.Text(ctx.t("village.draw.heading", round=state.round), size=18,
                weight=ft.FontWeight.W_600)]
    controls += [ft.Text(line, size=BODY_TEXT_SIZE) for line in lines]
    controls.append(ft.Row([
        ft.OutlinedButton(ctx.t("village.draw.physical"), icon=ft.Icons.BACK_HAND,
                          on_click=on_physical, height=TOUCH_TARGET),
        ft.OutlinedButton(ctx.t("village.draw.app_again"), icon=ft.Icons.CASINO,
                          on_click=on_app_redraw, height=TOUCH_TARGET),
    ], wrap=True, spacing=8))
    return card(ft.Column(controls, spacing=6, tight=True), identifier="round-draw")


# ---- action spaces ------------------------------------------------------------------------
def spaces_panel(ctx: AppContext, state: VillageState, options: TurnOptions, *,
                 on_take: Callable[[str, str], Any]) -> ft.Control:
    """Every space's cubes; a cube is tappable when the engine would let the current
    player take it now (`options.takes`)."""
    rows: list[ft.Control] = []
    for space, cubes in state.spaces.items():
        chips: list[ft.Control] = [
            cube_chip(ctx, colour, identifier=f"cube-{space}-{colour}-{k}",
                      on_click=partial(on_take, space, colour),
                      disabled=(space, colour) not in options.takes)
            for k, colour in enumerate(sorted(cubes, key=lambda c: (c == "plague", c)))]
        if not chips:
            chips = [ft.Text("—", size=BODY_TEXT_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)]
        rows.append(ft.Container(
            padding=ft.Padding.symmetric(vertical=4),
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            content=ft.Row([
                ft.Container(ft.Text(space_name(ctx, space), size=BODY_TEXT_SIZE,
                                     weight=ft.FontWeight.W_600),
                             width=SPACE_LABEL_WIDTH),
                ft.Row(chips, wrap=True, spacing=6, expand=True),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER)))
    return ft.Semantics(identifier="action-spaces", content=ft.Column(rows, spacing=0))


def turn_buttons(ctx: AppContext, state: VillageState, options: TurnOptions, *,
                 on_well: Action, on_free: Action, on_end: Action,
                 on_panel: Action) -> ft.Control:
    """The well, the free action (final turns, empty board) and End turn, each offered
    when the engine would accept it now (`options`, see read.Reader.turn_options)."""
    buttons: list[ft.Control] = []
    if options.end_turn:  # the current player is acting: their panel holds the forms
        name = player_name(ctx, state, state.current)
        buttons.append(ft.Row([ft.OutlinedButton(
            ctx.t("village.table.open_panel", player=name), icon=ft.Icons.PERSON,
            on_click=on_panel, height=56, expand=True)]))
    row: list[ft.Control] = [
        ft.OutlinedButton(ctx.t("village.table.well"), icon=ft.Icons.WATER_DROP,
                          on_click=on_well, height=56, disabled=not options.well),
    ]
    if options.free_action:
        row.append(ft.OutlinedButton(ctx.t("village.table.free_action"), icon=ft.Icons.STAR,
                                     on_click=on_free, height=56))
    row.append(ft.FilledButton(ctx.t("village.table.end_turn"), icon=ft.Icons.CHECK,
                               on_click=on_end, height=56, expand=True,
                               disabled=not options.end_turn))
    buttons.append(ft.Row(row, spacing=8))
    return ft.Semantics(identifier="turn-buttons", content=ft.Column(buttons, spacing=8))


# ---- players ------------------------------------------------------------------------------
def players_strip(ctx: AppContext, state: VillageState, time_length: int,
                  on_open: Callable[[int], Any]) -> ft.Control:
    tiles: list[ft.Control] = []
    for index, p in enumerate(state.players):
        name = player_name(ctx, state, index)
        marks = []
        if index == state.start_player:
            marks.append(ctx.t("village.players.start"))
        if index == state.current and state.phase == "turns":
            marks.append(ctx.t("village.players.now"))
        title = name + (f"  · {' · '.join(marks)}" if marks else "")
        lines: list[ft.Control] = [ft.Row([
            colour_dot(p.colour, 22),
            ft.Text(title, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600, expand=True)])]
        if p.kind == "human":
            lines.append(ft.Text(ctx.t("village.players.counters", time=p.time + 1,
                                       length=time_length, coins=p.coins, grain=p.grain,
                                       prestige=p.prestige),
                                 size=14, color=ft.Colors.ON_SURFACE_VARIANT))
            counts = {c: n for c, n in p.cubes.items() if n}
            lines.append(cube_count_row(ctx, counts) if counts else ft.Text(
                ctx.t("village.players.no_cubes"), size=14,
                color=ft.Colors.ON_SURFACE_VARIANT))
        tile = ft.Container(
            padding=10, border_radius=12,
            bgcolor=(ft.Colors.PRIMARY_CONTAINER if index == state.current
                     else ft.Colors.SURFACE_CONTAINER_LOW),
            content=ft.Column(lines, spacing=4, tight=True),
            on_click=partial(on_open, index) if p.kind == "human" else None,
            ink=p.kind == "human")
        tiles.append(ft.Semantics(identifier=f"player-{index}", content=tile,
                                  button=p.kind == "human"))
    return ft.Column(tiles, spacing=8)


def panel_links(ctx: AppContext, links: list[tuple[str, ft.IconData, Action]]) -> ft.Control:
    buttons: list[ft.Control] = [
        ft.OutlinedButton(label, icon=icon, on_click=action, height=TOUCH_TARGET)
        for label, icon, action in links]
    return ft.Semantics(identifier="panel-links", content=ft.Row(buttons, wrap=True,
                                                                   spacing=8, run_spacing=8))


def bag_text(ctx: AppContext, state: VillageState) -> str:
    cubes = [c for c, n in state.bag.items() for _ in range(n)]
    if not cubes:
        return ctx.t("village.bag.empty")
    return ctx.tn("village.bag.contents", len(cubes), cubes=cubes_text(ctx, cubes),
                  count=len(cubes))
