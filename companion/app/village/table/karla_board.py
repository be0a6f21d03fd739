"""Karla's board in solo games: her last cube and why, the cube track, and the six fate
tiles. The tiles sit in persistent AnimatedSwitchers so a flip animates on every phone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE
from companion.app.village.present import note_text, note_texts, term
from companion.app.village.table.cubes import cube_chip
from companion.app.village.table.words import space_name
from companion.core.json_types import JsonObject
from companion.village.components import ComponentData
from companion.village.notes import EN as NOTE_KEYS
from companion.village.read import Reader
from companion.village.state import KarlaState, VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

SIDES = ("top", "bottom")
FLIP = ft.Duration(milliseconds=450)
TILE_W, TILE_H = 52, 64
FACE_KEYS = {"down": "village.karla.tile_down", "quill": "village.karla.tile_quill",
             "blank": "village.karla.tile_blank"}
# The engine's note keys about Karla: her take and reasons, fate tiles, reactions, the d4.
KARLA_NOTE_KEYS = frozenset(k for k in NOTE_KEYS if k.startswith(("karla_", "d4_")))


class KarlaSource(Protocol):
    """What the board reads: a live VillageSession, or a replayed step (read only)."""

    @property
    def state(self) -> VillageState: ...

    @property
    def comp(self) -> ComponentData: ...

    @property
    def last_note_data(self) -> list[JsonObject]: ...


def karla_notes(session: KarlaSource) -> list[JsonObject]:
    """The last action's notes that are about Karla: by note key, or naming her as the
    player (her deaths). Chosen by key, never by the English text."""
    state = session.state
    if state.karla is None:
        return []
    name = state.players[state.karla.player].name
    return [n for n in session.last_note_data
            if n.get("key") in KARLA_NOTE_KEYS
            or dict(n.get("params", {})).get("player") == name]


def due_take(ctx: AppContext, session: KarlaSource) -> list[str] | None:
    """What Karla will take when your turn ends (the rulebook's "will take" marker tip):
    her rule run on a copy of the state. None when no take is due."""
    state = session.state
    if not state.karla_due or state.karla is None:
        return None
    if state.setup_variant == "d4":
        return [ctx.t("village.karla.due_d4")]
    preview = Reader(state, session.comp).karla_take_preview()
    if preview.choice_space is not None:
        return [ctx.t("village.karla.due_choice", space=space_name(ctx, preview.choice_space))]
    return note_texts(ctx, preview.notes)


def last_take(karla: KarlaState) -> tuple[str, str, int] | None:
    """(colour, action space, her board space index) of her newest cube."""
    if karla.last_space < 0 or not karla.track[karla.last_space]:
        return None
    colour, _, space = karla.track[karla.last_space][-1].partition("@")
    return colour, space, karla.last_space


class KarlaBoard:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.take = ft.Column(spacing=4, tight=True)
        self.track = ft.Row(wrap=True, spacing=4, run_spacing=4)
        self.switchers = {(side, i): ft.AnimatedSwitcher(
            content=self._face("down", side, i), duration=FLIP, reverse_duration=FLIP,
            transition=ft.AnimatedSwitcherTransition.SCALE,
            switch_in_curve=ft.AnimationCurve.EASE_OUT_BACK)
            for side in SIDES for i in range(3)}
        self.fate_labels = {(side, i): ft.Text("", size=12) for side in SIDES for i in range(3)}
        self._faces: dict[tuple[str, int], str] = {}
        self._take_sig: object = None  # what the take and the track show now
        self._track_sig: object = None

    def build(self) -> ft.Control:
        t = self.ctx.t
        rows: list[ft.Control] = []
        for side in SIDES:
            label = term(self.ctx, "side", side)
            tiles: list[ft.Control] = [ft.Column(
                [self.switchers[(side, i)], self.fate_labels[(side, i)]],
                horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=2, tight=True)
                for i in range(3)]
            rows.append(ft.Row([ft.Container(ft.Text(label, size=14), width=72), *tiles],
                               spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
        return ft.Semantics(identifier="karla-board", content=ft.Container(
            padding=12, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            content=ft.Column([
                ft.Text(t("village.karla.board"), size=18, weight=ft.FontWeight.W_600),
                self.take,
                ft.Text(t("village.karla.track"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                self.track,
                ft.Text(t("village.karla.fate"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                *rows,
            ], spacing=8, tight=True)))

    # ---- state -> controls --------------------------------------------------------------------
    def update(self, session: KarlaSource) -> None:
        karla = session.state.karla
        if karla is None:
            return
        self._render_take(session, karla)
        fate_after: dict[str, list[int]] = session.comp.number_lists("karla_fate_after")
        self._render_track(karla, fate_after)
        for side in SIDES:
            positions = list(fate_after.get(side, []))
            for i in range(3):
                face = "down"
                if karla.fate[side][i]:
                    face = "quill" if karla.quill[side] == i else "blank"
                if self._faces.get((side, i)) != face:
                    self._faces[(side, i)] = face
                    self.switchers[(side, i)].content = self._face(face, side, i)
                pos = positions[i] + 1 if i < len(positions) else "?"
                label = self.ctx.t("village.karla.after_space", space=pos)
                if self.fate_labels[(side, i)].value != label:
                    self.fate_labels[(side, i)].value = label

    def _render_take(self, session: KarlaSource, karla: KarlaState) -> None:
        ctx = self.ctx
        taken = last_take(karla)
        notes = karla_notes(session)
        due = due_take(ctx, session)
        sig = (taken, repr(notes), tuple(due) if due is not None else None)
        if sig == self._take_sig:  # unchanged: nothing to send
            return
        self._take_sig = sig
        lines: list[ft.Control] = []
        if taken is None:
            lines.append(ft.Text(ctx.t("village.karla.no_take"), size=BODY_TEXT_SIZE))
        else:
            colour, space, pos = taken
            lines.append(ft.Semantics(identifier="karla-last-take", content=ft.Row([
                cube_chip(ctx, colour, size=36),
                ft.Text(ctx.t("village.karla.took", space=space_name(ctx, space), pos=pos + 1),
                        size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600, expand=True)],
                vertical_alignment=ft.CrossAxisAlignment.CENTER)))
        for note in notes:
            lines.append(ft.Text(note_text(ctx, str(note["key"]), dict(note.get("params", {}))),
                                 size=BODY_TEXT_SIZE))
        if due is not None:
            ink = ft.Colors.ON_TERTIARY_CONTAINER
            texts: list[ft.Control] = [ft.Text(ctx.t("village.karla.due"), size=BODY_TEXT_SIZE,
                                               weight=ft.FontWeight.W_600, color=ink)]
            texts += [ft.Text(line, size=BODY_TEXT_SIZE, color=ink) for line in due]
            lines.append(ft.Semantics(identifier="karla-due", content=ft.Container(
                padding=8, border_radius=8, bgcolor=ft.Colors.TERTIARY_CONTAINER,
                content=ft.Column(texts, spacing=2, tight=True))))
        self.take.controls = lines

    def _render_track(self, karla: KarlaState, fate_after: dict[str, list[int]]) -> None:
        sig = (tuple(tuple(entries[-3:]) for entries in karla.track), karla.last_space)
        if sig == self._track_sig:  # unchanged: nothing to send
            return
        self._track_sig = sig
        cells: list[ft.Control] = []
        for pos, entries in enumerate(karla.track):
            head: list[ft.Control] = [ft.Text(str(pos + 1), size=12)]
            if pos in fate_after.get("top", []):
                head.append(ft.Icon(ft.Icons.ARROW_DROP_UP, size=16))
            if pos in fate_after.get("bottom", []):
                head.append(ft.Icon(ft.Icons.ARROW_DROP_DOWN, size=16))
            cubes: list[ft.Control] = [cube_chip(self.ctx, e.partition("@")[0], size=18)
                                       for e in entries[-3:]]
            cells.append(ft.Container(
                width=44, height=60, border_radius=8, padding=2,
                border=ft.Border.all(3 if pos == karla.last_space else 1,
                                     ft.Colors.PRIMARY if pos == karla.last_space
                                     else ft.Colors.OUTLINE_VARIANT),
                content=ft.Column([ft.Row(head, spacing=0, tight=True),
                                   ft.Row(cubes, spacing=1, wrap=True)],
                                  spacing=1, tight=True)))
        self.track.controls = cells

    def _face(self, face: str, side: str, i: int) -> ft.Control:
        """One tile face; the key changes with the face, which makes the switcher animate."""
        if face == "down":
            content: ft.Control = ft.Text("?", size=22, weight=ft.FontWeight.BOLD,
                                          color=ft.Colors.ON_SECONDARY)
            bg = ft.Colors.SECONDARY
        elif face == "quill":
            content = ft.Icon(ft.Icons.HISTORY_EDU, size=30, color=ft.Colors.ON_ERROR_CONTAINER)
            bg = ft.Colors.ERROR_CONTAINER
        else:
            content = ft.Text("", size=12)
            bg = ft.Colors.SURFACE_CONTAINER_HIGHEST
        label = self.ctx.t(FACE_KEYS[face])
        return ft.Semantics(
            key=f"fate-{side}-{i}-{face}", label=label, identifier=f"fate-{side}-{i}-{face}",
            content=ft.Container(width=TILE_W, height=TILE_H, bgcolor=bg, border_radius=8,
                                 alignment=ft.Alignment.CENTER, content=content,
                                 border=ft.Border.all(1, ft.Colors.OUTLINE)))
