"""The layers as the README draws them: core -> games -> service -> store/app.

- The app reads a Village game only through `companion.village.read` (and the command,
  state and session modules), never `companion.village.rules.*` (nor the
  queries behind it, `companion.village.queries`); it uses the scoring
  assistants' sessions only through `companion.tally.api`.
- No domain package (the tally core included) imports the UI or a storage library; a
  `service.py` binds the domain to the store through the store's interface only.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "companion"
DOMAIN = ["core", "village", "tally", "small_city", "feudum", "villagers", "scoring"]
UI_OR_STORAGE = ("flet", "flet_charts", "flet_web", "tinydb", "companion.app")
STORE_INTERFACE = "companion.store.base"


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at any depth (also inside functions)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            # `from companion.village import rules` names the subpackage in the alias
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def _matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def app_violations(path: Path) -> set[str]:
    def tally_internal(name: str) -> bool:
        return (_matches(name, ("companion.tally",)) and name != "companion.tally"
                and not _matches(name, ("companion.tally.api",)))

    return {n for n in _imports(path)
            if _matches(n, ("companion.village.rules", "companion.village.queries"))
            or tally_internal(n)}


def test_app_reads_the_engines_through_their_read_api_only() -> None:
    files = sorted((ROOT / "app").rglob("*.py"))
    assert len(files) > 40
    found = {str(p.relative_to(ROOT)): app_violations(p) for p in files}
    assert {k: sorted(v) for k, v in found.items() if v} == {}


def test_the_contract_check_catches_a_rules_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from companion.village.rules import harvest\n"
                      "from companion.tally.session import TallySession\n"
                      "def f():\n    import companion.village.rules.mass\n")
    assert app_violations(sneaky) == {
        "companion.village.rules", "companion.village.rules.harvest",
        "companion.tally.session", "companion.tally.session.TallySession",
        "companion.village.rules.mass"}


def test_domain_imports_no_ui_and_no_storage_library() -> None:
    checked = 0
    for pkg in DOMAIN:
        for path in (ROOT / pkg).rglob("*.py"):
            checked += 1
            names = _imports(path)
            bad = {n for n in names if _matches(n, UI_OR_STORAGE)}
            store = {n for n in names if _matches(n, ("companion.store",))}
            if path.name == "service.py":  # binds domain and store: the interface only
                bad |= {n for n in store if not _matches(n, (STORE_INTERFACE,))}
            else:
                bad |= store
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
    assert checked > 60


GAMES = ("companion.village", "companion.tally", "companion.small_city", "companion.feudum",
         "companion.villagers", "companion.scoring")
ABOVE_THE_GAMES = ("companion.history", "companion.share", "companion.app",
                   "companion.store")


def test_layers_point_one_way() -> None:
    """core imports no game; a game imports neither the services above it nor the app."""
    core = {str(p.relative_to(ROOT)): {n for n in _imports(p) if _matches(n, GAMES)}
            for p in (ROOT / "core").rglob("*.py")}
    assert {k: sorted(v) for k, v in core.items() if v} == {}
    games: dict[str, set[str]] = {}
    for pkg in DOMAIN[1:]:
        for path in (ROOT / pkg).rglob("*.py"):
            bad = {n for n in _imports(path) if _matches(n, ABOVE_THE_GAMES)
                   and not (path.name == "service.py" and _matches(n, (STORE_INTERFACE,)))}
            if bad:
                games[str(path.relative_to(ROOT))] = bad
    assert {k: sorted(v) for k, v in games.items()} == {}
