"""The README's engine example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def test_readme_python_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README must show a Python example"
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "colour - " in out and "events;" in out
