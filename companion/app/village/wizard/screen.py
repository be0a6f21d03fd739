"""New Village game, one step per screen (phone first): game, players, options, and the
check of the estimated components. Everything typed stays in the draft while moving
between steps; a problem names its field and leads to the step where it is fixed.

The game step also holds "Rules readings" (collapsed): the switchable interpretations of
the chosen edition, set for this game only, with the way to "How this app reads the
rules" (opened above the wizard, so the draft stays)."""

from __future__ import annotations

import copy
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, back_button, body, heading, icon_button
from companion.app.routing import HOME_ROUTE, RouteParams, Screen
from companion.app.settings import KarlaPolicy as SettingsKarlaPolicy
from companion.app.village.dialogs.common import error_line, show_error
from companion.app.village.hub import HUB
from companion.app.village.readings import option_key, switchable, title_key
from companion.app.village.table.cubes import colour_name, hex_of
from companion.app.village.table.paths import table_route, wizard_rules_route
from companion.app.village.wizard.components import ComponentCheck
from companion.app.village.wizard.model import (
    DRAFT_FIELDS,
    FAMILY_COLOURS,
    Problem,
    SetupProblem,
    WizardDraft,
)
from companion.store.base import ReadOnlyStore, SessionStore
from companion.village.components import ComponentData
from companion.village.interpretations import Interpretation
from companion.village.service import VillageService
from companion.village.session import VillageSession

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

STEPS = ("village.wizard.step.game", "village.wizard.step.players",
         "village.wizard.step.options", "village.wizard.step.components")
NAME_PROBLEMS = {"empty": "village.wizard.name_empty", "too_long": "village.wizard.name_long",
                 "duplicate": "village.wizard.name_duplicate",
                 "colour": "village.wizard.colour_invalid"}


