"""Two writers on one game (the app started twice, the CLI beside the app, two tabs): every
write names the version it extends, so a stale copy is refused — never a duplicate or an
interleaved log — and the refused writer reloads and carries on."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store.base import StaleWrite
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

REPO = Path(__file__).resolve().parents[2]

# Appends `count` events tagged `who`, each naming the version it extends; on StaleWrite
# it reloads (as the app does) and tries again. Prints one line per acknowledged event.
WRITER = """
import sys
from pathlib import Path
from companion.store.base import StaleWrite
from companion.store.tinydb_store import TinyDBStore

store = TinyDBStore(Path(sys.argv[1]))
who, count = sys.argv[2], int(sys.argv[3])
version = store.load("g").version
print("ready", flush=True)
while not Path(sys.argv[4]).exists():  # both hold the same version before either writes
    pass
refused = 0
for i in range(count):
    while True:
        try:
            version = store.append("g", [{"who": who, "i": i}], expected=version)
            break
        except StaleWrite as exc:
            refused += 1
            version = store.load("g").version
    print(who, i, flush=True)
print("refused", refused, flush=True)
"""


@pytest.mark.parametrize("make", [TinyDBStore, None])
def test_a_write_from_a_stale_copy_is_refused(tmp_path: Path, make: object) -> None:
    store = TinyDBStore(tmp_path) if make else MemoryStore()
    version = store.create("g", "village", "two writers", {}, [{"n": 0}])
    first = store.append("g", [{"n": 1}], expected=version)
    assert first == version + 1
    with pytest.raises(StaleWrite) as info:
        store.append("g", [{"n": "stale"}], expected=version)
    assert (info.value.expected, info.value.actual) == (version, first)
    with pytest.raises(StaleWrite):
        store.replace_log("g", [], [], expected=version)
    with pytest.raises(StaleWrite):
        store.update_info("g", finished=True, expected=version)
    stored = store.load("g")
    assert stored.events == [{"n": 0}, {"n": 1}] and stored.version == first
    assert stored.finished is False


def test_two_processes_appending_to_one_game_never_interleave(tmp_path: Path) -> None:
    root = tmp_path / "data"
    TinyDBStore(root).create("g", "village", "two processes", {})
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    count = 60
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, str(script), str(root), who, str(count),
                               str(go)],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
             for who in ("a", "b")]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    go.touch()
    outputs = [proc.communicate(timeout=120)[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    events = TinyDBStore(root).load("g").events
    assert len(events) == 2 * count  # nothing lost, nothing doubled
    for who in ("a", "b"):
        assert [e["i"] for e in events if e["who"] == who] == list(range(count))
    refused = sum(int(line.split()[1]) for out in outputs for line in out.splitlines()
                  if line.startswith("refused"))
    assert refused >= 1  # both started from one version: the second writer was refused
    print(f"\n{2 * count} events from two processes; {refused} stale writes refused")


def test_two_services_on_one_game_the_stale_one_is_refused_and_rolled_back(
        tmp_path: Path) -> None:
    """The app and the CLI (or two app processes) each hold a copy of one game."""
    setup = VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                  PlayerSetup(name="Julie", colour="yellow")], seed=5)
    first = VillageService(TinyDBStore(tmp_path))
    sid, mine = first.create(setup)
    second = VillageService(TinyDBStore(tmp_path))
    theirs = second.open(sid)
    rng = random.Random(3)

    def act(svc: VillageService, session: object) -> None:
        for cmd in candidate_commands(session, rng):  # type: ignore[arg-type]
            try:
                svc.execute(sid, session, cmd)  # type: ignore[arg-type]
                return
            except RuleError:
                continue
        raise AssertionError("no command was accepted")

    act(second, theirs)
    saved = TinyDBStore(tmp_path).load(sid)
    before = (list(mine.events), mine.state)
    with pytest.raises(StaleWrite):
        act(first, mine)
    assert (mine.events, mine.state) == before  # rolled back to what it last saved
    assert TinyDBStore(tmp_path).load(sid).events == saved.events  # untouched
    reloaded = first.open(sid)  # what the app does: reload, then the tap again
    assert reloaded.events == theirs.events
    act(first, reloaded)
    assert first.open(sid).events == reloaded.events
