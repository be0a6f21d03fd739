"""Every Material icon a screen of the tour (screen_tour.py) shows is in the icon subset the
web client loads (issue 23, companion/web/icon_font.py): what the code names by
`ft.Icons.X` is checked without running it (tests/web/test_icon_font.py); this catches an
icon reached any other way (a name held as data, a lookup by name)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import flet as ft
import pytest

from companion.app.village.hub import HUB
from companion.web.icon_font import MATERIAL_SET, client_icons, icon_font_file

from .harness import AppHarness
from .screen_tour import TOURS

ttLib = pytest.importorskip("fontTools.ttLib")


@pytest.fixture(autouse=True)
def _forget_sessions() -> Iterator[None]:
    yield
    HUB._open.clear()  # each tour opens its own games


def shown_icons(app: AppHarness) -> set[ft.IconData]:
    """Every icon value held by a control of the screen or an open dialog."""
    return {value for root in app.screen_roots() for control, _ in app.walk(root)
            for field in dataclasses.fields(control)
            if isinstance(value := getattr(control, field.name, None), ft.IconData)}


@pytest.mark.parametrize("tour", sorted(TOURS))
def test_every_icon_a_screen_shows_is_in_the_subset(tour: str) -> None:
    shipped = set(ttLib.TTFont(icon_font_file()).getBestCmap())
    table = client_icons().table
    seen: set[ft.IconData] = set()

    def look(app: AppHarness, where: str) -> None:
        seen.update(shown_icons(app))

    TOURS[tour]("en", look)
    assert seen
    material = {icon for icon in seen if int(icon) >> 16 == MATERIAL_SET}
    assert material == seen, f"not Material icons: {seen - material}"
    missing = sorted(icon.name for icon in material if table[int(icon) & 0xFFFF] not in shipped)
    assert not missing, f"{missing}: run python build/subset_icon_font.py"