class WizardScreen(Screen):
    def __init__(self, ctx: AppContext, params: RouteParams, *, solo: bool) -> None:
        super().__init__(ctx, params)
        settings = ctx.settings
        self.draft = WizardDraft.new(solo=solo, d4=settings.d4_variant,
                                     karla_auto=settings.karla_policy == SettingsKarlaPolicy.AUTO)
        self.step = 0
        self.components: dict[str, ComponentData] = {}
        self.check: ComponentCheck | None = None
        self.problems: list[Problem] = []
        self.creating = False
        self.readings_open = False  # the "Rules readings" section starts collapsed

    # ---- frame --------------------------------------------------------------------------------
    def build(self) -> ft.View:
        t = self.ctx.t
        title = t("game.village_solo" if self.draft.solo else "game.village")
        self.step_text = ft.Text("", size=14, color=ft.Colors.ON_SURFACE_VARIANT)
        self.content = ft.Column(spacing=12)
        self.error = error_line()
        self.back_nav = ft.OutlinedButton(t("village.wizard.back"), icon=ft.Icons.ARROW_BACK,
                                          on_click=self._back, height=56)
        self.next_nav = ft.FilledButton(t("village.wizard.next"), icon=ft.Icons.ARROW_FORWARD,
                                        on_click=self._next, height=56, expand=True)
        self.render()
        return ft.View(
            appbar=ft.AppBar(leading=back_button(t("common.back"),
                                                 lambda: self.ctx.go(HOME_ROUTE)),
                             title=ft.Text(title)),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=12,
            controls=[self.step_text, self.content, self.error,
                      ft.Semantics(identifier="wizard-nav",
                                   content=ft.Row([self.back_nav, self.next_nav], spacing=8))],
        )

    def did_appear(self) -> None:
        def read(store: SessionStore) -> dict[str, ComponentData]:
            svc = VillageService(store)
            return {ed: svc.components(ed) for ed in ("big-box", "2011")}

        self.ctx.in_background(read, then=self._components_loaded)

    def _components_loaded(self, components: dict[str, ComponentData]) -> None:
        self.components = components
        self._fit_colours()
        self.render()

    # ---- what the chosen edition offers -------------------------------------------------------
    def colours(self) -> list[str]:
        comp = self.components.get(self.draft.edition)
        return list(comp.names("player_colours")) if comp else list(FAMILY_COLOURS)

    def counts(self) -> list[int]:
        comp = self.components.get(self.draft.edition)
        return list(comp.numbers("player_counts")) if comp else [2, 3, 4, 5]

    def _fit_colours(self) -> None:
        """After an edition change: colours this box does not have are swapped for free ones."""
        colours = self.colours()
        for seat in self.draft.seats:
            if seat.colour not in colours:
                used = {s.colour for s in self.draft.seats}
                seat.colour = next((c for c in colours if c not in used), colours[0])
        if self.draft.solo and self.draft.karla_colour not in colours:
            self.draft.karla_colour = next(c for c in colours
                                           if c != self.draft.seats[0].colour)

    # ---- rendering ----------------------------------------------------------------------------
    def render(self) -> None:
        t = self.ctx.t
        self._ensure_check()
        builders = (self._game_step, self._players_step, self._options_step,
                    self._components_step)
        self.content.controls = [heading(t(STEPS[self.step])), *builders[self.step]()]
        self.back_nav.visible = self.step > 0
        self._sync_nav()

    def _sync_nav(self) -> None:
        """The step line and Next/Start; Start waits until the check knows which values
        are still unchecked."""
        t = self.ctx.t
        self.step_text.value = t("village.wizard.step", step=self.step + 1,
                                 steps=self._steps(), name=t(STEPS[self.step]))
        start = self._starts_here()
        self.next_nav.content = t("village.wizard.start" if start else "village.wizard.next")
        self.next_nav.icon = ft.Icons.PLAY_ARROW if start else ft.Icons.ARROW_FORWARD
        last = self.step == len(STEPS) - 1
        loading = last and (self.check is None or self.check.estimates is None)
        self.next_nav.disabled = self.creating or loading

    # ---- the component check: loaded from the first step on --------------------------------
    def _ensure_check(self) -> None:
        """The check of the game as chosen so far, read in the background while the players
        fill in the other steps: a returning player whose answers are all saved skips it."""
        seats = 2 if self.draft.solo else self.draft.count
        key = (self.draft.edition, self.draft.solo, seats)
        if self.check is None or (self.check.edition, self.check.solo, self.check.seats) != key:
            self.check = ComponentCheck(self.ctx, self.draft.edition, solo=self.draft.solo,
                                        seats=seats, on_loaded=self._check_loaded,
                                        on_start=self._next)
            self.check.load()

    def _check_loaded(self) -> None:
        if self.step == 1:  # typing in a name field: no rebuild (it keeps focus and cursor)
            self._sync_nav()
        else:
            self.render()

    def _check_done(self) -> bool:
        """Every value of this game answered in an earlier game, nothing contradicting the
        rulebook: nothing to confirm."""
        return self.check is not None and self.check.all_answered()

    def _steps(self) -> int:
        """Three steps when the check has nothing to ask (it stays open to review)."""
        last = len(STEPS) - 1
        return last if self._check_done() and self.step < last else len(STEPS)

    def _starts_here(self) -> bool:
        return self.step == self._steps() - 1

    def _choice_buttons(self, options: list[tuple[Any, str]], current: Any, on_pick: Any,
                        prefix: str) -> ft.Control:
        buttons: list[ft.Control] = []
        for value, label in options:
            button: ft.Control
            if value == current:
                button = ft.FilledButton(label, on_click=partial(on_pick, value), height=56)
            else:
                button = ft.OutlinedButton(label, on_click=partial(on_pick, value), height=56)
            buttons.append(ft.Semantics(identifier=f"{prefix}-{value}", content=button))
        return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)

    def _game_step(self) -> list[ft.Control]:
        t = self.ctx.t
        if self.draft.solo:
            return [body(t("village.wizard.solo_intro")), *self._readings_section()]
        return [
            ft.Text(t("village.wizard.edition"), size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600),
            self._choice_buttons([("big-box", t("village.wizard.edition_big_box")),
                                  ("2011", t("village.wizard.edition_2011"))],
                                 self.draft.edition, self._set_edition, "edition"),
            ft.Text(t("village.wizard.players_count"), size=BODY_TEXT_SIZE,
                    weight=ft.FontWeight.W_600),
            self._choice_buttons([(n, str(n)) for n in self.counts()], self.draft.count,
                                 self._set_count, "count"),
            *self._readings_section(),
        ]

    # ---- rules readings (switchable per game) -------------------------------------------------
    def _switchable(self) -> list[Interpretation]:
        """The readings this section switches: those of the chosen edition (in effect with
        the others chosen), except the ones kept in a setup field with its own control
        (seat compensation, options step)."""
        return [item for item in self.draft.switchable()
                if item.setup_field not in DRAFT_FIELDS]

    def _readings_section(self) -> list[ft.Control]:
        t = self.ctx.t
        items = self._switchable()
        if not items:  # nothing to switch here: only the way to the rules screen
            return [ft.Semantics(identifier="open-rules", content=ft.TextButton(
                t("readings.title"), icon=ft.Icons.RULE, on_click=self._open_rules,
                height=TOUCH_TARGET))]
        rules_link = ft.Semantics(identifier="open-rules", content=icon_button(
            ft.Icons.RULE, t("readings.title"), self._open_rules))
        toggle = ft.Semantics(identifier="readings-toggle", expanded=self.readings_open,
                              content=ft.TextButton(
            t("readings.wizard.toggle", count=len(items)),
            icon=ft.Icons.EXPAND_LESS if self.readings_open else ft.Icons.EXPAND_MORE,
            on_click=self._toggle_readings, height=TOUCH_TARGET))
        controls: list[ft.Control] = [ft.Row(
            [toggle, rules_link], alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            vertical_alignment=ft.CrossAxisAlignment.CENTER)]
        if self.readings_open:
            controls.append(ft.Text(t("readings.wizard.hint"), size=14,
                                    color=ft.Colors.ON_SURFACE_VARIANT))
            for item in items:
                controls.append(self._reading_choice(item))
        return controls

    def _reading_choice(self, item: Interpretation) -> ft.Control:
        """One reading: its title and an option per row (a whole row is the tap target;
        the sentences wrap on a phone)."""
        t = self.ctx.t
        current = self.draft.choice(item.key)
        rows: list[ft.Control] = [self._label(t(title_key(item)))]
        for option in [item.chosen, *(o for o in item.options if o != item.chosen)]:
            text = t(option_key(item, option))
            if option == item.chosen:
                text = t("readings.wizard.default", reading=text)
            on = option == current
            rows.append(ft.Semantics(
                identifier=f"reading-{item.key}-{option}", selected=on, button=True,
                content=ft.Container(
                    on_click=partial(self._choose, item.key, option), ink=True,
                    border_radius=8, padding=ft.Padding.symmetric(horizontal=4, vertical=4),
                    content=ft.Row([
                        ft.Container(width=TOUCH_TARGET, height=TOUCH_TARGET,
                                     alignment=ft.Alignment.CENTER, content=ft.Icon(
                                         ft.Icons.RADIO_BUTTON_CHECKED if on
                                         else ft.Icons.RADIO_BUTTON_UNCHECKED,
                                         color=ft.Colors.PRIMARY if on else None)),
                        ft.Text(text, size=15, expand=True),
                    ], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER))))
        return ft.Semantics(identifier=f"reading-{item.key}", content=ft.Column(
            rows, spacing=0, tight=True))

    def _players_step(self) -> list[ft.Control]:
        t = self.ctx.t
        controls: list[ft.Control] = [body(t(
            "village.wizard.solo_player_intro" if self.draft.solo
            else "village.wizard.players_intro"))]
        for i, seat in enumerate(self.draft.seats):
            problem = next((p for p in self.problems if p.seat == i and p.field.endswith(".name")),
                           None)
            name = ft.TextField(
                label=t("village.wizard.name", seat=i + 1), value=seat.name,
                max_length=24, text_size=BODY_TEXT_SIZE,
                error=t(NAME_PROBLEMS[problem.message]) if problem else None,
                on_change=partial(self._set_name, i), capitalization=ft.TextCapitalization.WORDS)
            head: list[ft.Control] = [ft.Text(
                t("village.wizard.seat", seat=i + 1) if not self.draft.solo
                else t("village.wizard.you"), size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600,
                expand=True)]
            if not self.draft.solo:
                head += [
                    ft.Semantics(identifier=f"seat-{i}-up", content=icon_button(
                        ft.Icons.ARROW_UPWARD, t("village.wizard.move_up"),
                        partial(self._move, i, -1), disabled=i == 0)),
                    ft.Semantics(identifier=f"seat-{i}-down", content=icon_button(
                        ft.Icons.ARROW_DOWNWARD, t("village.wizard.move_down"),
                        partial(self._move, i, +1), disabled=i == self.draft.count - 1))]
            controls.append(ft.Semantics(identifier=f"seat-{i}", content=ft.Container(
                padding=12, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                content=ft.Column([
                    ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                    ft.Semantics(identifier=f"seat-name-{i}", content=name),
                    self._colour_row(seat.colour, partial(self._set_colour, i), f"colour-{i}"),
                ], spacing=8, tight=True))))
        if self.draft.solo:
            controls.append(ft.Text(t("village.wizard.karla_colour"), size=BODY_TEXT_SIZE,
                                    weight=ft.FontWeight.W_600))
            controls.append(self._colour_row(self.draft.karla_colour, self._set_karla_colour,
                                             "karla-colour"))
        return controls

    def _colour_row(self, current: str, on_pick: Any, prefix: str) -> ft.Control:
        dots: list[ft.Control] = []
        for colour in self.colours():
            chosen = colour == current
            dots.append(ft.Semantics(
                identifier=f"{prefix}-{colour}", label=colour_name(self.ctx, colour),
                selected=chosen, button=True,
                content=ft.Container(
                    width=TOUCH_TARGET, height=TOUCH_TARGET, border_radius=TOUCH_TARGET / 2,
                    bgcolor=hex_of(colour), on_click=partial(on_pick, colour), ink=True,
                    border=ft.Border.all(5 if chosen else 1.5,
                                         ft.Colors.PRIMARY if chosen else ft.Colors.OUTLINE),
                    alignment=ft.Alignment.CENTER,
                    content=ft.Icon(ft.Icons.CHECK, color=ft.Colors.PRIMARY) if chosen else None)))
        return ft.Row(dots, wrap=True, spacing=8)

    def _options_step(self) -> list[ft.Control]:
        t, d = self.ctx.t, self.draft
        controls: list[ft.Control] = []
        if d.solo:
            controls += [
                body(t("village.wizard.solo_start")),
                self._label(t("village.wizard.karla_variant")),
                self._radio("karla-variant", d.karla_variant,
                            [("standard", t("village.wizard.variant_standard")),
                             ("d4", t("village.wizard.variant_d4"))], self._set_variant),
                self._label(t("village.wizard.karla_policy")),
                self._radio("karla-policy", d.karla_policy,
                            [("ask", t("settings.karla.ask")),
                             ("auto", t("settings.karla.auto"))], self._set_policy),
            ]
        else:
            starters = [(str(i), s.name.strip() or t("village.wizard.seat", seat=i + 1))
                        for i, s in enumerate(d.seats)]
            # Where the edition's rules have no seat compensation (2011) the app's reading
            # is "off" and turning it on is a house rule.
            house_rule = any(item.setup_field == "compensation" and item.chosen == "off"
                             for item in switchable(d.edition, d.solo))
            compensation = t("readings.wizard.house_rule" if house_rule
                             else "village.wizard.compensation")
            controls += [
                self._label(t("village.wizard.start_player")),
                self._radio("start-player", "random" if d.start_player is None
                            else str(d.start_player),
                            [*starters, ("random", t("village.wizard.start_random"))],
                            self._set_start),
                ft.Semantics(identifier="compensation", content=ft.Row([
                    ft.Text(compensation, size=BODY_TEXT_SIZE, expand=True),
                    ft.Semantics(label=compensation, content=ft.Switch(
                        value=d.compensation, on_change=self._set_compensation,
                        height=TOUCH_TARGET))])),
                ft.Text(t("readings.wizard.house_rule_hint" if house_rule
                          else "village.wizard.compensation_hint"), size=14,
                        color=ft.Colors.ON_SURFACE_VARIANT),
            ]
        controls += [
            self._label(t("village.wizard.draw_mode")),
            self._radio("draw-mode", d.draw_mode,
                        [("app", t("village.wizard.draw_app")),
                         ("manual", t("village.wizard.draw_manual"))], self._set_draw_mode),
        ]
        if self._check_done():  # the check is skipped: said, and open to review
            controls += [
                ft.Semantics(identifier="check-done", content=ft.Row([
                    ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.PRIMARY),
                    ft.Text(t("village.wizard.check_done"), size=BODY_TEXT_SIZE, expand=True),
                ], vertical_alignment=ft.CrossAxisAlignment.START)),
                ft.Semantics(identifier="check-review", content=ft.TextButton(
                    t("village.wizard.check_review"), icon=ft.Icons.FACT_CHECK,
                    on_click=self._review, height=TOUCH_TARGET)),
            ]
        return controls

    @staticmethod
    def _label(text: str) -> ft.Text:
        return ft.Text(text, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600)

    @staticmethod
    def _radio(identifier: str, value: str, options: list[tuple[str, str]],
               on_change: Any) -> ft.Control:
        return ft.Semantics(identifier=identifier, content=ft.RadioGroup(
            value=value, on_change=on_change,
            content=ft.Column([ft.Radio(value=v, label=label, height=TOUCH_TARGET)
                               for v, label in options],
                              spacing=0)))

    def _components_step(self) -> list[ft.Control]:
        assert self.check is not None  # render made it
        self.check.render()
        return [self.check.build()]

    # ---- edits (the draft is the single source; controls are rebuilt from it) ----------------
    def _set_edition(self, edition: str) -> None:
        self.draft.set_edition("2011" if edition == "2011" else "big-box")
        if self.draft.count not in self.counts():
            self.draft.set_count(max(n for n in self.counts() if n <= self.draft.count))
        self._fit_colours()
        self.render()

    def _toggle_readings(self) -> None:
        self.readings_open = not self.readings_open
        self.render()

    def _choose(self, key: str, option: str) -> None:
        self.draft.choose(key, option)
        self.render()

    def _open_rules(self) -> None:
        """Above the wizard: back returns here with everything entered so far."""
        self.ctx.go(wizard_rules_route(self.draft.edition, self.draft.solo))

    def _set_count(self, count: int) -> None:
        self.draft.set_count(count)
        self.render()

    def _set_name(self, index: int, e: ft.Event[ft.TextField]) -> None:
        # No re-render while typing: the field keeps focus and cursor.
        self.draft.seats[index].name = e.control.value or ""

    def _move(self, index: int, step: int) -> None:
        self.draft.move(index, step)
        self.problems = []
        self.render()

    def _set_colour(self, index: int, colour: str) -> None:
        self.draft.set_colour(index, colour)
        self.render()

    def _set_karla_colour(self, colour: str) -> None:
        self.draft.set_karla_colour(colour)
        self.render()

    def _set_start(self, e: ft.Event[ft.RadioGroup]) -> None:
        value = e.control.value
        self.draft.start_player = None if value == "random" else int(value or 0)

    def _set_compensation(self, e: ft.Event[ft.Switch]) -> None:
        self.draft.compensation = bool(e.control.value)

    def _set_draw_mode(self, e: ft.Event[ft.RadioGroup]) -> None:
        self.draft.draw_mode = "manual" if e.control.value == "manual" else "app"

    def _set_variant(self, e: ft.Event[ft.RadioGroup]) -> None:
        self.draft.karla_variant = "d4" if e.control.value == "d4" else "standard"

    def _set_policy(self, e: ft.Event[ft.RadioGroup]) -> None:
        self.draft.karla_policy = "auto" if e.control.value == "auto" else "ask"

    # ---- navigation ---------------------------------------------------------------------------
    def _back(self) -> None:
        show_error(self.error, None)
        self.step = max(0, self.step - 1)
        self.render()

    def _next(self) -> None:
        t = self.ctx.t
        if self.step == 1:
            self.problems = self.draft.seat_problems(self.colours())
            if self.problems:
                first = self.problems[0]
                show_error(self.error, t("village.error", field=self._field_label(first.field),
                                         message=t(NAME_PROBLEMS[first.message])))
                self.render()
                return
        show_error(self.error, None)
        if not self._starts_here():
            self.step += 1
            self.render()
            return
        unchecked = self.check.unchecked() if self.check is not None else 0
        if unchecked:
            self.ctx.confirm(t("village.wizard.unchecked.title"),
                             self.ctx.tn("village.wizard.unchecked.body", unchecked,
                                         count=unchecked),
                             self._create, confirm_label=t("village.wizard.unchecked.start"),
                             cancel_label=t("village.wizard.unchecked.check"),
                             on_cancel=self._check_them)
            return
        self._create()

    def _review(self) -> None:
        """The skipped check, opened from the options step to look at the answers again."""
        self.step = len(STEPS) - 1
        self.render()

    def _check_them(self) -> None:
        """Back to the check ("All match my box" at its top)."""
        self.render()
        self.ctx.page.update()  # closing the dialog updated already: no automatic update

    def _field_label(self, field: str) -> str:
        """Setup field paths in the players' words ("players[1].name" -> "Name, seat 2")."""
        t = self.ctx.t
        problem = Problem(field, "")
        if problem.seat is not None:
            seat = problem.seat + 1
            if field.endswith(".colour"):
                return t("village.wizard.colour_of", seat=seat)
            return t("village.wizard.name", seat=seat)
        labels = {"start_player": "village.wizard.start_player",
                  "karla_colour": "village.wizard.karla_colour",
                  "players": "village.wizard.players_count"}
        return t(labels[field]) if field in labels else field

    # ---- creating the game --------------------------------------------------------------------
    def _create(self) -> None:
        if self.creating:  # a second tap while the first is saving
            return
        self.creating = True
        self.next_nav.disabled = True
        draft = copy.deepcopy(self.draft)

        def work(store: SessionStore) -> tuple[str, VillageSession]:
            svc = VillageService(store)
            setup = draft.to_setup(svc.components(draft.edition))
            return svc.create(setup, draw_mode=draft.draw_mode,
                              karla_policy=draft.karla_policy)

        self.ctx.in_background(work, then=self._created, on_error=self._create_failed)

    def _created(self, result: tuple[str, VillageSession]) -> None:
        session_id, session = result
        HUB.adopt(session_id, session)
        self.creating = False
        self.ctx.go(table_route(session_id))

    def _create_failed(self, exc: Exception) -> None:
        self.creating = False
        self.next_nav.disabled = False
        t = self.ctx.t
        if isinstance(exc, ReadOnlyStore):  # saving is off: say so, not the raw error
            show_error(self.error, self.ctx.failure_text(exc))
            self.render()
            return
        if isinstance(exc, SetupProblem):
            field = exc.field
            message = exc.message
        else:
            field, _, message = str(exc).partition(": ")
            if not message:
                field, message = "", field
        show_error(self.error, t("village.error", field=self._field_label(field),
                                 message=message))
        # Lead to the step where the field is fixed; what was entered stays.
        if field.startswith("players[") or field == "karla_colour":
            self.step = 1
        elif field == "start_player":
            self.step = 2
        elif field in ("players", "solo", "edition"):
            self.step = 0
        self.render()
