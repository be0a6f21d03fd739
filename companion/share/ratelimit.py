"""Wrong join codes per client address: at most 5 in 60 s, then 60 s locked out.

API: `CodeRateLimiter(clock=time.monotonic)`;
`retry_after(address) -> float | None` (seconds left of a lockout, None when the address may
try) — ask before checking a code, so that during a lockout even the right code is refused
(a guesser cannot tell a right guess by the answer); `record_failure(address) -> float |
None` after a wrong code (the lockout it started, if any).

A 6-character code from a 31-letter alphabet has ~8.9e8 values; at 5 tries a minute one
address needs centuries on average. The clock is injectable for tests.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

MAX_FAILURES = 5
WINDOW_S = 60.0
LOCKOUT_S = 60.0
# Addresses remembered at once; the least recently failed are forgotten first, so a flood
# of spoofed-looking addresses cannot grow memory without bound.
MAX_ADDRESSES = 4096


class CodeRateLimiter:
    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 max_failures: int = MAX_FAILURES, window_s: float = WINDOW_S,
                 lockout_s: float = LOCKOUT_S) -> None:
        self._clock = clock
        self._max_failures = max_failures
        self._window_s = window_s
        self._lockout_s = lockout_s
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}  # address -> times of wrong codes
        self._locked_until: dict[str, float] = {}

    def retry_after(self, address: str) -> float | None:
        """Seconds until `address` may try a code again; None when it may try now."""
        now = self._clock()
        with self._lock:
            until = self._locked_until.get(address)
            if until is None:
                return None
            if now >= until:
                del self._locked_until[address]
                self._failures.pop(address, None)  # a fresh start after the lockout
                return None
            return until - now

    def record_failure(self, address: str) -> float | None:
        """Count a wrong code; returns the lockout's length when this one started it."""
        now = self._clock()
        with self._lock:
            times = self._failures.pop(address, None) or deque()
            self._failures[address] = times  # re-inserted: most recent last
            while times and now - times[0] >= self._window_s:
                times.popleft()
            times.append(now)
            if len(times) >= self._max_failures:
                self._locked_until[address] = now + self._lockout_s
                times.clear()
                return self._lockout_s
            while len(self._failures) > MAX_ADDRESSES:
                oldest = next(iter(self._failures))
                del self._failures[oldest]
            return None
