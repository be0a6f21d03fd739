"""Page arithmetic for lists shown a few rows at a time (long Flet lists are slow)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class PageSlice(Generic[T]):
    items: Sequence[T]
    index: int  # 0-based, already clamped
    count: int  # number of pages, at least 1

    @property
    def has_previous(self) -> bool:
        return self.index > 0

    @property
    def has_next(self) -> bool:
        return self.index < self.count - 1


def page_slice(items: Sequence[T], index: int, size: int) -> PageSlice[T]:
    """Rows of page `index` (clamped into range, so a shrinking list never shows a gap)."""
    if size < 1:
        raise ValueError("page size must be at least 1")
    count = max(1, -(-len(items) // size))
    index = min(max(index, 0), count - 1)
    start = index * size
    return PageSlice(items=items[start:start + size], index=index, count=count)
