"""Issue 22.8 through the headless harness: dates with their four-digit year in the
player's locale (Home's "last played", the log's times, the statistics axis), History rows
whose "date · game" line fits one line at 360 px, and 2011 games named as such."""

from __future__ import annotations

from typing import Any

import flet as ft
import flet_charts as fch
import pytest

from companion.app.kit import BODY_TEXT_SIZE, text_width
from companion.app.summaries import local_datetime
from companion.history.played import PLAYED_KEY
from companion.i18n import Translator
from tests.history.helpers import village

from .conftest import ProblemStore
from .harness import AppHarness, FakeClient
from .test_no_english import LANGUAGES

TAGS = {"en": "en-US", **LANGUAGES}
#: 360 px less History's page padding (16 + 16) and a ListTile's (16 + 24).
ROW_TEXT_WIDTH = 360 - 32 - 40
PLAYED = "2026-11-27T08:05:00.000Z"


def _client(lang: str, route: str = "/") -> FakeClient:
    return FakeClient(locales=(TAGS[lang],), initial_route=route)


@pytest.mark.parametrize("lang", list(TAGS))
def test_a_moment_is_written_with_its_four_digit_year(lang: str) -> None:
    """What the log, Home and History's abandoned games print for a time."""
    text = local_datetime(PLAYED, Translator(lang).babel_locale)
    assert "2026" in text and "26" not in text.replace("2026", "")
    assert text.split("2026")[0] or lang in ("ko", "zh_Hant")  # the date leads, then time
    # No narrow no-break space (CLDR's before "AM"): our web fonts lack it, and a missing
    # glyph sends the web engine fetching fallback fonts on every layout.
    assert "\u202f" not in text


@pytest.mark.parametrize("lang", list(TAGS))
def test_home_last_played_has_a_four_digit_year(lang: str) -> None:
    store = ProblemStore()
    store.create("open", "villagers", "Ann, Bo", {},
                 summary={"players": ["Ann", "Bo"], PLAYED_KEY: PLAYED})
    with AppHarness(store, client=_client(lang)) as app:
        lines = [t for t in app.visible_texts() if "2026" in t]
        assert lines, app.visible_texts()
        assert not any("26" in t.replace("2026", "") for t in lines)  # no "11/27/26"


def _add(store: ProblemStore, sid: str, summary: dict[str, Any]) -> None:
    store.create(sid, "village", sid, {})
    store.update_info(sid, finished=True, summary=summary)


def _history(lang: str) -> tuple[ProblemStore, str]:
    store = ProblemStore()
    _add(store, "old", village({"Ann": 40, "Bo": 30}, day="2026-09-30", edition="2011",
                               minutes=125))
    _add(store, "box", village({"Ann": 41, "Bo": 30}, day="2026-09-29", minutes=60))
    return store, lang


@pytest.mark.parametrize("lang", list(TAGS))
def test_history_rows_fit_one_line_at_360_px_and_name_the_2011_edition(lang: str) -> None:
    store, _ = _history(lang)
    words = Translator(lang)
    edition_2011 = words.t("history.game.village_2011")
    assert "2011" in edition_2011 and edition_2011 != words.t("game.village")
    with AppHarness(store, client=_client(lang, "/history")) as app:
        for sid, label in (("old", edition_2011), ("box", words.t("game.village"))):
            row = app.find(identifier=f"history-{sid}")
            [tile] = [c for c, _ in app.walk(row) if isinstance(c, ft.ListTile)]
            title = tile.title
            assert isinstance(title, ft.Text) and isinstance(title.value, str)
            shown = title.value.replace("\u2060", "")  # Korean words kept whole
            assert shown.endswith(" · " + label) and "2026" in shown
            width = text_width(title.value, title.size or BODY_TEXT_SIZE)
            assert width <= ROW_TEXT_WIDTH, (title.value, width)
            # Nothing beside the text squeezes it: the buttons are on their own line.
            assert not any(isinstance(a, ft.Row) for _, anc in app.walk(row)
                           for a in anc if _ is tile)
            assert tile.leading is None
        duration = words.t("history.duration", minutes=125)
        assert any(t.startswith(duration + "\n") for t in app.visible_texts())


def test_the_statistics_axis_writes_four_digit_years() -> None:
    store, _ = _history("de")
    with AppHarness(store, client=_client("de", "/history/stats")) as app:
        labels = [c.label for c, _ in app.walk(app.page)
                  if isinstance(c, fch.ChartAxisLabel)]
        texts = [getattr(lbl, "value", lbl) for lbl in labels]
        dated = [t for t in texts if isinstance(t, str) and "2026" in t]
        assert dated == ["29.09.2026", "30.09.2026"] or set(dated) == {
            "29.09.2026", "30.09.2026"}, texts
