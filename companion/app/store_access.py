"""The one store per process, and a way to call it without blocking the event loop.

Flet runs every client's handlers on one asyncio loop, so a slow disk read in a handler
freezes all connected tables. All store calls go through `AsyncStore.run`, which executes
them on a single worker thread: off the loop, and serialised so a store implementation
never sees two calls at once from this app.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from companion.store.base import SessionStore

logger = logging.getLogger(__name__)

T = TypeVar("T")


class AsyncStore:
    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    async def run(self, work: Callable[[SessionStore], T]) -> T:
        """`await astore.run(lambda s: s.list_sessions())` — runs on the store thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, work, self.store)

    def submit(self, work: Callable[[SessionStore], T]) -> Future[T]:
        """Queue `work` on the store thread without waiting (no event loop needed): work
        at server start, ahead of the first client's reads."""
        return self._executor.submit(work, self.store)

    def close(self) -> None:
        self._executor.shutdown(wait=True)


def open_store(data_dir: str | None) -> SessionStore:
    """Open the durable store for this process (called once, before serving)."""
    from companion.store.paths import resolve_data_dir
    from companion.store.tinydb_store import TinyDBStore

    path = resolve_data_dir(data_dir)
    logger.info("session store at %s", path)
    return TinyDBStore(path)


def warm_history(store: SessionStore, *, freeze: bool = False) -> int:
    """Store thread, at server start: build the history cache (every finished game's
    record and the unfinished list Home shows), so the first Home or History load finds
    it ready instead of listing every game. Returns the finished games found; a failure
    is logged, never raised (the first load then reads the store itself).

    With `freeze` (the server, at start), the objects alive then (modules, the cache's
    records: 230,000 objects at 10,000 games) are collected once and frozen out of the
    garbage collector (gc.freeze): otherwise the next full collection, which the first client's page
    triggers, walks them all while holding the interpreter (measured: +220 ms on the
    first Home load at 10,000 games, about 130 ms for each later full collection).
    Records are freed by reference counting when a rebuild replaces them (they hold no
    reference cycles), frozen or not."""
    import gc
    import time

    from companion.history.cache import history_cache

    started = time.perf_counter()
    try:
        count = len(history_cache(store).records(store))
    except Exception:
        logger.exception("warming the history cache failed")
        return 0
    if freeze:
        gc.collect()
        gc.freeze()
    logger.info("history cache warmed: %d finished games in %.0f ms", count,
                (time.perf_counter() - started) * 1000)
    return count
