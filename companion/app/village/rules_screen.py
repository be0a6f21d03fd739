""""How this app reads the rules": one card per interpretation (companion/village/data/
interpretations.json) with the rulebook's own sentence, the app's reading and the other
reading in the player's language. Opened from Settings it lists every entry; from the
new-game wizard the entries of that kind of game; from a game (its table or its log) that
game's entries and the reading the game plays by, under a note on its rules version.

Also the short rules note the log shows at its top (`rules_note`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, back_button, body, heading, pager
from companion.app.paging import page_slice
from companion.app.routing import RouteParams, Screen
from companion.app.village.readings import (
    EDITIONS,
    SOURCES,
    applicable,
    differing,
    game_readings,
    is_legacy,
    option_key,
    title_key,
)
from companion.app.village.table.base import SessionScreen
from companion.village.interpretations import Interpretation, interpretation
from companion.village.setup import VillageSetup

if TYPE_CHECKING:
    from companion.app.context import AppContext

PAGE_SIZE = 6  # cards per page (long Flet lists are slow)


# ---- pieces -----------------------------------------------------------------------------------
def game_kind(ctx: AppContext, edition: str, solo: bool) -> str:
    """"Village Big Box · solo games" — the kind of game a list is filtered to."""
    return ctx.t("readings.kind", edition=ctx.t(EDITIONS[edition]),
                 players=ctx.t("readings.solo_games" if solo else "readings.multi_games"))


def _applies_text(ctx: AppContext, item: Interpretation) -> str:
    editions = " / ".join(ctx.t(EDITIONS[e]) for e in item.editions)
    if item.solo is None:
        return editions
    return ctx.t("readings.kind", edition=editions,
                 players=ctx.t("readings.solo_games" if item.solo else "readings.multi_games"))


def _badge(text: str, identifier: str) -> ft.Control:
    return ft.Semantics(identifier=identifier, content=ft.Container(
        content=ft.Text(text, size=13, color=ft.Colors.ON_TERTIARY_CONTAINER),
        bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=8,
        padding=ft.Padding.symmetric(horizontal=8, vertical=3)))


def _option_block(ctx: AppContext, item: Interpretation, option: str,
                  this_game: str | None) -> ft.Control:
    t = ctx.t
    labels = [t("readings.app_reading" if option == item.chosen else "readings.other_reading")]
    if option == item.legacy and item.legacy != item.chosen:
        labels.append(t("readings.legacy", version=item.since))
    ours = option == this_game
    if ours:
        labels.append(t("readings.this_game"))
    return ft.Semantics(identifier=f"rules-{item.key}-{option}", selected=ours,
                        content=ft.Container(
        padding=ft.Padding.symmetric(horizontal=8, vertical=6), border_radius=8,
        bgcolor=ft.Colors.SECONDARY_CONTAINER if ours else None,
        content=ft.Column([
            ft.Text(" · ".join(labels), size=13, weight=ft.FontWeight.W_600,
                    color=ft.Colors.PRIMARY),
            ft.Text(t(option_key(item, option)), size=BODY_TEXT_SIZE),
        ], spacing=2, tight=True)))


def rules_card(ctx: AppContext, item: Interpretation, *, this_game: str | None = None,
               show_applies: bool = True) -> ft.Control:
    """One interpretation: title, the passage and its sentence (selectable, as printed),
    the app's reading first, then the other ones; `this_game` marks a game's reading."""
    t = ctx.t
    tags: list[ft.Control] = []
    if item.switchable:
        tags.append(_badge(t("readings.switchable"), f"rules-{item.key}-switchable"))
    if show_applies:
        tags.append(ft.Text(_applies_text(ctx, item), size=13,
                            color=ft.Colors.ON_SURFACE_VARIANT))
    options = [item.chosen, *(o for o in item.options if o != item.chosen)]
    conditions = [ft.Text(t("readings.applies_with", title=t(title_key(other)),
                            reading=t(option_key(other, option))),
                          size=13, color=ft.Colors.ON_SURFACE_VARIANT)
                  for other, option in ((interpretation(k), v)
                                        for k, v in item.applies_with.items())]
    return ft.Semantics(identifier=f"rules-{item.key}", content=ft.Container(
        padding=12, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        content=ft.Column([
            ft.Text(t(title_key(item)), size=18, weight=ft.FontWeight.W_600),
            *([ft.Row(tags, wrap=True, spacing=8, run_spacing=4,
                      vertical_alignment=ft.CrossAxisAlignment.CENTER)] if tags else []),
            ft.Text(t("readings.where", source=t(SOURCES[item.seed]), where=item.where),
                    size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Semantics(identifier=f"rules-{item.key}-text", label=t("readings.quote"),
                         content=ft.Container(
                padding=ft.Padding.only(left=10, top=2, bottom=2),
                border=ft.Border.only(left=ft.BorderSide(3, ft.Colors.OUTLINE)),
                content=ft.Text(item.text, selectable=True, italic=True, size=15))),
            *conditions,
            *(_option_block(ctx, item, option, this_game) for option in options),
        ], spacing=8, tight=True)))


def rules_note(ctx: AppContext, setup: VillageSetup,
               on_open: Callable[[], object] | None = None) -> ft.Control:
    """Which rules a game follows: its rules version, the readings it plays by that are
    not the app's reading for new games, and (with `on_open`) the way to the rules screen."""
    t = ctx.t
    controls: list[ft.Control] = [ft.Text(
        t("readings.game.legacy", version=setup.rules_version + 1) if is_legacy(setup)
        else t("readings.game.current", version=setup.rules_version), size=15)]
    differs = differing(setup)
    if differs:
        controls.append(ft.Text(t("readings.game.differs"), size=14,
                                weight=ft.FontWeight.W_600))
        controls += [ft.Semantics(identifier=f"rules-differs-{d.item.key}", content=ft.Text(
            t("readings.game.reading", title=t(title_key(d.item)),
              reading=t(option_key(d.item, d.option))), size=14))
            for d in differs]
    if on_open is not None:
        controls.append(ft.Semantics(identifier="open-rules", content=ft.TextButton(
            t("readings.title"), icon=ft.Icons.RULE, on_click=on_open, height=TOUCH_TARGET)))
    return ft.Semantics(identifier="rules-note", content=ft.Container(
        padding=ft.Padding.only(left=12, right=12, top=10, bottom=4 if on_open else 10),
        border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        content=ft.Column(controls, spacing=4, tight=True)))


