"""Shared helpers for the tally tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.tally.registry import rules_for
from companion.tally.session import TallySession
from companion.tally.setup import TallySetup


def new(game: str, *names: str, seed: int = 11) -> TallySession[Any]:
    return TallySession(rules_for(game), TallySetup(game=game, players=names, seed=seed))


def cli_json(payload: dict[str, Any], tmp_path: Path,
             capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """What `village-companion score FILE --json` prints for this payload."""
    path = tmp_path / "score.json"
    path.write_text(json.dumps(payload), "utf-8")
    assert main(["score", str(path), "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out
