"""The parts of the table screen that are built from the state when they change (the
parts that stay on screen across taps are in live.py).

Every builder returns a fresh control tree (never a shared instance) sized for a phone:
tappable things are at least 48 px high, text 16 px or more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET
from companion.app.village.present import note_text
from companion.app.village.table.instructions import Instruction, RoundDraw, note_instructions
from companion.app.village.table.round_end_data import opening_of
from companion.app.village.table.words import cubes_text, player_name
from companion.village.read import Reader
from companion.village.session import VillageSession
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

Action = Callable[[], object]
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


# ---- the round's draw -------------------------------------------------------------------
def last_bag_draw(session: VillageSession) -> tuple[int, dict[str, list[str]]] | None:
    """This round's bag draw (the newest bag chance event, redraws included): its log
    position and placements."""
    for event in reversed(session.events):
        body = event.get("body", {})
        if body.get("type") == "chance" and body.get("draw") == "bag":
            placements = body.get("outcome", {}).get("placements")
            if not isinstance(placements, dict):
                return None
            return int(event.get("seq", 0)), placements
    return None


def round_draw(ctx: AppContext, session: VillageSession,
               done: frozenset[str] = frozenset()) -> RoundDraw | None:
    """What to put where for this round's draw (in round 1 with the setup's other steps:
    start player, seat compensation). Shown before the round's first take (the engine's
    precondition for a redraw, with the ways to redraw), and after it for as long as a
    line is not ticked done: taking a turn never makes it disappear (issue 20)."""
    state = session.state
    first_take = Reader(state, session.comp).redraw_allowed("bag")
    if not first_take and (state.phase != "turns" or state.round < 1):
        return None
    drawn = last_bag_draw(session)
    lines: list[Instruction] = []
    if state.round == 1:
        setup = opening_of(session)
        if setup is not None:
            group, notes = setup
            others = [n for n in notes if n.get("key") != "put_on_space"]
            lines += note_instructions(ctx, group, others)
    if drawn is not None:
        seq, placements = drawn
        # Cubes as colour -> count, the way the engine's own "put on space" note has them.
        lines += [Instruction(f"draw{seq}-{s}", note_text(ctx, "put_on_space", {
            "space": s, "cubes": {c: placements[s].count(c) for c in sorted(set(placements[s]))}}))
            for s in state.spaces if placements.get(s)]
    if not first_take and all(line.id in done for line in lines):
        return None
    return RoundDraw(ctx.t("village.draw.heading", round=state.round), tuple(lines),
                     redraw=first_take)


# ---- players ------------------------------------------------------------------------------
def player_sig(ctx: AppContext, reader: Reader, index: int) -> tuple[Any, ...]:
    """What a player's tile shows (it is rebuilt only when this changes); its time from
    the engine's `reader.time_marker`."""
    state = reader.state
    p = state.players[index]
    marks = []
    if index == state.start_player:
        marks.append(ctx.t("village.players.start"))
    if index == state.current and state.phase == "turns":
        marks.append(ctx.t("village.players.now"))
    name = player_name(ctx, state, index)
    title = name + (f"  · {' · '.join(marks)}" if marks else "")
    counters = None
    if p.kind == "human":
        marker = reader.time_marker(index)
        counters = ctx.t("village.players.counters", time=marker.space, length=marker.length,
                         coins=p.coins, grain=p.grain, prestige=p.prestige)
    counts = tuple(sorted((c, n) for c, n in p.cubes.items() if n))
    return (p.kind, p.colour, title, counters, counts, index == state.current)


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