class _CardList:
    """The cards, a page at a time."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.index = 0
        self.column = ft.Column(spacing=12)
        self.items: Sequence[tuple[Interpretation, str | None]] = ()
        self.show_applies = True

    def show(self, items: Sequence[tuple[Interpretation, str | None]], *,
             show_applies: bool = True) -> None:
        """(entry, the reading the game plays by, or None outside a game)."""
        self.items, self.show_applies = items, show_applies
        self.render()

    def render(self) -> None:
        t = self.ctx.t
        if not self.items:
            self.column.controls = [body(t("readings.none"), muted=True)]
            return
        state = page_slice(self.items, self.index, PAGE_SIZE)
        self.index = state.index
        self.column.controls = [
            *(rules_card(self.ctx, item, show_applies=self.show_applies, this_game=option)
              for item, option in state.items),
            pager(state, t("pager.status", page=state.index + 1, pages=state.count),
                  t("pager.previous"), t("pager.next"),
                  on_previous=partial(self.turn, -1), on_next=partial(self.turn, +1))]

    def turn(self, step: int) -> None:
        self.index += step
        self.render()


def _view(ctx: AppContext, controls: list[ft.BaseControl]) -> ft.View:
    t = ctx.t
    return ft.View(
        appbar=ft.AppBar(leading=back_button(t("common.back"), ctx.back),
                         title=ft.Text(t("readings.bar"))),
        scroll=ft.ScrollMode.AUTO,
        padding=ft.Padding.symmetric(horizontal=12, vertical=10),
        spacing=12,
        controls=controls,
    )


# ---- screens ----------------------------------------------------------------------------------
class RulesScreen(Screen):
    """Every entry (edition None), or those of one kind of game (the wizard's)."""

    def __init__(self, ctx: AppContext, params: RouteParams, *, edition: str | None = None,
                 solo: bool = False) -> None:
        super().__init__(ctx, params)
        edition = params.get("edition", edition)
        self.edition = edition if edition in EDITIONS else None
        self.solo = solo

    def build(self) -> ft.View:
        t = self.ctx.t
        self.cards = _CardList(self.ctx)
        controls: list[ft.BaseControl] = [heading(t("readings.title")), body(t("readings.intro"))]
        if self.edition is not None:
            controls.append(ft.Semantics(identifier="rules-scope", content=body(
                t("readings.scope", kind=game_kind(self.ctx, self.edition, self.solo)),
                muted=True)))
        self.cards.show([(item, None) for item in applicable(self.edition, self.solo)],
                        show_applies=self.edition is None)
        return _view(self.ctx, [*controls, self.cards.column])


class GameRulesScreen(SessionScreen):
    """The entries one game plays by (of its edition and mode, and in effect with its other
    readings), each marking the reading this game plays by."""

    def build(self) -> ft.View:
        self.cards = _CardList(self.ctx)
        self.note = ft.Column(spacing=0)
        self.body = ft.Column([body(self.ctx.t("common.loading"), muted=True)], spacing=12)
        return _view(self.ctx, [heading(self.ctx.t("readings.title")), self.note, self.body])

    def _refresh_history(self) -> None:
        """No undo/redo here: this screen only reads the game."""

    def render(self) -> None:
        assert self.controller is not None
        setup = self.controller.session.setup
        self.note.controls = [rules_note(self.ctx, setup)]
        self.cards.show(game_readings(setup), show_applies=False)
        self.body.controls = [body(self.ctx.t("readings.intro")), self.cards.column]

    def show_failure(self, message: str) -> None:
        self.body.controls = self.failure_controls(message)
