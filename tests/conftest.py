"""Suite-wide switches.

Long soaks and the 10,000-input fuzz runs are marked `slow` and skipped unless asked for
(`VILLAGE_SLOW=1 pytest -m slow`), so CI stays far under its time limit; CI runs their short
versions, which are ordinary tests.
"""

from __future__ import annotations

import os

import pytest

SLOW_ENV = "VILLAGE_SLOW"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(SLOW_ENV) == "1":
        return
    skip = pytest.mark.skip(reason=f"slow: set {SLOW_ENV}=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
