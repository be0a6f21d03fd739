"""The history: newest first, filters, search by name (case/accent-insensitive), pages."""

from __future__ import annotations

from datetime import date

import pytest

from companion.history.query import HistoryFilter, history_page, select
from companion.history.records import GameRecord, build_records
from tests.history.helpers import info, solo, tally, village


def _records() -> list[GameRecord]:
    return build_records([
        info("v1", village({"Zoë": 50, "Bo": 40}, day="2024-01-10")),
        info("v2", village({"Chris": 30, "Bo": 45}, day="2024-03-05", edition="2011")),
        info("v3", village({"ZOE": 20, "Léa": 25}, day="2024-02-01", edition=None)),
        info("s1", solo("Christopher", 55, "master", day="2024-04-01")),
        info("f1", tally("feudum", {"Bo": 10, "Cy": 12}, ["Cy"], day="2024-03-20"),
             game="feudum"),
    ]).records


def _ids(records: list[GameRecord]) -> list[str]:
    return [r.id for r in records]


def test_newest_first() -> None:
    assert _ids(select(_records())) == ["s1", "f1", "v2", "v3", "v1"]


@pytest.mark.parametrize(("flt", "expected"), [
    (HistoryFilter(game="village"), ["s1", "v2", "v3", "v1"]),
    (HistoryFilter(edition="2011"), ["v2"]),
    (HistoryFilter(edition="big-box"), ["s1", "v1"]),  # v3 is unknown, feudum has none
    (HistoryFilter(solo=True), ["s1"]),
    (HistoryFilter(solo=False, game="village"), ["v2", "v3", "v1"]),
    (HistoryFilter(player="zoe"), ["v3", "v1"]),
    (HistoryFilter(player="Chris"), ["v2"]),
    (HistoryFilter(since=date(2024, 2, 1), until=date(2024, 3, 20)), ["f1", "v2", "v3"]),
    (HistoryFilter(search="chris"), ["s1", "v2"]),
    (HistoryFilter(search="LEA"), ["v3"]),
    (HistoryFilter(search="é"), ["s1", "v3", "v1"]),  # "é" is "e": Christopher, ZOE, Zoë
    (HistoryFilter(search="xyz"), []),
    (HistoryFilter(search="o", game="feudum"), ["f1"]),
])
def test_filters(flt: HistoryFilter, expected: list[str]) -> None:
    assert _ids(select(_records(), flt)) == expected


def test_search_ignores_accents_both_ways() -> None:
    assert _ids(select(_records(), HistoryFilter(search="Zoé"))) == ["v3", "v1"]


def test_player_filter_follows_the_merge_map() -> None:
    merged = select(_records(), HistoryFilter(player="Chris"), {"Chris": "Christopher"})
    assert _ids(merged) == ["s1", "v2"]


def test_pages_hold_only_what_they_show() -> None:
    records = _records()
    first = history_page(records, page=0, page_size=2)
    assert _ids(first.items) == ["s1", "f1"] and first.total == 5
    assert first.pages == 3 and first.has_more
    last = history_page(records, page=2, page_size=2)
    assert _ids(last.items) == ["v1"] and not last.has_more
    assert history_page(records, page=9, page_size=2).items == []
    with pytest.raises(ValueError):
        history_page(records, page=-1)
    with pytest.raises(ValueError):
        history_page(records, page_size=0)
