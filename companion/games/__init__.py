"""The one registry of the games the app knows (issue 21.2): Village (Big Box and 2011),
Small City, Feudum and Villagers.

Every list of games reads this module: Home's new-game buttons and its resume routes, the
assistants' routes, History's filters, names and links, the score command's scorers, the
tally rules, the BG Stats link's BoardGameGeek ids and the history benchmark. It sits below
every other package (it imports nothing of the app, no Flet and no game), so a lower layer
gets what it needs as data: ids, message keys, route templates, and "module:attribute"
targets that `load` imports only when asked (one game's import never slows another).

Names are message keys into the four gettext catalogues (locales/<lang>/LC_MESSAGES), never
English text: `tests/games/test_registry.py` checks every key in every language.

Older records may name a game by a legacy id ("village-solo", "small_city", …): `game()`,
`canonical_id()` and the route and name look-ups accept them, and the history records are
built with the canonical id, so History names, filters and links them like any other.

The BoardGameGeek ids keep their provenance in `bgg_ids.json` beside this module: an id
marked "estimate" or "unknown" (Village: Big Box's) is kept there and never sent.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "GAMES", "GAME_IDS", "TALLY_GAMES", "VILLAGE", "BggId", "Edition", "Game", "Start",
    "all_ids", "bgg_ids", "bgg_key", "canonical_id", "edition_label_key", "editions", "game",
    "load", "log_route",
    "name_key", "play_route", "record_name_key", "replay_route", "scorers", "sheet_route",
    "tally_rules",
]

VILLAGE = "village"


@dataclass(frozen=True)
class Start:
    """One way to start the game from Home: the route, its button's name and icon."""

    route: str
    name_key: str
    icon: str  # a Material icon's name (a member of Flet's `Icons`), as data: no Flet here


@dataclass(frozen=True)
class Edition:
    id: str  # as the records and the Village engine store it: "big-box", "2011"
    label_key: str  # the edition by itself ("Big Box", "2011 edition")
    record_name_key: str  # a finished game of this edition as History names it
    bgg_key: str  # its entry in bgg_ids.json


@dataclass(frozen=True)
class Game:
    id: str  # as sessions store it
    name_key: str  # the game's name in the catalogues
    scorer: str  # "module:function" scoring a score file of this game (companion.scoring)
    starts: tuple[Start, ...]
    play_route: str  # where a saved game opens; "{id}" is the session id
    sheet_route: str  # its final sheet once finished
    legacy_ids: tuple[str, ...] = ()  # ids older sessions store for this game
    tally_rules: str | None = None  # "module:attribute" of its TallyRules (assistants)
    setup_screen: str | None = None  # "module:Class" of an assistant's setup screen
    play_screen: str | None = None  # "module:Class" of an assistant's play screen
    log_route: str | None = None  # the read-only log of a finished game
    replay_route: str | None = None  # a finished game step by step
    editions: tuple[Edition, ...] = ()
    bgg_key: str = ""  # its entry in bgg_ids.json (Village: the edition is unknown)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset((self.id, *self.legacy_ids))

    def edition(self, edition_id: str | None) -> Edition | None:
        return next((e for e in self.editions if e.id == edition_id), None)


_ASSISTANTS = "companion.app.assistants"


def _assistant(game_id: str, name_key: str, package: str, screen: str, setup: str,
               icon: str, legacy_ids: tuple[str, ...] = ()) -> Game:
    """A scoring assistant: /new/<id> sets it up, /play/<id>/<session> plays and, once
    finished, shows its final sheet."""
    return Game(
        id=game_id, name_key=name_key, legacy_ids=legacy_ids,
        scorer=f"companion.{package}.scoring:score_payload",
        tally_rules=f"companion.{package}.tally:RULES",
        starts=(Start(f"/new/{game_id}", name_key, icon),),
        play_route=f"/play/{game_id}/{{id}}", sheet_route=f"/play/{game_id}/{{id}}",
        setup_screen=f"{_ASSISTANTS}.setups:{setup}",
        play_screen=f"{_ASSISTANTS}.{package}:{screen}",
        bgg_key=game_id)


GAMES: tuple[Game, ...] = (
    Game(
        id=VILLAGE, name_key="game.village",
        legacy_ids=("village-solo", "village_solo"),  # solo games before the edition field
        scorer="companion.village.scoring:score_payload",
        starts=(Start("/new/village", "game.village", "GROUPS"),
                Start("/new/village-solo", "game.village_solo", "PERSON")),
        play_route="/play/village/{id}", sheet_route="/play/village/{id}/score",
        log_route="/play/village/{id}/log", replay_route="/history/replay/{id}",
        editions=(Edition("big-box", "readings.edition.big_box", "game.village",
                          "village/big-box"),
                  Edition("2011", "readings.edition.2011", "history.game.village_2011",
                          "village/2011")),
        bgg_key="village"),
    _assistant("small-city", "game.small_city", "small_city", "SmallCityScreen",
               "SmallCitySetup", "LOCATION_CITY", legacy_ids=("small_city",)),
    _assistant("feudum", "game.feudum", "feudum", "FeudumScreen", "FeudumSetup", "CASTLE"),
    _assistant("villagers", "game.villagers", "villagers", "VillagersScreen",
               "VillagersSetup", "AGRICULTURE"),
)

