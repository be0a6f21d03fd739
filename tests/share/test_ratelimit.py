"""Wrong join codes: 5 per 60 s per address, then 60 s locked, whatever is typed."""

from __future__ import annotations

from companion.share.ratelimit import CodeRateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_lockout_after_five_wrong_codes() -> None:
    clock = Clock()
    limiter = CodeRateLimiter(clock)
    for _ in range(4):
        assert limiter.retry_after("10.0.0.5") is None
        assert limiter.record_failure("10.0.0.5") is None
        clock.now += 1
    assert limiter.record_failure("10.0.0.5") == 60
    assert limiter.retry_after("10.0.0.5") == 60
    assert limiter.retry_after("10.0.0.6") is None  # per address


def test_a_right_code_does_not_lift_a_lockout() -> None:
    """The guard asks retry_after before looking at the code, so during the lockout even
    the right code gets no answer but "wait"; nothing resets the lockout early."""
    clock = Clock()
    limiter = CodeRateLimiter(clock)
    for _ in range(5):
        limiter.record_failure("a")
    clock.now += 30
    assert limiter.retry_after("a") == 30
    clock.now += 29.5
    assert limiter.retry_after("a") == 0.5
    clock.now += 0.5
    assert limiter.retry_after("a") is None  # unlocked after 60 s
    assert limiter.record_failure("a") is None  # and counting afresh


def test_failures_older_than_the_window_do_not_count() -> None:
    clock = Clock()
    limiter = CodeRateLimiter(clock)
    for _ in range(4):
        limiter.record_failure("a")
    clock.now += 60
    for _ in range(4):
        assert limiter.record_failure("a") is None
    assert limiter.retry_after("a") is None
    assert limiter.record_failure("a") == 60
