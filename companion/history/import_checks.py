"""What a backup import checks before it writes anything (issue 22.4).

A backup file is read from outside the app, so nothing in it is trusted:

- every setting against the keys and values the app knows (`setting_problem`): the app's
  own (language, theme, ...), the component corrections (each one as the wizard checks
  it: `VillageService.correct` -> `correction_value`, one after the other, then the whole
  set as a new game loads it), the estimates confirmed, the player merge map, and the
  per-game settings of store schema 1 only for a game inside the backup (a setting
  naming a game that is already here would change that game);
- every game to be created is replayed by its engine (`replay_game`), as opening it
  would: a game its engine cannot fold is not imported (and said why), never stored to
  be set aside at its first open; one that replays is stored with what its replay says
  (`Replayed`: finished or not, and the summary its game's service writes), never the
  summary of the file, which may say anything (a score the log never reached).

Problems are `ImportProblem`s: a `code` the app words in the player's language, with
`params`; `detail` is the engine's own words (English), shown as a technical aside.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, get_args

from pydantic import ValidationError

from companion import games
from companion.core.json_types import JsonObject
from companion.i18n import SUPPORTED_LANGUAGES
from companion.tally.errors import EditRejected
from companion.tally.registry import rules_for
from companion.tally.service import HEADER_KIND, HEADER_SCHEMA, session_summary
from companion.tally.session import TallySession
from companion.tally.setup import TallySetup
from companion.village.components import (
    ComponentData,
    ComponentProblem,
    correction_value,
    load_components,
)
from companion.village.rules.errors import RuleError
from companion.village.service import ENGINE_VERSION
from companion.village.service import session_summary as village_summary
from companion.village.session import DrawMode, KarlaPolicy, VillageSession
from companion.village.setup import VillageSetup

EDITIONS = tuple(e.id for e in games.editions(games.VILLAGE))  # the registry's
#: The app's settings and the values each may hold (companion/app/settings.py: a test
#: keeps the two equal). None: any bool.
APP_SETTING_VALUES: dict[str, tuple[Any, ...] | None] = {
    "app.language": SUPPORTED_LANGUAGES,
    "app.theme": ("light", "dark", "system"),
    "game.karla_policy": ("ask", "auto"),
    "game.d4_variant": None,
    "game.cube_display": ("colour_letter", "colour_only"),
}
MERGE_SETTING = "history.player_merge"
_CORRECTION = re.compile(r"^calibration:village:(?P<edition>.+)$")
_CHECKED = re.compile(r"^calibration_checked:village:(?P<edition>.+)$")
_LEGACY = re.compile(r"^session:(?P<id>.+):(?P<name>[a-z]+)$")
LEGACY_GAME_SETTINGS = ("prefs", "engine")
VILLAGE_GAMES = games.all_ids(games.VILLAGE)
_DETAIL_CHARS = 200


class ImportProblem(ValueError):
    """Why a setting or a game of a backup cannot be imported (see the module doc)."""

    def __init__(self, code: str, detail: str = "", **params: Any) -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.params = params


def _words(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:_DETAIL_CHARS]


def legacy_game_setting(key: str) -> tuple[str, str] | None:
    """(game id, name) of a store-schema-1 per-game setting key, else None."""
    found = _LEGACY.match(key)
    return (found["id"], found["name"]) if found else None


# --------------------------------------------------------------------------- settings


def setting_problem(key: str, value: object, game_ids: set[str]) -> ImportProblem | None:
    """Why the setting `key` = `value` of a backup must not be imported (None: it may).
    `game_ids`: the games inside the backup (a per-game setting must name one)."""
    if key in APP_SETTING_VALUES:
        allowed = APP_SETTING_VALUES[key]
        ok = isinstance(value, bool) if allowed is None else (
            isinstance(value, str) and value in allowed)
        return None if ok else ImportProblem("setting_value", repr(value)[:80], key=key)
    if key == MERGE_SETTING:
        ok = isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in value.items())
        return None if ok else ImportProblem("setting_value", "", key=key)
    for pattern, check in ((_CORRECTION, corrections_problem), (_CHECKED, _checked_problem)):
        found = pattern.match(key)
        if found:
            if found["edition"] not in EDITIONS:
                return ImportProblem("setting_unknown", key=key)
            return check(found["edition"], value, key)
    legacy = legacy_game_setting(key)
    if legacy is not None:
        session_id, name = legacy
        if name not in LEGACY_GAME_SETTINGS:
            return ImportProblem("setting_unknown", key=key)
        if session_id not in game_ids:
            return ImportProblem("setting_game", key=key)
        return game_setting_problem(name, value, key)
    return ImportProblem("setting_unknown", key=key)


def game_setting_problem(name: str, value: object, key: str) -> ImportProblem | None:
    """A per-game setting of store schema 1: "prefs" or "engine"."""
    if name == "engine":
        ok = type(value) is int and 1 <= value <= ENGINE_VERSION
        return None if ok else ImportProblem("setting_value", repr(value)[:80], key=key)
    if name == "prefs":
        return None if prefs_ok(value) else ImportProblem("setting_value", "", key=key)
    return ImportProblem("setting_unknown", key=key)


def prefs_ok(value: object) -> bool:
    """A Village game's preferences as its header (or a schema 1 setting) keeps them."""
    if not isinstance(value, dict) or set(value) - {"draw_mode", "karla_policy"}:
        return False
    return (value.get("draw_mode", "app") in get_args(DrawMode)
            and value.get("karla_policy", "ask") in get_args(KarlaPolicy))


