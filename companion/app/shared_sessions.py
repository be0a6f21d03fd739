"""Sessions open in this process, shared by every client showing them (Village games and
the scoring assistants alike).

Two phones on the same game see one in-memory session: a change from either is applied
once, saved once, and every subscribed screen re-renders. Loading runs on the store's
worker thread; listeners run on the event loop.

A session nobody listens to any more is released from memory `grace` seconds after its
last subscriber left (or a handle was made for it and never subscribed); the next open
loads it from the store again. Why this is safe:

- Every change is saved before it is confirmed, and all loading and saving runs on the
  store's single worker thread, so a load queued after a change always sees it.
- The open sessions, their listeners and the release all change under one lock; a
  session is released only while it has no listener.
- A screen that kept a handle and comes back (`subscribe`) gets the session the hub holds
  now. If the hub holds none, its own copy is taken back in when no newer copy was loaded
  in the meantime (the generation); otherwise `subscribe` returns False and the screen
  opens the session again from the store.
- A copy that another window or process overtook (the store refused its save: StaleWrite)
  is replaced by `reload`: a fresh copy from the store, shared as a newer generation. Its
  listeners move to the new copy, and handles on the old one follow `replaced_by`, so
  every screen showing the game re-renders from the stored game.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from companion.core.errors import EngineFault, Refused
from companion.store.base import ReadOnlyStore, SessionStore, StaleWrite

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

S = TypeVar("S")
R = TypeVar("R")
Listener = Callable[[], None]
RELEASE_GRACE_S = 30.0  # long enough for table <-> panel <-> Home moves to keep it loaded


@dataclass(eq=False)
class OpenShared(Generic[S]):
    session_id: str
    session: S
    listeners: list[Listener] = field(default_factory=list)
    generation: int = 0  # which load of this session (a newer load supersedes it)
    released: bool = False
    hub: SharedSessions[S] | None = field(default=None, repr=False)  # who holds it
    # The copy `reload` shared in this one's place (its listeners moved there).
    replaced_by: OpenShared[S] | None = field(default=None, repr=False)

    def latest(self) -> OpenShared[S]:
        """This copy, or the one that replaced it (following every reload since)."""
        current = self
        while current.replaced_by is not None:
            current = current.replaced_by
        return current

    def notify(self, but: Listener | None = None) -> None:
        for listener in list(self.listeners):
            if listener is but:
                continue
            try:
                listener()
            except Exception:  # a client that went away must not break the others
                logger.exception("a session listener failed")


class SharedSessions(Generic[S]):
    """The open sessions of one kind, loaded by `load(store, session_id)`."""

    def __init__(self, load: Callable[[SessionStore, str], S], *,
                 grace: float = RELEASE_GRACE_S) -> None:
        self._load = load
        self.grace = grace  # seconds a session stays loaded without listeners; 0: none
        self._lock = threading.Lock()
        self._open: dict[str, OpenShared[S]] = {}
        self._generation: dict[str, int] = {}

    def get(self, session_id: str) -> OpenShared[S] | None:
        with self._lock:
            return self._open.get(session_id)

    def open(self, store: SessionStore, session_id: str) -> OpenShared[S]:
        """Store thread: load the session once, then share it. (Loading runs outside the
        lock; if another thread shared the game meanwhile, that copy wins.)"""
        existing = self.get(session_id)
        if existing is not None:
            return existing
        session = self._load(store, session_id)
        with self._lock:
            return self._open.get(session_id) or self._share(session_id, session)

    def adopt(self, session_id: str, session: S) -> OpenShared[S]:
        """Share a session this process just created (it replaces any older copy)."""
        with self._lock:
            return self._share(session_id, session)

    def reload(self, store: SessionStore, stale: OpenShared[S]) -> OpenShared[S]:
        """Store thread: the stored game overtook `stale` (another window or process saved
        to it): load it again and share the fresh copy as a newer generation. Everyone
        listening to the copy it replaces moves to it; handles on `stale` follow its
        `replaced_by`. Call `notify()` on the result (on the event loop) to re-render.
        If loading fails, nothing changes and the error is raised."""
        session = self._load(store, stale.session_id)
        with self._lock:
            replaced = [stale.latest()]
            current = self._open.get(stale.session_id)
            if current is not None and current is not replaced[0]:
                replaced.append(current)
            opened = self._share(stale.session_id, session)
            for old in replaced:
                for listener in old.listeners:
                    if listener not in opened.listeners:
                        opened.listeners.append(listener)
                old.listeners = []
                old.released = True
                old.replaced_by = opened
        return opened

    def _share(self, session_id: str, session: S) -> OpenShared[S]:
        """Under the lock: `session` becomes the game's copy, a newer generation."""
        generation = self._generation.get(session_id, 0) + 1
        self._generation[session_id] = generation
        opened = OpenShared(session_id, session, generation=generation, hub=self)
        superseded = self._open.get(session_id)
        if superseded is not None:
            superseded.released = True
        self._open[session_id] = opened
        return opened

    def forget(self, session_id: str) -> None:
        with self._lock:
            gone = self._open.pop(session_id, None)
            if gone is not None:
                gone.released = True

    # ---- listening, and releasing what nobody listens to ---------------------------------
    def attach(self, opened: OpenShared[S], listener: Listener) -> OpenShared[S] | None:
        """Add `listener` to the session the hub holds for `opened`'s game and return it;
        None when that game must be opened again from the store."""
        opened = opened.latest()
        with self._lock:
            current = self._open.get(opened.session_id)
            if current is None and opened.generation == self._generation.get(
                    opened.session_id):
                opened.released = False  # released, and nothing newer was loaded since
                self._open[opened.session_id] = current = opened
            if current is None:
                return None
            current.listeners.append(listener)
            return current

    def detach(self, opened: OpenShared[S], listener: Listener) -> None:
        opened = opened.latest()
        with self._lock:
            if listener in opened.listeners:
                opened.listeners.remove(listener)
        self.release_later(opened)

    def release_later(self, opened: OpenShared[S]) -> None:
        """Release `opened` after the grace period if nobody listens to it by then (at
        once with a zero grace, or when no event loop runs here)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if self.grace <= 0 or loop is None:
            self.release_if_idle(opened)
        else:
            loop.call_later(self.grace, self.release_if_idle, opened)

    def release_if_idle(self, opened: OpenShared[S]) -> bool:
        """Drop `opened` from memory if it has no listener; True if it was released."""
        with self._lock:
            if opened.listeners or self._open.get(opened.session_id) is not opened:
                return False
            del self._open[opened.session_id]
            opened.released = True
        logger.info("released session %s from memory", opened.session_id)
        return True


@dataclass(frozen=True)
class Ran(Generic[R]):
    """What `SharedHandle.run` came to: `done` (saved, confirmed, every client told) with
    the work's `result`; or not done, with the rules' `refusal` when they refused."""

    done: bool
    result: R | None = None
    refusal: Refused | None = None


class SharedHandle(Generic[S]):
    """One screen's handle on a shared session: reading it, hearing of its changes and
    acting on it (`run`: off the event loop, saved before it is confirmed). Subclasses
    (the Village and tally controllers) say what their commands do."""

    def __init__(self, ctx: AppContext, opened: OpenShared[S]) -> None:
        if opened.hub is None:
            raise ValueError("open the session through a SharedSessions hub")
        self.ctx = ctx
        self._opened = opened
        self.hub: SharedSessions[S] = opened.hub
        self.busy = False  # a second tap while the first is saving is ignored, not queued
        self._on_change: Listener | None = None
        self.hub.release_later(opened)  # opened but never listened to: released all the same

    @property
    def opened(self) -> OpenShared[S]:
        """The copy this handle works on: after a reload, the one that replaced it."""
        if self._opened.replaced_by is not None:
            self._opened = self._opened.latest()
        return self._opened

    @opened.setter
    def opened(self, opened: OpenShared[S]) -> None:
        self._opened = opened

    @property
    def session_id(self) -> str:
        return self.opened.session_id

    @property
    def session(self) -> S:
        return self.opened.session

    @property
    def subscribed(self) -> bool:
        return self._on_change is not None

    def subscribe(self, on_change: Listener) -> bool:
        """`on_change` runs (on the event loop) after any client changed this session.
        False when the session was released and must be opened again (see the module)."""
        self.unsubscribe()
        current = self.hub.attach(self.opened, on_change)
        if current is None:
            return False
        self.opened = current
        self._on_change = on_change
        return True

    async def reload(self) -> OpenShared[S]:
        """The stored game overtook this copy (StaleWrite): load it again off the event
        loop, share it in place of this one and re-render every screen showing it."""
        stale = self.opened
        opened = await self.ctx.store.run(lambda store: self.hub.reload(store, stale))
        self.hub.release_later(opened)  # nobody listening: released all the same
        opened.notify()
        return opened

    async def reload_after(self, stale: StaleWrite) -> None:
        """After a refused save (StaleWrite): follow the stored game and say so. The tap
        that was refused is not saved; the player does it again if still needed."""
        try:
            await self.reload()
        except Exception as exc:  # gone, damaged or unreadable now: say so, keep going
            logger.exception("reloading session %s failed", self.session_id)
            self.ctx.toast(self.ctx.failure_text(exc))
            return
        saves = max(stale.actual - stale.expected, 1)
        self.ctx.toast(self.ctx.tn("store.stale_reloaded", saves, count=saves))

    def unsubscribe(self) -> None:
        """Stop listening; the last listener leaving lets the session be released."""
        listener, self._on_change = self._on_change, None
        if listener is not None:
            self.hub.detach(self.opened, listener)

    # ---- acting ------------------------------------------------------------------------
    def acting_refusal(self) -> str | None:
        """Why this client may not act now (None: it may); said instead of acting."""
        return None

    def saved(self, result: object) -> None:
        """Runs after `run`'s work is saved, before the change is shown anywhere."""

    async def run(self, work: Callable[[SessionStore], R]) -> Ran[R]:
        """The one way a screen changes a game: `work` applies and saves on the store
        thread; only a saved change is confirmed (haptic) and shown on every client.

        A second tap while the first is saving is ignored (busy), not queued. A refusal of
        the rules comes back in `Ran.refusal` for the screen to show beside its field; an
        engine fault, a failed save or a read-only store is said in a message (nothing was
        changed); a save another window or process overtook (StaleWrite) reloads the game
        from the store and says so."""
        if self.busy:
            return Ran(False)
        refusal = self.acting_refusal()
        if refusal is not None:
            self.ctx.toast(refusal)
            return Ran(False)
        self.busy = True
        try:
            result = await self.ctx.store.run(work)
        except Refused as exc:
            return Ran(False, refusal=exc)
        except EngineFault:  # a bug: said calmly, nothing was changed or lost
            logger.exception("the engine failed on a command")
            self.ctx.toast(self.ctx.t("common.engine_fault"))
            return Ran(False)
        except StaleWrite as exc:  # another window or process saved to this game first
            await self.reload_after(exc)  # still busy: no tap lands on the stale copy
            return Ran(False)
        except Exception as exc:  # a failed save must be seen, never swallowed
            if not isinstance(exc, ReadOnlyStore):
                logger.exception("saving session %s failed", self.session_id)
            self.ctx.toast(self.ctx.failure_text(exc))
            return Ran(False)
        finally:
            self.busy = False
        self.saved(result)
        self.ctx.device.haptic()
        self.opened.notify()
        return Ran(True, result)
