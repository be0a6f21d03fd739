"""Suite-wide switches.

Long soaks and the 10,000-input fuzz runs are marked `slow` and skipped unless asked for
(`VILLAGE_SLOW=1 pytest -m slow`), so CI stays far under its time limit; CI runs their short
versions, which are ordinary tests.

Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default "dev", or "soak" when
VILLAGE_SLOW=1); tests size themselves from the profile with
tests.hypothesis_budget.examples:

- "dev": a quick local run;
- "ci": what .ci/run uses: derandomized (the same examples on every run, so a red CI is
  reproducible), no deadline, and the blob to reproduce a failure printed;
- "soak": many more examples, for VILLAGE_SLOW runs.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

SLOW_ENV = "VILLAGE_SLOW"
PROFILE_ENV = "HYPOTHESIS_PROFILE"

_QUIET = [HealthCheck.too_slow]
settings.register_profile("dev", max_examples=40, deadline=None, print_blob=True,
                          suppress_health_check=_QUIET)
settings.register_profile("ci", max_examples=1000, derandomize=True, database=None,
                          deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.register_profile("soak", max_examples=10_000, deadline=None, print_blob=True,
                          suppress_health_check=_QUIET)
settings.load_profile(os.environ.get(
    PROFILE_ENV, "soak" if os.environ.get(SLOW_ENV) == "1" else "dev"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(SLOW_ENV) == "1":
        return
    skip = pytest.mark.skip(reason=f"slow: set {SLOW_ENV}=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
