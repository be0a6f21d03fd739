"""The store's cross-process locks: filelock's own lock primitive, without its bookkeeping.

`filelock.FileLock` costs about 70 us per acquire and release on this machine (its
fork tracking, a realpath of the lock's folder with an lstat per path component, its
registry of held paths, in-flight records): a third of what saving one event costs beyond
the plain atomic rewrite. `filelock.lock_descriptor` / `unlock_descriptor` are the same
lock (`fcntl.flock` of the whole file on Unix, `LockFileEx` on Windows; documented by
filelock as "contending with FileLock on the same file") on a descriptor the caller owns:
about 5 us with the open and close. `StoreLock` adds to it what the store needs of a
lock object, as FileLock gave it:

- reentrant within a thread and exclusive between threads (a `threading.RLock`), and
  exclusive between processes and between store instances of one process (each
  acquisition opens its own descriptor: flock excludes other open files, whoever holds
  them);
- a timeout (the store's default, or per call: `acquire(timeout=0)` only tries), raising
  `filelock.Timeout`, and `with lock:` / `with lock.acquire(timeout=...):`.

The descriptor is opened at the outermost acquire and closed at the outermost release:
nothing stays open between saves (no descriptor count growing with the games touched,
none inherited by a fork). The lock file is never removed (neither is FileLock's), so
every process locks the same file; a FileLock on the same path (an older version of the
app running beside this one) excludes and is excluded all the same.
"""

from __future__ import annotations

import os
import threading
import time
from types import TracebackType

from filelock import Timeout, lock_descriptor, unlock_descriptor

#: Between two tries while another process holds the lock (FileLock polls at 50 ms; a
#: save holds it for about a millisecond).
POLL_INTERVAL = 0.005
_OPEN_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)


class StoreLock:
    """One lock file's lock for one store instance (see the module doc)."""

    def __init__(self, path: str, timeout: float) -> None:
        self.lock_file = path
        self.timeout = timeout
        self._thread = threading.RLock()
        self._depth = 0  # holds by the thread that has _thread
        self._fd: int | None = None

    @property
    def is_locked(self) -> bool:
        return self._depth > 0

    def acquire(self, timeout: float | None = None) -> _Held:
        """Take the lock, waiting up to `timeout` seconds (None: the lock's own; a
        negative one: for ever); filelock.Timeout if it cannot be had in time."""
        wait = self.timeout if timeout is None else timeout
        deadline = None if wait < 0 else time.monotonic() + wait
        if not self._thread.acquire(timeout=-1 if wait < 0 else wait):
            raise Timeout(self.lock_file)
        if self._depth == 0:
            try:
                self._fd = self._lock_file(deadline)
            except BaseException:
                self._thread.release()
                raise
        self._depth += 1
        return _Held(self)

    def _lock_file(self, deadline: float | None) -> int:
        fd = os.open(self.lock_file, _OPEN_FLAGS, 0o644)
        try:
            while not lock_descriptor(fd, blocking=False):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise Timeout(self.lock_file)
                time.sleep(POLL_INTERVAL if left is None else min(POLL_INTERVAL, left))
        except BaseException:
            os.close(fd)
            raise
        return fd

    def release(self) -> None:
        if self._depth == 0:
            raise RuntimeError(f"{self.lock_file} is not locked")
        self._depth -= 1
        if self._depth == 0:
            fd, self._fd = self._fd, None
            try:
                if fd is not None:
                    try:
                        unlock_descriptor(fd)
                    finally:
                        os.close(fd)  # closing alone would let the lock go as well
            finally:
                self._thread.release()
        else:
            self._thread.release()

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


class _Held:
    """What `acquire` returns: `with lock.acquire(timeout=0):` releases at the end."""

    __slots__ = ("_lock",)

    def __init__(self, lock: StoreLock) -> None:
        self._lock = lock

    def __enter__(self) -> StoreLock:
        return self._lock

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._lock.release()
