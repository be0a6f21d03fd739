"""Issue 23: the store's locks (locks.StoreLock, filelock's lock_descriptor without
FileLock's bookkeeping) keep what FileLock gave the store: reentrant within a thread,
exclusive between threads, store instances and processes, a timeout raising
filelock.Timeout; and the one-encoding copies of appended events (json_docs_and_texts)
are refused and made as json_docs makes them."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from companion.store.atomic import encode_json
from companion.store.locks import StoreLock
from companion.store.session_file import json_docs, json_docs_and_texts
from companion.store.tinydb_store import TinyDBStore

HOLDER = """
import sys, time
from companion.store.locks import StoreLock
lock = StoreLock(sys.argv[1], 5)
with lock:
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_reentrant_in_a_thread_and_released_at_the_outermost_release(tmp_path: Path) -> None:
    lock = StoreLock(str(tmp_path / "a.lock"), 1)
    with lock, lock.acquire(timeout=0):
        assert lock.is_locked
    assert not lock.is_locked
    other = StoreLock(str(tmp_path / "a.lock"), 0)  # another instance: another open file
    with other.acquire(timeout=0):
        assert other.is_locked


def test_another_thread_waits_then_times_out(tmp_path: Path) -> None:
    lock = StoreLock(str(tmp_path / "a.lock"), 0.05)
    outcome: list[str] = []

    def other() -> None:
        try:
            with lock:
                outcome.append("taken")
        except Timeout:
            outcome.append("timeout")

    with lock:
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert outcome == ["timeout"]
    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert outcome == ["timeout", "taken"]


def test_two_instances_exclude_each_other_and_a_filelock(tmp_path: Path) -> None:
    path = str(tmp_path / "a.lock")
    mine, theirs = StoreLock(path, 0.05), StoreLock(path, 0.05)
    with mine:
        with pytest.raises(Timeout):
            theirs.acquire()
        with pytest.raises(Timeout):
            FileLock(path, timeout=0.05).acquire()  # an older app's lock on the same file
        assert not theirs.is_locked
    with FileLock(path, timeout=1), pytest.raises(Timeout):
        mine.acquire(timeout=0)
    with theirs:
        pass


def test_a_lock_held_by_another_process_is_waited_for(tmp_path: Path) -> None:
    path = str(tmp_path / "a.lock")
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.Popen([sys.executable, str(script), path, "0.4"], env=env,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "locked"
    locked_at = time.monotonic()
    lock = StoreLock(path, 10)
    with pytest.raises(Timeout):
        lock.acquire(timeout=0)
    with lock:  # waits for the child to let go (it holds the lock for 0.4 s)
        assert time.monotonic() - locked_at >= 0.3
    assert proc.wait(timeout=10) == 0
    proc.stdout.close()


def test_the_store_hands_out_one_lock_per_file(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    assert store.session_lock("g") is store.session_lock("g")
    assert store.session_lock("g") is not store.session_lock("h")
    store.create("g", "village", "Game", {})
    with store.session_lock("g"):  # held around calls that take it again: one unit
        version = store.append("g", [{"n": 1}], expected=1)
        assert store.append("g", [{"n": 2}], expected=version) == version + 1
    assert not store.session_lock("g").is_locked
    assert not any(name.endswith(".tmp") for name in os.listdir(tmp_path / "sessions"))


@pytest.mark.parametrize("events", [
    [{"n": 1, "s": "教會 · Kirche", "f": 1 / 3, "x": None, "l": [1, {"a": True}]}],
    ({"a": 1}, {"b": {"c": []}}),
    [],
])
def test_docs_and_texts_are_json_docs_and_their_encoding(events: list[object]) -> None:
    docs, texts = json_docs_and_texts(events, "events")
    assert docs == json_docs(events, "events")
    assert texts == [encode_json(doc) for doc in docs]
    for doc, given in zip(docs, events, strict=True):
        assert doc is not given  # copies: the caller's objects are never stored


@pytest.mark.parametrize(("events", "error"), [
    ([{"x": math.nan}], ValueError), ([{"x": {1, 2}}], TypeError), ([[1]], TypeError),
    ({"not": "a list"}, TypeError), ([{"x": object()}], TypeError),
])
def test_docs_and_texts_refuse_what_json_docs_refuses(events: object,
                                                      error: type[Exception]) -> None:
    with pytest.raises(error):
        json_docs(events, "events")
    with pytest.raises(error):
        json_docs_and_texts(events, "events")
