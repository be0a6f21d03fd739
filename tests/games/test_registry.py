"""The one registry of games (companion/games, issue 21.2): every game has a name in the
four catalogues, routes the app serves, a scorer and (assistants) tally rules that load,
BoardGameGeek ids with their provenance; the registry sits below every layer; and no
other module spells out the games again."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion import games
from companion.app.routes import build_routes
from companion.app.routing import match
from companion.history.bgstats import play_data
from companion.history.records import build_record
from companion.i18n import SUPPORTED_LANGUAGES, load_catalogue
from companion.tally.registry import rules_for
from tests.history.helpers import info, solo, village

ROOT = Path(games.__file__).resolve().parents[1]  # companion/
REGISTRY = Path(games.__file__).resolve().parent


def every_name_key() -> set[str]:
    keys = set()
    for game in games.GAMES:
        keys.add(game.name_key)
        keys.update(start.name_key for start in game.starts)
        for edition in game.editions:
            keys.update((edition.label_key, edition.record_name_key))
    return keys


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_game_has_a_name_in_every_catalogue(lang: str) -> None:
    catalogue = load_catalogue(lang)  # untranslated and fuzzy entries are left out
    keys = every_name_key()
    assert len(keys) >= 8
    missing = sorted(k for k in keys if not catalogue.get(k))
    assert not missing, f"{lang} has no name for {missing}"


@pytest.mark.parametrize(("lang", "legacy", "edition_2011"), [
    ("en", "Small City", "Village (2011)"), ("de", "Small City", "Village (2011)"),
    ("ko", "스몰 시티", "빌리지 (2011)"), ("zh_Hant", "Small City", "村莊 (2011)")])
def test_names_come_from_the_catalogues(lang: str, legacy: str, edition_2011: str) -> None:
    catalogue = load_catalogue(lang)
    assert catalogue[games.name_key("small_city") or ""] == legacy
    assert catalogue[games.record_name_key("village", "2011") or ""] == edition_2011
    assert games.record_name_key("village_solo", "big-box") == games.name_key("village")


def _served(route: str) -> bool:
    routes = build_routes()
    return route in routes or any(match(p, route) is not None for p in routes)


@pytest.mark.parametrize("game", games.GAMES, ids=lambda g: g.id)
def test_every_game_has_routes_the_app_serves(game: games.Game) -> None:
    assert game.starts, f"{game.id} cannot be started from Home"
    for start in game.starts:
        assert _served(start.route), start.route
    for route in (games.play_route(game.id, "s1"), games.sheet_route(game.id, "s1"),
                  games.log_route(game.id, "s1"), games.replay_route(game.id, "s1")):
        assert route is None or _served(route), route
    for legacy in game.legacy_ids:  # an older game opens where its game's games open
        assert games.play_route(legacy, "s1") == games.play_route(game.id, "s1")


@pytest.mark.parametrize("game", games.GAMES, ids=lambda g: g.id)
def test_every_game_scores_and_every_assistant_has_rules(game: games.Game) -> None:
    assert callable(games.load(game.scorer))
    if game.tally_rules is not None:
        assert games.load(game.tally_rules) is rules_for(game.id)
        assert all(rules_for(legacy) is rules_for(game.id) for legacy in game.legacy_ids)
        assert game.setup_screen and game.play_screen  # the assistant's two screens


def test_ids_are_unique_and_legacy_ids_name_their_game() -> None:
    every = [i for game in games.GAMES for i in game.ids]
    assert len(every) == len(set(every))
    assert games.GAME_IDS == ("village", "small-city", "feudum", "villagers")
    assert games.canonical_id("village_solo") == games.canonical_id("village-solo") == "village"
    assert games.canonical_id("small_city") == "small-city"
    assert games.canonical_id("from-a-newer-app") == "from-a-newer-app"
    assert games.name_key("from-a-newer-app") is None


def test_boardgamegeek_ids_keep_their_provenance_and_big_box_stays_unsent() -> None:
    ids = games.bgg_ids()
    for game in games.GAMES:
        keys = {games.bgg_key(game.id, None)} | {e.bgg_key for e in game.editions}
        for key in keys:
            entry = ids[key]
            assert entry.provenance and entry.ref and entry.status in (
                "confirmed", "estimate", "unknown")
            assert entry.status == "confirmed" or entry.bgg_id is None or \
                entry.status == "estimate"
    assert ids["village/big-box"].status == "estimate"
    assert ids["village/2011"].bgg_id == 104006
    big_box = build_record(info("bb", village({"Ann": 40, "Bo": 30})))
    sent = play_data(big_box)["game"]
    assert sent["sourceGameId"] == "village-big-box" and "bggId" not in sent
    legacy_solo = build_record(info("ls", solo("Zoë", 55, "traveller", day="2024-05-03"),
                                    game="village_solo"))
    assert legacy_solo.game == "village"
    assert play_data(legacy_solo)["game"]["sourceGameId"] == "village-big-box"
    edition_2011 = build_record(info("e", village({"Ann": 40, "Bo": 30}, edition="2011")))
    assert play_data(edition_2011)["game"]["bggId"] == 104006


# ---- the registry sits below every layer -----------------------------------------------


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_registry_imports_neither_flet_nor_any_other_part_of_the_app() -> None:
    for path in REGISTRY.rglob("*.py"):
        bad = {n for n in _imports(path) if n.split(".")[0] in ("flet", "companion")}
        assert not bad, f"{path.name} imports {sorted(bad)}"


# ---- the registry is the only list -----------------------------------------------------

#: Every spelling of a game: ids, legacy ids and name keys -> the game's id.
SPELLINGS = {i: g.id for g in games.GAMES for i in g.ids} | {
    g.name_key: g.id for g in games.GAMES} | {
    s.name_key: g.id for g in games.GAMES for s in g.starts} | {
    s.route: g.id for g in games.GAMES for s in g.starts}


IDS = {i for g in games.GAMES for i in g.ids}


def _spellings(item: ast.expr | None) -> set[str]:
    """The games' spellings anywhere in one item of a collection (`NewGame("/new/…", …)`)."""
    if item is None:
        return set()
    return {n.value for n in ast.walk(item) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and n.value in SPELLINGS}


