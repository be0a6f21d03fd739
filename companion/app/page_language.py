"""The app's language setting for the web page (`web.connection_banner.ConnectionBanner`),
read from the store at each page request."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from typing import Any

from starlette.types import Scope

from companion.app.settings import AppSettings, load_settings
from companion.app.store_access import AsyncStore
from companion.web.asgi import first_header
from companion.web.share_guard import member_id_from_user_agent

logger = logging.getLogger(__name__)


class StoreLanguage:
    """The app's language setting for ConnectionBanner, read on the store thread at each
    page request. It waits at most `wait_s` (the store thread may be busy, e.g. warming the
    history at start) and then uses the last value it read. A phone that joined a shared
    table (its User-Agent carries the share guard's member tag) follows its own browser,
    as the app does."""

    def __init__(self, store: AsyncStore, wait_s: float = 0.5) -> None:
        self.store = store
        self.wait_s = wait_s
        self.known: str | None = None

    def prime(self) -> None:
        """Queue a first read now (at server start, ahead of other store work)."""
        self.store.submit(load_settings).add_done_callback(self._remember)

    def _remember(self, future: Future[AppSettings] | asyncio.Future[AppSettings]) -> None:
        if not future.cancelled() and future.exception() is None:
            self.known = future.result().language

    async def __call__(self, scope: Scope) -> str | None:
        if member_id_from_user_agent(first_header(scope, b"user-agent")) is not None:
            return None
        task: asyncio.Future[Any] = asyncio.ensure_future(self.store.run(load_settings))
        task.add_done_callback(self._remember)
        try:
            await asyncio.wait_for(asyncio.shield(task), self.wait_s)
        except TimeoutError:
            logger.info("language setting not read within %.1f s; using %r", self.wait_s,
                        self.known)
        except Exception as exc:
            logger.warning("language setting unreadable: %s", exc)
        return self.known
