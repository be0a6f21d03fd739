"""Suite-wide switches.

Long soaks, the 10,000-input fuzz runs and the long derandomized property runs are marked
`slow` and skipped unless asked for (`VILLAGE_SLOW=1 pytest -m slow`), so CI stays far
under its time limit; CI runs a shorter randomized run of each, which is an ordinary test.

Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default "dev", or "soak" when
VILLAGE_SLOW=1); tests size themselves from the profile with
tests.hypothesis_budget.examples:

- "dev": a quick local run;
- "ci": what .ci/run uses: random, so every CI run tries examples no run tried before.
  The run's seed is drawn once, printed in the header and again under a failure, and
  handed to hypothesis as `--hypothesis-seed`: `pytest --hypothesis-seed=<seed> <test>`
  with HYPOTHESIS_PROFILE=ci replays the very same examples (print_blob also prints a
  failure's `@reproduce_failure` blob). No deadline, no example database;
- "soak": many more examples, for VILLAGE_SLOW runs.

The long runs the "ci" profile used to make on every run (1,000 multi-player games and
250 solo games per Karla variant/policy, the same ones every time) are kept, derandomized
and at their full size, as `slow` tests (tests.hypothesis_budget.LONG).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, settings

SLOW_ENV = "VILLAGE_SLOW"
PROFILE_ENV = "HYPOTHESIS_PROFILE"
SEED_OPTION = "hypothesis_seed"  # dest of hypothesis' own --hypothesis-seed option
RANDOM_PROFILES = ("ci",)
SEED_ENV = "VILLAGE_HYPOTHESIS_SEED"  # the run's seed, handed to xdist workers

_QUIET = [HealthCheck.too_slow]
settings.register_profile("dev", max_examples=40, deadline=None, print_blob=True,
                          suppress_health_check=_QUIET)
settings.register_profile("ci", max_examples=200, derandomize=False, database=None,
                          deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.register_profile("soak", max_examples=10_000, deadline=None, print_blob=True,
                          suppress_health_check=_QUIET)
settings.load_profile(os.environ.get(
    PROFILE_ENV, "soak" if os.environ.get(SLOW_ENV) == "1" else "dev"))

_seed: str | None = None
_profile: str | None = None


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Under a random profile, draw the run's seed unless one was given, before
    hypothesis' plugin reads --hypothesis-seed (this hook runs first)."""
    global _seed, _profile
    _profile = settings.get_current_profile_name()
    if _profile not in RANDOM_PROFILES:
        return
    given = getattr(config.option, SEED_OPTION, None)
    if given is None:
        # pytest-xdist workers configure themselves after the controller: they inherit its
        # seed through the environment, so the one printed seed replays every worker.
        given = os.environ.get(SEED_ENV) or str(random.SystemRandom().randrange(2**32))
        setattr(config.option, SEED_OPTION, given)
    _seed = str(given)
    os.environ[SEED_ENV] = _seed


def _replay_line() -> str:
    return (f"hypothesis seed {_seed}: the same examples again with HYPOTHESIS_PROFILE="
            f"{_profile} pytest --hypothesis-seed={_seed} ...")


def pytest_report_header(config: pytest.Config) -> str | None:
    return _replay_line() if _seed is not None else None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    # Also under -q (which drops the header), and last, beside any failure.
    if _seed is not None:
        terminalreporter.write_line(_replay_line())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(SLOW_ENV) == "1":
        return
    skip = pytest.mark.skip(reason=f"slow: set {SLOW_ENV}=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