def lists_of_games(source: str) -> list[tuple[int, list[str]]]:
    """Collections in `source` (tuple, list, set, dict literals) naming two games or more
    by id, legacy id, name key or start route, or one game by two of its ids (a list of
    legacy ids): another list of the games."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            items: list[ast.expr | None] = [*node.keys, *node.values]
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = list(node.elts)
        else:
            continue
        named = sorted(set().union(*map(_spellings, items)) if items else set())
        if len({SPELLINGS[n] for n in named}) >= 2 or len(IDS.intersection(named)) >= 2:
            found.append((node.lineno, named))
    return found


def test_no_module_but_the_registry_lists_the_games() -> None:
    checked, found = 0, {}
    for path in ROOT.rglob("*.py"):
        if REGISTRY in path.parents:
            continue
        checked += 1
        lists = lists_of_games(path.read_text(encoding="utf-8"))
        if lists:
            found[str(path.relative_to(ROOT))] = lists
    assert checked > 200
    assert found == {}, f"lists of games outside companion/games: {found}"


def test_the_check_finds_a_list_of_games() -> None:
    sneaky = ('GAMES = ("village", "feudum")\n'
              'LABELS = {"small_city": "x", "villagers": "y"}\n'
              'KEYS = ["game.village", "game.feudum"]\n'
              'VILLAGE_IDS = frozenset({"village", "village-solo"})\n'
              'NEW = (New("/new/small-city", "a"), New("/new/feudum", "b"))\n'
              'ONE = ("/new/village", "game.village_solo")\n')  # one game's start: no list
    assert sorted({line for line, _ in lists_of_games(sneaky)}) == [1, 2, 3, 4, 5]


def test_the_bgg_ids_file_moved_with_the_registry() -> None:
    assert (REGISTRY / "bgg_ids.json").is_file()
    assert not (ROOT / "history" / "bgg_ids.json").exists()