def corrections_problem(edition: str, value: object, key: str) -> ImportProblem | None:
    """The component corrections of one edition, each checked as the wizard checks it
    (against the shipped data with the corrections before it applied), then the whole set
    as every new game of that edition would load it."""
    if not isinstance(value, dict):
        return ImportProblem("setting_value", "", key=key)
    applied: JsonObject = {}
    try:
        for name, corrected in value.items():
            data = load_components(edition, applied)  # type: ignore[arg-type]
            correction_value(data, name, corrected)
            applied[name] = corrected
        load_components(edition, applied)  # type: ignore[arg-type]
    except ComponentProblem as exc:
        return ImportProblem("correction", str(exc)[:_DETAIL_CHARS], edition=edition)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError,
            RecursionError) as exc:
        return ImportProblem("correction", _words(exc), edition=edition)
    return None


def _checked_problem(edition: str, value: object, key: str) -> ImportProblem | None:
    ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
    return None if ok else ImportProblem("setting_value", "", key=key)


# --------------------------------------------------------------------------- games


class Replayed(NamedTuple):
    """What a game's replay says of it: finished or not, and the summary its game's
    service writes (with that service's time of writing as `date` / `played_at`)."""

    finished: bool
    summary: JsonObject


def replay_game(game: str, header: JsonObject, events: list[JsonObject],
                redo: list[JsonObject], legacy: JsonObject | None = None
                ) -> ImportProblem | Replayed:
    """Replay this game by its engine as opening it would: why it cannot be opened as
    stored, or what the replay says of it. `legacy`: its store-schema-1 per-game
    settings, applied as opening it would apply them."""
    legacy = legacy or {}
    if game in VILLAGE_GAMES:
        return _village_replay(header, events, redo, legacy)
    try:
        rules_for(game)
    except EditRejected:
        return ImportProblem("unknown_game", game=game)
    return _tally_replay(game, header, events, redo)


def replay_problem(game: str, header: JsonObject, events: list[JsonObject],
                   redo: list[JsonObject], legacy: JsonObject | None = None
                   ) -> ImportProblem | None:
    """Why this game's engine cannot open it as stored (None: it replays)."""
    found = replay_game(game, header, events, redo, legacy)
    return found if isinstance(found, ImportProblem) else None


def _village_replay(header: JsonObject, events: list[JsonObject],
                    redo: list[JsonObject], legacy: JsonObject
                    ) -> ImportProblem | Replayed:
    engine = header.get("engine", 1)
    if type(engine) is not int or engine < 1:
        return ImportProblem("not_replayable", f"engine {engine!r}")
    if max(engine, legacy.get("engine", 1)) > ENGINE_VERSION:
        return ImportProblem("newer_engine", version=engine, supported=ENGINE_VERSION)
    prefs = header.get("prefs", {})
    if not prefs_ok(prefs):
        return ImportProblem("not_replayable", f"prefs {str(prefs)[:80]}")
    prefs = {**prefs, **legacy.get("prefs", {})}
    try:
        setup = VillageSetup.model_validate(header["setup"], context={"stored": True})
        comp = ComponentData.model_validate(header["components"])
        session = VillageSession(setup, comp, events, redo,
                                 draw_mode=prefs.get("draw_mode", "app"),
                                 karla_policy=prefs.get("karla_policy", "ask"))
        return Replayed(session.state.phase == "finished", village_summary(session))
    except (RuleError, ValidationError, KeyError, TypeError, ValueError, AttributeError,
            IndexError, RecursionError) as exc:
        return ImportProblem("not_replayable", _words(exc))


def _tally_replay(game: str, header: JsonObject, events: list[JsonObject],
                  redo: list[JsonObject]) -> ImportProblem | Replayed:
    if header.get("kind") != HEADER_KIND:
        return ImportProblem("not_replayable", f"kind {header.get('kind')!r}")
    if header.get("schema") != HEADER_SCHEMA:
        return ImportProblem("not_replayable", f"schema {header.get('schema')!r}")
    try:
        setup = TallySetup.model_validate(header["setup"])
        if setup.game != game:
            return ImportProblem("not_replayable", f"setup game {setup.game!r}")
        session = TallySession(rules_for(setup.game), setup, events, redo)
        return Replayed(session.finished, session_summary(session))
    except (EditRejected, ValidationError, KeyError, TypeError, ValueError,
            AttributeError, IndexError, RecursionError) as exc:
        return ImportProblem("not_replayable", _words(exc))
