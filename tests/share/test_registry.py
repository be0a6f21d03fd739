"""ShareRegistry: one-time join tokens, join codes, member tokens kept only as digests."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest

from companion.share import registry as registry_module
from companion.share.registry import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    MAX_MEMBERS,
    Invitation,
    Joined,
    Refusal,
    ShareRegistry,
    normalize_code,
)


def joined(result: Joined | Refusal) -> Joined:
    assert isinstance(result, Joined), result
    return result


def test_nothing_works_before_sharing_opens() -> None:
    reg = ShareRegistry()
    assert reg.current() is None and not reg.sharing
    assert reg.join_by_token("x", "10.0.0.5") is Refusal.SHARING_OFF
    assert reg.join_by_code("ABCDEF", "10.0.0.5") is Refusal.SHARING_OFF


def test_invitation_has_a_long_token_and_a_short_unambiguous_code() -> None:
    inv = ShareRegistry().open("game-1")
    assert inv.game_id == "game-1"
    assert len(inv.join_token) >= 43  # token_urlsafe(32)
    assert len(inv.join_code) == JOIN_CODE_LENGTH
    assert set(inv.join_code) <= set(JOIN_CODE_ALPHABET)
    assert not set("01ILO") & set(JOIN_CODE_ALPHABET)


def test_join_token_works_once_and_a_fresh_one_replaces_it() -> None:
    reg = ShareRegistry()
    heard: list[Invitation | None] = []
    reg.subscribe(heard.append)
    first = reg.open("g")
    member = joined(reg.join_by_token(first.join_token, "10.0.0.5")).member
    assert member.game_id == "g" and member.address == "10.0.0.5"
    assert reg.join_by_token(first.join_token, "10.0.0.6") is Refusal.INVALID_TOKEN
    fresh = reg.current()
    assert fresh is not None and fresh.join_token != first.join_token
    assert fresh.join_code == first.join_code  # the typed code keeps working
    assert heard == [first, fresh]  # the host screen hears of the new QR token
    joined(reg.join_by_token(fresh.join_token, "10.0.0.6"))


def test_wrong_token_is_refused() -> None:
    reg = ShareRegistry()
    reg.open("g")
    assert reg.join_by_token("nope", "10.0.0.5") is Refusal.INVALID_TOKEN
    assert reg.join_by_token("ünïcode", "10.0.0.5") is Refusal.INVALID_TOKEN


def test_join_code_is_reusable_and_forgiving_about_spelling() -> None:
    reg = ShareRegistry()
    code = reg.open("g").join_code
    typed = f" {code[:3].lower()}-{code[3:]} "
    assert normalize_code(typed) == code
    a = joined(reg.join_by_code(typed, "10.0.0.5"))
    b = joined(reg.join_by_code(code, "10.0.0.6"))
    assert a.member.member_id != b.member.member_id
    assert a.member_token != b.member_token
    assert reg.join_by_code("ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY", "x") \
        is Refusal.WRONG_CODE


def test_new_invitation_replaces_the_old_code_and_token() -> None:
    reg = ShareRegistry()
    old = reg.open("g")
    kept = joined(reg.join_by_code(old.join_code, "a"))
    new = reg.open("g")
    assert reg.join_by_token(old.join_token, "b") is Refusal.INVALID_TOKEN
    if new.join_code != old.join_code:
        assert reg.join_by_code(old.join_code, "b") is Refusal.WRONG_CODE
    assert reg.member_for(kept.member_token) == kept.member  # members stay


def test_member_tokens_are_kept_only_as_digests() -> None:
    reg = ShareRegistry()
    result = joined(reg.join_by_code(reg.open("g").join_code, "a"))
    stored = repr(vars(reg))
    assert result.member_token not in stored
    assert hashlib.sha256(result.member_token.encode()).hexdigest() not in stored
    assert hashlib.sha256(result.member_token.encode()).digest() in reg._by_digest
    assert result.member.member_id in stored  # not secret
    assert reg.member_for(result.member_token) == result.member
    assert reg.member_for(result.member_token + "x") is None
    assert reg.member_for("") is None


def test_lookup_compares_digests_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    reg = ShareRegistry()
    result = joined(reg.join_by_code(reg.open("g").join_code, "a"))
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def counting(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(registry_module.hmac, "compare_digest", counting)
    assert reg.member_for(result.member_token) == result.member
    digest = hashlib.sha256(result.member_token.encode()).digest()
    assert calls == [(digest, digest)]  # digests compared, never the raw token
    calls.clear()
    reg.join_by_token("guess", "a")
    reg.join_by_code("AAAAAA", "a")
    assert len(calls) == 2  # join token and code too


def test_seat_watch_only_remove() -> None:
    reg = ShareRegistry()
    reg.open("g")
    code = reg.current().join_code  # type: ignore[union-attr]
    a = joined(reg.join_by_code(code, "a"))
    b = joined(reg.join_by_code(code, "b"))
    mid = a.member.member_id
    assert reg.choose_seat(mid, 2) is not None
    assert reg.member(mid).seat == 2  # type: ignore[union-attr]
    assert reg.set_watch_only(mid, True).watch_only  # type: ignore[union-attr]
    assert reg.member_for(a.member_token).seat == 2  # type: ignore[union-attr]
    assert reg.choose_seat(mid, None).seat is None  # type: ignore[union-attr]
    assert [m.member_id for m in reg.members("g")] == [mid, b.member.member_id]
    assert reg.members("other") == []
    assert reg.remove(mid) is True
    assert reg.member_for(a.member_token) is None
    assert reg.remove(mid) is False
    assert reg.choose_seat(mid, 1) is None and reg.set_watch_only(mid, True) is None
    assert reg.member_for(b.member_token) is not None


def test_close_invalidates_everything_and_returns_the_members() -> None:
    reg = ShareRegistry()
    heard: list[Invitation | None] = []
    inv = reg.open("g")
    a = joined(reg.join_by_code(inv.join_code, "a"))
    b = joined(reg.join_by_token(inv.join_token, "b"))
    unsubscribe = reg.subscribe(heard.append)
    assert sorted(reg.close()) == sorted([a.member.member_id, b.member.member_id])
    assert heard == [None]
    assert reg.current() is None
    assert reg.member_for(a.member_token) is None and reg.member_for(b.member_token) is None
    assert reg.join_by_code(inv.join_code, "c") is Refusal.SHARING_OFF
    unsubscribe()
    reg.open("g")
    assert heard == [None]


def test_member_cap() -> None:
    reg = ShareRegistry()
    inv = reg.open("g")
    for i in range(MAX_MEMBERS):
        joined(reg.join_by_code(inv.join_code, str(i)))
    assert reg.join_by_code(inv.join_code, "x") is Refusal.FULL
    current = reg.current()
    assert current is not None
    assert reg.join_by_token(current.join_token, "x") is Refusal.FULL
