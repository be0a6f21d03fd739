"""How a benchmark's command prints: its figures as a table (or JSON with --json), the
time the whole run took, and a bad option or a missing browser as one line and exit 2."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

Figures = dict[str, Any]


def run_and_print(flag: str, measure: Callable[[], Figures],
                  lines: Callable[[Figures], list[str]], as_json: bool) -> int:
    """`village-companion bench --<flag>`: run `measure`, then print `lines` of its figures
    (or the figures as JSON) with `bench_seconds`; 2 when it refuses its options."""
    t0 = time.perf_counter()
    try:
        figs = measure()
    except (ValueError, FileNotFoundError) as exc:  # a bad count, no chromium
        print(f"bench --{flag}: {exc}", file=sys.stderr)
        return 2
    figs["bench_seconds"] = round(time.perf_counter() - t0, 1)
    if as_json:
        print(json.dumps(figs, indent=2))
    else:
        print("\n".join(lines(figs)))
        print(f"(bench took {figs['bench_seconds']} s)", file=sys.stderr)
    return 0
