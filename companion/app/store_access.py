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
from concurrent.futures import ThreadPoolExecutor
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

    def close(self) -> None:
        self._executor.shutdown(wait=True)


def open_store(data_dir: str | None) -> SessionStore:
    """Open the durable store for this process (called once, before serving)."""
    from companion.store.paths import resolve_data_dir
    from companion.store.tinydb_store import TinyDBStore

    path = resolve_data_dir(data_dir)
    logger.info("session store at %s", path)
    return TinyDBStore(path)
