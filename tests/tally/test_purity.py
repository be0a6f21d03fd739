"""companion/tally is pure: no Flet, no TinyDB, no app; only the service touches the
store interface (and never a store implementation)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "companion"
FORBIDDEN = ("flet", "flet_charts", "tinydb", "companion.app", "companion.store.tinydb_store",
             "companion.store.memory")


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_tally_imports_nothing_impure() -> None:
    files = sorted((ROOT / "tally").glob("*.py"))
    files += [ROOT / game / "tally.py" for game in ("small_city", "feudum", "villagers")]
    for path in files:
        found = imports(path)
        bad = {n for n in found if n.split(".")[0] in FORBIDDEN or n.startswith(FORBIDDEN)}
        assert not bad, f"{path.name} imports {sorted(bad)}"
        if path.name != "service.py":
            assert not any(n.startswith("companion.store") for n in found), path
