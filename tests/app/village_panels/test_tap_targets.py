"""Every tap target of the player panel, the draw sheets and the value dialog is at least
48 px high, and every icon-only button has an accessible name (issue 13, point 8)."""

from __future__ import annotations

import flet as ft
import pytest

from companion.store.memory import MemoryStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from ..harness import AppHarness
from ..tap_targets import tap_target_problems
from .conftest import acting, new_game, open_panel, pick, tap, village_app_routes

FORMS = ("harvest", "family", "crafts", "council", "travel", "church")


def open_dialog_roots(app: AppHarness) -> list[ft.AlertDialog]:
    return [d for d in app.page._dialogs.controls
            if isinstance(d, ft.AlertDialog) and d.open]


def test_the_player_panel_has_no_small_or_unnamed_targets() -> None:
    game = acting("crafts", "brown")
    game.session.state.players[0].customers = [2]  # a customer tile row too
    with open_panel(game, "player/0") as app:
        seen = {"overview": tap_target_problems(app)}
        tap(app, "tab-family")
        seen["family"] = tap_target_problems(app)
        tap(app, "tab-actions")
        for action in FORMS:
            pick(app, f"action-{action}")
            seen[action] = tap_target_problems(app)
        assert {tab: found for tab, found in seen.items() if found} == {}


def test_the_checker_catches_a_small_button_and_an_unnamed_icon() -> None:
    game = new_game()
    with open_panel(game, "player/0") as app:
        view = app.page.views[-1]
        view.controls.append(ft.Column([
            ft.TextButton("Tiny", on_click=lambda: None),
            ft.IconButton(ft.Icons.ADD, on_click=lambda: None, height=48,
                          tooltip="A tooltip does not name the button")]))
        app.page.update()
        found = tap_target_problems(app)
        assert "TextButton('Tiny') is None px high" in found
        assert any("IconButton" in p and "no accessible name" in p for p in found)


def manual_game(store: MemoryStore) -> str:
    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")],
                         start_player=0, compensation=False)
    sid, _ = VillageService(store).create(setup, draw_mode="manual")
    return sid


def test_the_bag_sheet_and_its_buttons() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    with AppHarness(store, routes=village_app_routes()) as app:
        app.set_route(f"/play/village/{sid}")
        dialogs = open_dialog_roots(app)
        assert len(dialogs) == 1 and app.find_all(identifier="form-bag")
        assert tap_target_problems(app, dialogs[0]) == []


@pytest.mark.parametrize("step", ["-", "+"])
def test_stepper_buttons_are_named_for_what_they_change(step: str) -> None:
    game = new_game()
    with open_panel(game, "player/0") as app:
        key = f"adjust-prestige-{'minus' if step == '-' else 'plus'}"
        button = app.find(key=key)
        assert isinstance(button, ft.IconButton) and isinstance(button.icon, ft.Icon)
        name = "Prestige: one less" if step == "-" else "Prestige: one more"
        assert button.icon.semantics_label == name  # the button's own name
        assert button.tooltip == name


def test_the_settings_radio_rows_and_switch_are_48_px() -> None:
    with AppHarness(MemoryStore()) as app:
        app.set_route("/settings")
        assert app.find_all(control_type=ft.Radio) and app.find_all(control_type=ft.Switch)
        assert tap_target_problems(app) == []


def test_the_score_dialog_and_its_buttons() -> None:
    game = new_game()
    game.session.state.phase = "scoring"  # Position: the final mass is over
    with open_panel(game, "score") as app:
        tap(app, "cell-0-coins")
        dialogs = open_dialog_roots(app)
        assert len(dialogs) == 1
        assert tap_target_problems(app, dialogs[0]) == []
