"""How the history matches player names: normalised, then through the user's merge map.

"Zoë", "zoe " and "ZOE" are one player; `{"Chris": "Christopher"}` (kept in the setting
MERGE_SETTING) makes Chris count as Christopher. Pure functions, plus two helpers to read
and write the merge map through any store's settings.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, Protocol

#: The store setting holding the user's merge map {"name as typed": "name it counts as"}.
MERGE_SETTING = "history.player_merge"


class SettingsStore(Protocol):
    def get_setting(self, key: str, default: object = None) -> Any: ...

    def set_setting(self, key: str, value: object) -> None: ...


def fold(text: str) -> str:
    """Case- and accent-insensitive form of any text (for search)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def normalise_name(name: str) -> str:
    """The key a player is matched by: accents, case and extra spaces do not count."""
    return fold(name)


class NameMatcher:
    """Maps a name as stored in a game to the key of the player it counts as.

    `merges` maps names to the name they count as (both matched normalised); chains are
    followed (A -> B -> C) and a cycle stops where it would repeat.
    """

    def __init__(self, merges: Mapping[str, str] | None = None) -> None:
        raw: dict[str, str] = {}
        for source, target in (merges or {}).items():
            if isinstance(source, str) and isinstance(target, str):
                key, to = normalise_name(source), normalise_name(target)
                if key and to and key != to:
                    raw[key] = to
        self._merges = raw
        self._cache: dict[str, str] = {}
        # The spelling the user gave a merge target, preferred for display.
        self.preferred: dict[str, str] = {
            normalise_name(t): t.strip() for t in (merges or {}).values()
            if isinstance(t, str) and t.strip()}

    def key(self, name: str) -> str:
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        key = normalise_name(name)
        seen = {key}
        while key in self._merges and self._merges[key] not in seen:
            key = self._merges[key]
            seen.add(key)
        self._cache[name] = key
        return key


def load_merges(store: SettingsStore) -> dict[str, str]:
    """The user's merge map (an unreadable value counts as none)."""
    value = store.get_setting(MERGE_SETTING, {})
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def save_merges(store: SettingsStore, merges: Mapping[str, str]) -> None:
    store.set_setting(MERGE_SETTING, {str(k): str(v) for k, v in merges.items()})
