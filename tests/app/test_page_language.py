"""StoreLanguage: the app's language setting for the web page, read from the store at
each page request (companion/app/page_language.py)."""

from __future__ import annotations

import asyncio
import threading

from companion.app.page_language import StoreLanguage
from companion.app.settings import KEY_LANGUAGE
from companion.app.store_access import AsyncStore
from companion.store.memory import MemoryStore
from companion.web.share_guard import UA_TAG


def scope(headers: list[tuple[bytes, bytes]]) -> dict[str, object]:
    return {"type": "http", "method": "GET", "path": "/", "headers": headers}


def store_with(language: str | None) -> AsyncStore:
    store = MemoryStore()
    if language is not None:
        store.set_setting(KEY_LANGUAGE, language)
    return AsyncStore(store)


def ask(source: StoreLanguage, user_agent: str = "Mozilla/5.0") -> str | None:
    return asyncio.run(source(scope(headers=[(b"user-agent", user_agent.encode())])))


def test_store_language_reads_the_setting_at_each_request() -> None:
    astore = store_with(None)
    try:
        source = StoreLanguage(astore)
        assert ask(source) is None
        astore.store.set_setting(KEY_LANGUAGE, "de")
        assert ask(source) == "de"
    finally:
        astore.close()


def test_store_language_prime_reads_at_start() -> None:
    astore = store_with("zh_Hant")
    try:
        source = StoreLanguage(astore)
        source.prime()
        astore.submit(lambda _s: None).result(timeout=5)  # the queue has run
        assert source.known == "zh_Hant"
    finally:
        astore.close()


def test_joined_phone_follows_its_own_browser() -> None:
    astore = store_with("ko")
    try:
        assert ask(StoreLanguage(astore), f"Mozilla/5.0 {UA_TAG}abc123") is None
    finally:
        astore.close()


def test_busy_store_does_not_hold_the_page() -> None:
    astore = store_with("de")
    release = threading.Event()
    try:
        source = StoreLanguage(astore, wait_s=0.05)
        source.known = "ko"  # what an earlier request read
        astore.submit(lambda _s: release.wait(5))  # e.g. the history warm-up
        assert ask(source) == "ko"
    finally:
        release.set()
        astore.close()
