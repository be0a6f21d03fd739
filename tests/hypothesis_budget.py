"""Example counts sized from the loaded hypothesis profile (see tests/conftest.py).

A test whose examples are expensive asks for a share of the profile's max_examples; an
environment variable, when set, overrides the count (a quick way to run one file longer).

LONG is the size of the long derandomized runs (the examples the "ci" profile made on every
run before it became random): a property test keeps one at full size as its `slow` twin,
with DERANDOMIZED settings, so `VILLAGE_SLOW=1 pytest -m slow` replays the same examples.
"""

from __future__ import annotations

import os

from hypothesis import settings

LONG = 1000
DERANDOMIZED = settings(derandomize=True, database=None)


def examples(share: float = 1.0, *, env: str | None = None, minimum: int = 1) -> int:
    """`share` of the loaded profile's max_examples (at least `minimum`), or the integer
    in the environment variable `env` when it is set."""
    if env is not None and os.environ.get(env):
        return max(minimum, int(os.environ[env]))
    return max(minimum, int(settings().max_examples * share))


def long_examples(share: float = 1.0, *, minimum: int = 1) -> int:
    """`share` of LONG (at least `minimum`): the size of a derandomized `slow` twin."""
    return max(minimum, int(LONG * share))
