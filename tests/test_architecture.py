"""The domain core never imports the UI or the storage library."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "companion"
DOMAIN = ["village", "small_city", "feudum", "villagers", "scoring", "core"]
FORBIDDEN = ("flet", "flet_charts", "tinydb", "companion.store", "companion.app")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_domain_modules_import_no_ui_and_no_storage() -> None:
    checked = 0
    for pkg in DOMAIN:
        for path in (ROOT / pkg).rglob("*.py"):
            if path.name == "service.py":  # the service layer binds domain and store
                continue
            checked += 1
            bad = {n for n in _imports(path) if n.split(".")[0] in FORBIDDEN
                   or n.startswith(FORBIDDEN)}
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
    assert checked > 20
