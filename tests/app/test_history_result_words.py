"""The score sheet's result line (issue 22.1): a solo sheet says won or lost against
Karla by the achievement (never "Winner: Dana"); a multiplayer sheet names its winners.
The same words go into the shared text."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from companion.app.village.panel.score_text import result_line, share_text
from companion.i18n import Translator
from companion.scoring.contract import PlayerResult, ScoreSheet
from companion.village.components import load_components
from companion.village.scoring import build_sheet


def _ctx(lang: str) -> Any:
    translator = Translator(lang)
    return SimpleNamespace(t=translator.t, translator=translator)


def _solo(total: int, expansions: list[str]) -> ScoreSheet:
    comp = load_components("big-box")
    cats = {"prestige": total, "travel": 0, "church": 0, "customers": 0, "chronicle": 0,
            "council": 0, "coins": 0}
    tb = {"grain": [0], "living": [0], "customers": [0], "youngest": [0]}
    return build_sheet(comp, ["Dana"], [cats], tb, True, expansions)


@pytest.mark.parametrize(("total", "expansions", "lang", "expected"), [
    (47, [], "en", "Won against Karla"),
    (39, [], "en", "Lost to Karla"),
    (47, ["inn"], "en", "Lost to Karla"),  # the Inn raises Traveller to 50
    (47, [], "zh_Hant", "勝過卡拉"),
    (39, [], "ko", "카를라에게 패배"),
    (39, [], "de", "Verloren gegen Karla"),
])
def test_a_solo_sheet_is_won_or_lost_against_karla(total: int, expansions: list[str],
                                                    lang: str, expected: str) -> None:
    sheet = _solo(total, expansions)
    assert sheet.winners == ["Dana"]  # the sheet ranks its one player first …
    comp = load_components("big-box")
    ctx = _ctx(lang)
    assert result_line(ctx, sheet, comp) == expected  # … but the result is Karla's
    assert expected in share_text(cast(Any, ctx), sheet, [], "2026-11-27", comp).splitlines()


def test_a_multiplayer_sheet_names_its_winners() -> None:
    sheet = ScoreSheet(game="village", winners=["Ann", "Bo"], players=[
        PlayerResult(name=n, categories={}, total=40, rank=1) for n in ("Ann", "Bo")])
    assert result_line(_ctx("en"), sheet, load_components("big-box")) == "Winner: Ann, Bo"
