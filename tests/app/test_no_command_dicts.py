"""Screens send command models, never dict literals (issue 21, point 5).

An AST walk over companion/app: no dict literal there (outside the assistants, whose
tally edits are their own) names a Village command by its "type" tag, and no Village
screen builds a dict with a "type" key at all (the ASGI messages of the web layer and
the manifest's icons are not commands and live outside companion/app/village). The
scoring assistants' screens (companion/app/assistants) build the tallies' edit models in
the same way: no dict literal there has a "type" key either."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

from companion.village.commands import Command

APP = Path(__file__).resolve().parents[2] / "companion" / "app"
COMMAND_TAGS = {m.model_fields["type"].default for m in get_args(get_args(Command)[0])}


def _typed_dicts(path: Path) -> list[tuple[int, str | None]]:
    """(line, the "type" value if it is a constant string) of every dict literal with a
    "type" key in `path`."""
    out: list[tuple[int, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "type":
                tag = value.value if isinstance(value, ast.Constant) else None
                out.append((node.lineno, tag if isinstance(tag, str) else None))
    return out


def test_no_screen_sends_a_village_command_as_a_dict() -> None:
    # The assistants' edits (companion/app/assistants) are the tallies' own, not Village
    # commands, although some share a tag ("adjust", "set").
    found = [f"{path.relative_to(APP)}:{line} {tag}"
             for path in sorted(APP.rglob("*.py")) if "assistants" not in path.parts
             for line, tag in _typed_dicts(path) if tag in COMMAND_TAGS]
    assert not found, "build the command model instead: " + ", ".join(found)


def test_village_screens_build_no_typed_dict_at_all() -> None:
    found = [f"{path.relative_to(APP)}:{line}"
             for path in sorted((APP / "village").rglob("*.py"))
             for line, _ in _typed_dicts(path)]
    assert not found, "build the command (or outcome) model instead: " + ", ".join(found)


ASSISTANTS = APP / "assistants"


def test_assistant_screens_build_edit_models_not_dicts() -> None:
    found = [f"{path.relative_to(APP)}:{line} {tag}"
             for path in sorted(ASSISTANTS.rglob("*.py"))
             for line, tag in _typed_dicts(path)]
    assert not found, "build the tally's edit model instead: " + ", ".join(found)


def test_the_assistants_walk_covers_their_screens() -> None:
    """The check reads the screens that send edits (a moved folder would empty it)."""
    names = {path.name for path in ASSISTANTS.rglob("*.py")}
    assert {"small_city.py", "small_city_round.py", "feudum.py", "villagers.py", "play.py",
            "players.py", "controller.py"} <= names


def test_the_walk_finds_a_command_dict(tmp_path: Path) -> None:
    """The check itself: a dict literal naming a command is found."""
    probe = tmp_path / "probe.py"
    probe.write_text('CMD = {"type": "end_turn"}\nX = {"a": {"type": t}}\n', encoding="utf-8")
    assert _typed_dicts(probe) == [(1, "end_turn"), (2, None)]