#: The games' ids in the order the app offers them (Home, History's filters).
GAME_IDS: tuple[str, ...] = tuple(g.id for g in GAMES)
#: The scoring assistants: the games the tally engine plays.
TALLY_GAMES: tuple[str, ...] = tuple(g.id for g in GAMES if g.tally_rules)

_BY_ID: dict[str, Game] = {i: g for g in GAMES for i in g.ids}


def game(game_id: str) -> Game | None:
    """The game an id (or a legacy id) names; None for an id this build does not know."""
    return _BY_ID.get(game_id)


def canonical_id(game_id: str) -> str:
    """The game's id today ("village_solo" -> "village"); an unknown id stays as it is."""
    found = _BY_ID.get(game_id)
    return found.id if found else game_id


def all_ids(game_id: str) -> frozenset[str]:
    """Every id a game's sessions may carry (its id and legacy ids)."""
    found = _BY_ID.get(game_id)
    return found.ids if found else frozenset({game_id})


def editions(game_id: str) -> tuple[Edition, ...]:
    """The game's editions as records name them (none: the game has one)."""
    found = _BY_ID.get(game_id)
    return found.editions if found else ()


def edition_label_key(game_id: str, edition: str | None) -> str | None:
    """The name of one of the game's editions by itself ("Big Box", "2011 edition")."""
    found = _BY_ID.get(game_id)
    ed = found.edition(edition) if found else None
    return ed.label_key if ed else None


def name_key(game_id: str) -> str | None:
    found = _BY_ID.get(game_id)
    return found.name_key if found else None


def record_name_key(game_id: str, edition: str | None) -> str | None:
    """A finished game's name as History shows it: Village per edition ("Village (2011)";
    the Big Box, the edition of every game since, and an unknown edition: "Village")."""
    found = _BY_ID.get(game_id)
    if found is None:
        return None
    ed = found.edition(edition)
    return ed.record_name_key if ed else found.name_key


def _route(template: str | None, session_id: str) -> str | None:
    return template.format(id=session_id) if template else None


def play_route(game_id: str, session_id: str) -> str | None:
    found = _BY_ID.get(game_id)
    return _route(found.play_route if found else None, session_id)


def sheet_route(game_id: str, session_id: str) -> str | None:
    found = _BY_ID.get(game_id)
    return _route(found.sheet_route if found else None, session_id)


def log_route(game_id: str, session_id: str) -> str | None:
    found = _BY_ID.get(game_id)
    return _route(found.log_route if found else None, session_id)


def replay_route(game_id: str, session_id: str) -> str | None:
    found = _BY_ID.get(game_id)
    return _route(found.replay_route if found else None, session_id)


def scorers() -> dict[str, str]:
    """game id -> "module:function" of its scorer (the score command)."""
    return {g.id: g.scorer for g in GAMES}


def tally_rules() -> dict[str, str]:
    """game id -> "module:attribute" of its TallyRules (the scoring assistants)."""
    return {g.id: g.tally_rules for g in GAMES if g.tally_rules}


def load(target: str) -> Any:
    """Import "module:attribute" and return the attribute (lazily, on first use)."""
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


# --------------------------------------------------------------------- BoardGameGeek ids


@dataclass(frozen=True)
class BggId:
    name: str  # the game's name on BoardGameGeek (sent to BG Stats as the game's name)
    bgg_id: int | None
    provenance: str
    status: str  # "confirmed", "estimate" or "unknown": only "confirmed" is ever sent
    ref: str


@cache
def bgg_ids() -> dict[str, BggId]:
    """The BoardGameGeek ids by key ("village/2011", "small-city", …), as bgg_ids.json
    records them with their provenance."""
    raw = json.loads(resources.files(__name__).joinpath("bgg_ids.json")
                     .read_text(encoding="utf-8"))
    out: dict[str, BggId] = {}
    for key, entry in raw["games"].items():
        bgg_id = entry["bgg_id"]
        if bgg_id is not None and type(bgg_id) is not int:
            raise ValueError(f"bgg_ids.json: {key}: bgg_id must be a whole number or null")
        out[key] = BggId(name=str(entry["name"]), bgg_id=bgg_id,
                         provenance=str(entry["provenance"]), status=str(entry["status"]),
                         ref=str(entry["ref"]))
    return out


def bgg_key(game_id: str, edition: str | None) -> str:
    """A game's key in bgg_ids.json: Village per edition ("village/2011"), "village" when
    the edition is unknown; an unknown game: its id."""
    found = _BY_ID.get(game_id)
    if found is None:
        return game_id
    ed = found.edition(edition)
    return ed.bgg_key if ed else (found.bgg_key or found.id)
