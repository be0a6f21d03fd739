"""The history: finished games newest first, filtered, searched by player and paged.

    page = history_page(records, HistoryFilter(game="village", player="zoe"), page=0)

Filters combine (all must hold). `player` matches a player exactly as the statistics do
(normalised name, through the merge map); `search` finds games with a player whose name
contains the text, ignoring case and accents ("zoe" finds "Zoë", "Chloé" finds "chloe").
A page holds only the records it shows, with the total count for the pager.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from companion.history.names import NameMatcher, fold
from companion.history.records import GameRecord

DEFAULT_PAGE_SIZE = 20


class HistoryFilter(BaseModel):
    model_config = ConfigDict(frozen=True)

    game: str | None = None
    edition: str | None = None
    solo: bool | None = None  # True: solo games only; False: multiplayer only
    player: str | None = None  # that player took part (matched as in the statistics)
    search: str | None = None  # a player's name contains this (case/accent-insensitive)
    since: date | None = None  # inclusive
    until: date | None = None  # inclusive


class HistoryPage(BaseModel):
    items: list[GameRecord]
    page: int  # 0-based
    page_size: int
    total: int  # records matching the filter, on every page

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))

    @property
    def has_more(self) -> bool:
        return (self.page + 1) * self.page_size < self.total


def newest_first_key(record: GameRecord) -> tuple[str, str, str, str]:
    """Day played, then the finishing time, then the last save, then id (stable)."""
    ended = record.ended_at.isoformat() if record.ended_at else ""
    return record.date.isoformat(), ended, record.updated_at, record.id


def newest_first(records: Iterable[GameRecord]) -> list[GameRecord]:
    return sorted(records, key=newest_first_key, reverse=True)


def matches(record: GameRecord, flt: HistoryFilter,
            matcher: NameMatcher | None = None) -> bool:
    if flt.game is not None and record.game != flt.game:
        return False
    if flt.edition is not None and record.edition != flt.edition:
        return False
    if flt.solo is not None and record.solo != flt.solo:
        return False
    if flt.since is not None and record.date < flt.since:
        return False
    if flt.until is not None and record.date > flt.until:
        return False
    if flt.player:
        matcher = matcher or NameMatcher()
        wanted = matcher.key(flt.player)
        if not any(matcher.key(p.name) == wanted for p in record.players):
            return False
    if flt.search:
        needle = fold(flt.search)
        if needle and not any(needle in fold(p.name) for p in record.players):
            return False
    return True


def select(records: Iterable[GameRecord], flt: HistoryFilter | None = None,
           merges: Mapping[str, str] | None = None) -> list[GameRecord]:
    """Every matching record, newest first."""
    flt = flt or HistoryFilter()
    matcher = NameMatcher(merges)
    return newest_first(r for r in records if matches(r, flt, matcher))


class _Page(BaseModel):
    page: int = Field(ge=0)
    page_size: int = Field(ge=1, le=1000)


def history_page(records: Iterable[GameRecord], flt: HistoryFilter | None = None, *,
                 page: int = 0, page_size: int = DEFAULT_PAGE_SIZE,
                 merges: Mapping[str, str] | None = None) -> HistoryPage:
    """One page of the matching records, newest first (ValueError for a bad page/size).
    A page past the end is empty."""
    _Page(page=page, page_size=page_size)
    chosen = select(records, flt, merges)
    start = page * page_size
    return HistoryPage(items=chosen[start:start + page_size], page=page,
                       page_size=page_size, total=len(chosen))
