"""At 360 px no word breaks inside itself and no name is cut without a way to read it
whole (issue 13, point 7): the final-scoring table, the table and the panels in the four
languages, with a long name among the players."""

from __future__ import annotations

import flet as ft
import pytest

from companion.app.kit import longest_word_width
from companion.app.village.panel.score_screen import LABEL_SIZE, column_widths, label_width

from ..harness import AppHarness, FakeClient
from ..word_fit import word_fit_problems
from .conftest import Game, new_game, open_panel, tap, toasts

LOCALES = {"en": "en-US", "de": "de-DE", "ko": "ko-KR", "zh_Hant": "zh-TW"}
PANELS = ("score", "player/0", "market", "mass", "chronicle")
LONG_NAME = "Bartholomew"


def long_named_game(n: int = 3) -> Game:
    game = new_game(n)
    game.session.state.players[1].name = LONG_NAME  # Position: as the gallery's game
    return game


@pytest.mark.parametrize("lang", list(LOCALES))
def test_no_word_breaks_and_no_hidden_names_at_360(lang: str) -> None:
    game = long_named_game()
    client = FakeClient(locales=(LOCALES[lang],))
    with open_panel(game, "score", client) as app:
        found = {"score": word_fit_problems(app)}
        for panel in PANELS[1:]:
            app.set_route(game.route(panel))
            found[panel] = word_fit_problems(app)
            if panel == "player/0":
                tap(app, "tab-family")
                found["player/0 family"] = word_fit_problems(app)
        app.set_route(f"/play/village/{game.sid}")
        found["table"] = word_fit_problems(app)
    assert {where: p for where, p in found.items() if p} == {}


def _label_boxes(app: AppHarness) -> list[tuple[str, float]]:
    """(label, box width) of the score table's first column."""
    table = app.find(identifier="score-table")
    out = []
    for control, ancestors in app.walk(table, visible_only=True):
        if isinstance(control, ft.Text) and ancestors and isinstance(ancestors[-1],
                                                                     ft.Container):
            box = ancestors[-1]
            if box.alignment == ft.Alignment.CENTER_LEFT and box.width:
                out.append((str(control.value), float(box.width)))
    return out


def test_the_category_column_is_as_wide_as_its_longest_word() -> None:
    game = long_named_game()
    with open_panel(game, "score", FakeClient(locales=("de-DE",))) as app:
        boxes = _label_boxes(app)
        assert ("Ansehensleiste", boxes[0][1]) in boxes
        for label, width in boxes:  # no label gets less than its longest word
            assert width >= longest_word_width(label, LABEL_SIZE, bold=True) - 4, label


def test_a_long_name_fits_its_column_on_a_phone() -> None:
    game = long_named_game()
    with open_panel(game, "score", FakeClient(locales=("de-DE",))) as app:
        name = app.find(key="name-1")
        assert isinstance(name, ft.Text) and name.value == LONG_NAME
        assert not app.find_all(key="name-cell-1")  # shown whole: nothing to tap


def test_a_name_cut_short_has_a_tooltip_and_shows_whole_on_tap() -> None:
    game = new_game(5)
    names = ["Ann", LONG_NAME, "Maximiliane", "Evangelina", "Cy"]
    for player, name in zip(game.session.state.players, names, strict=True):
        player.name = name  # Position: five players, three long names
    with open_panel(game, "score", FakeClient(locales=("de-DE",))) as app:
        assert word_fit_problems(app) == []
        cut = [i for i in range(5) if app.find_all(key=f"name-cell-{i}")]
        assert cut, "five long names at 360 px: some are cut"
        for i in cut:
            text = app.find(key=f"name-{i}")
            assert isinstance(text, ft.Text) and text.tooltip == names[i]
        tap(app, f"name-cell-{cut[0]}")
        assert names[cut[0]] in toasts(app)


def test_wider_screens_give_names_their_room() -> None:
    label = label_width([("Ansehensleiste", False)])
    narrow = column_widths(["Ann", LONG_NAME, "Maximiliane", "Evangelina", "Cy"], label, 326)
    wide = column_widths(["Ann", LONG_NAME, "Maximiliane", "Evangelina", "Cy"], label, 700)
    assert narrow == [48] * 5  # no room at 360 px: the table scrolls sideways
    assert all(w >= n for w, n in zip(wide, narrow, strict=True)) and sum(wide) > sum(narrow)


def test_the_checker_catches_a_broken_word_and_a_hidden_name() -> None:
    def main(page: ft.Page) -> None:
        page.add(ft.Container(ft.Text("Ansehensleiste", size=15), width=88),
                 ft.Container(ft.Text(LONG_NAME, size=13, max_lines=1,
                                      overflow=ft.TextOverflow.ELLIPSIS), width=64),
                 ft.Container(ft.Text(LONG_NAME, size=13, max_lines=1, tooltip=LONG_NAME,
                                      overflow=ft.TextOverflow.ELLIPSIS), width=64),
                 ft.Container(ft.Text("Ansehensleiste", size=15), width=130))

    with AppHarness(main=main) as app:
        found = word_fit_problems(app)
    assert len(found) == 2, found
    assert "'Ansehensleiste': a word" in found[0] and LONG_NAME in found[1]


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_solo_table_and_karlas_board_fit_at_360(lang: str) -> None:
    game = new_game(1, solo=True, karla_colour="purple")
    with open_panel(game, "player/0", FakeClient(locales=(LOCALES[lang],))) as app:
        found = {"player/0": word_fit_problems(app)}
        app.set_route(f"/play/village/{game.sid}")
        assert app.find_all(identifier="karla-board")
        found["table"] = word_fit_problems(app)
    assert {where: p for where, p in found.items() if p} == {}


def test_the_score_table_widens_with_the_window() -> None:
    game = new_game(5)
    names = ["Ann", LONG_NAME, "Maximiliane", "Evangelina", "Cy"]
    for player, name in zip(game.session.state.players, names, strict=True):
        player.name = name  # Position: five players, three long names
    with open_panel(game, "score") as app:
        assert any(app.find_all(key=f"name-cell-{i}") for i in range(5))
        assert app.session is not None
        app.session.apply_page_patch({"width": 1280, "height": 800})
        app.dispatch(app.page, "resize", {"width": 1280, "height": 800})
        assert not any(app.find_all(key=f"name-cell-{i}") for i in range(5))
        assert word_fit_problems(app) == []
