"""The house's one import contract: which package may import which.

Layers, from the ground up (an import runs only downwards, to a strictly lower layer; two
packages of one layer do not import each other; every package and top-level module of
companion/ has its place, so a new one must be placed here):

    core                          the ground: errors, event log, JSON types
    store, bundled, games         storage, bundled files, the registry of games (data
                                  only: dotted paths, keys)
    i18n, scoring                 words; the score sheet every game fills
    village, tally                the engines (Village; the scoring assistants' core)
    small_city, feudum, villagers the scoring assistants' games, on tally
    history, share                finished games; table mode's invitations and members
    web                           the web server's ASGI layers (no Flet, never the app)
    app                           the Flet app
    bench                         benchmarks: tools, not the product
    cli                           the command line
    __main__                      `python -m companion`

No two modules import each other in a circle (imports inside functions and under
TYPE_CHECKING count: they tie the files together all the same).

Within the layers:
- The app reads a Village game only through `companion.village.read` (and the command,
  state and session modules), never `companion.village.rules.*` (nor the queries behind
  it, `companion.village.queries`); it uses the scoring
  assistants' sessions only through `companion.tally.api`.
- No domain package (the tally core included) imports the UI or a storage library; a
  `service.py` binds the domain to the store through the store's interface only.
- Only the app and the benchmarks import Flet.
- The Village rules import at module level only (issue 11), and both session kinds build
  on the shared core.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("store", "bundled", "games"),
    ("i18n", "scoring"),
    ("village", "tally"),
    ("small_city", "feudum", "villagers"),
    ("history", "share"),
    ("web",),
    ("app",),
    ("bench",),
    ("cli",),
    ("__main__",),
)
LAYER_OF = {name: level for level, names in enumerate(LAYERS) for name in names}
DOMAIN = ["core", "village", "tally", "small_city", "feudum", "villagers", "scoring"]
UI_OR_STORAGE = ("flet", "flet_charts", "flet_web", "tinydb", "companion.app")
STORE_INTERFACE = "companion.store.base"
FLET = ("flet", "flet_charts", "flet_web")
FLET_USERS = ("app", "bench")


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at any depth (also inside functions)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            # `from companion.village import rules` names the subpackage in the alias
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def _matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


# ---- the graph --------------------------------------------------------------------------

def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under `root` (a `companion` folder)."""
    found: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def module_imports(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of `root` it imports, at any depth: `import a.b` is `a.b`;
    `from a import b` is `a.b` where that is a module of its own, else `a`."""
    known = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    if sub in known:
                        targets.add(sub)
                    elif node.module in known:
                        targets.add(node.module)
        targets.discard(name)
        graph[name] = targets
    return graph


def package_of(module: str) -> str:
    """`companion.app.kit.basics` -> `app`; a top-level module is its own package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def layer_violations(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import that does not run to a strictly lower layer, as "a -> b (why)"."""
    bad = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            src, dst = package_of(source), package_of(target)
            if src == dst or src == "companion" or dst == "companion":
                continue
            if src not in LAYER_OF or dst not in LAYER_OF:
                bad.append(f"{source} -> {target} (a package with no layer: place it)")
            elif LAYER_OF[dst] >= LAYER_OF[src]:
                way = "up" if LAYER_OF[dst] > LAYER_OF[src] else "sideways"
                bad.append(f"{source} -> {target} ({src} imports {dst}: {way})")
    return bad


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The circles of the graph: its strongly connected parts of two or more nodes
    (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def package_graph(graph: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for source, targets in graph.items():
        src = package_of(source)
        packages.setdefault(src, set()).update(
            package_of(t) for t in targets if package_of(t) != src)
    return packages


# ---- the layers and the circles ------------------------------------------------------------

def test_every_package_has_a_layer() -> None:
    packages = {package_of(m) for m in modules(ROOT)} - {"companion"}
    assert sorted(packages - set(LAYER_OF)) == []
    assert sorted(set(LAYER_OF) - packages) == []  # no layer names a package that is gone


def test_imports_run_only_down_the_layers() -> None:
    assert layer_violations(module_imports(ROOT)) == []


def test_no_circle_between_packages_or_modules() -> None:
    graph = module_imports(ROOT)
    assert len(graph) > 200
    assert cycles(package_graph(graph)) == []
    assert cycles(graph) == []


def _plant(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / "companion" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in [p for p in (root / "companion").rglob("*") if p.is_dir()]:
        (folder / "__init__.py").touch()
    (root / "companion" / "__init__.py").touch()
    return root / "companion"


def test_the_checker_catches_a_planted_upward_import_and_circle(tmp_path: Path) -> None:
    root = _plant(tmp_path, {
        "store/base.py": "def f():\n    from companion.app.context import AppContext\n",
        "app/context.py": "from companion.store import base\n",
        "web/asgi.py": "from companion.share import registry\n",
        "share/registry.py": "import companion.core.errors\n",
        "core/errors.py": "from companion.web.asgi import html_lang\n",
        "village/state.py": "from companion.tally import session\n",
        "tally/session.py": "",
        "newpkg/x.py": "from companion.core import errors\n",
    })
    graph = module_imports(root)
    assert graph["companion.store.base"] == {"companion.app.context"}
    assert layer_violations(graph) == [
        "companion.core.errors -> companion.web.asgi (core imports web: up)",
        "companion.newpkg.x -> companion.core.errors (a package with no layer: place it)",
        "companion.store.base -> companion.app.context (store imports app: up)",
        "companion.village.state -> companion.tally.session (village imports tally: sideways)",
    ]
    assert cycles(graph) == [["companion.app.context", "companion.store.base"],
                             ["companion.core.errors", "companion.share.registry",
                              "companion.web.asgi"]]
    assert cycles(package_graph(graph)) == [["app", "store"], ["core", "share", "web"]]


# ---- within the layers ---------------------------------------------------------------------

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


@pytest.mark.parametrize("package", sorted(set(LAYER_OF) - set(FLET_USERS)))
def test_only_the_app_and_the_benchmarks_import_flet(package: str) -> None:
    paths = (list((ROOT / package).rglob("*.py")) if (ROOT / package).is_dir()
             else [ROOT / f"{package}.py"])
    assert paths and all(p.is_file() for p in paths)
    found = {str(p.relative_to(ROOT)): sorted(n for n in _imports(p) if _matches(n, FLET))
             for p in paths}
    assert {k: v for k, v in found.items() if v} == {}


# Imports inside functions in the Village rules hide import cycles (issue 11). None is
# left; an unavoidable one goes here as ("module.py", "imported.module"), with its reason.
RULES_LOCAL_IMPORTS_ALLOWED: frozenset[tuple[str, str]] = frozenset()


def test_village_rules_import_at_module_level_only() -> None:
    found = set()
    for path in (ROOT / "village" / "rules").glob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import):
                        found |= {(path.name, a.name) for a in node.names}
                    elif isinstance(node, ast.ImportFrom):
                        found.add((path.name, node.module or "."))
    assert found <= RULES_LOCAL_IMPORTS_ALLOWED, sorted(found - RULES_LOCAL_IMPORTS_ALLOWED)


# The shared session core (errors, event log, chance seeding) sits below every game: the
# two session kinds build on it rather than keeping their own. (That core imports no game
# is the layers' test.)
CORE_USERS = {
    "village/session.py": "companion.core.log",
    "village/chance.py": "companion.core",
    "village/rules/errors.py": "companion.core.errors",
    "tally/session.py": "companion.core.log",
    "tally/chance.py": "companion.core",
    "tally/errors.py": "companion.core.errors",
}


def test_both_session_kinds_use_the_core() -> None:
    for rel, module in CORE_USERS.items():
        assert module in _imports(ROOT / rel), f"{rel} does not import {module}"
