"""Crash points: a child process plays a scripted session through the real services and is
killed (SIGKILL) at every store write point in turn — before the temp file, with the temp
file written, after the rename — of create, execute, undo, redo, preferences, finish,
delete, Home's listing and a component correction. After each kill a fresh store must hold
every acknowledged action (at most the one in flight beyond it), open every game, and list
exactly the games on disk with the finished flag and summary their files hold.

The child prints "ack <n>" only after the store call of step n has returned. One
interpreter imports the app once and forks a child per kill (a fresh interpreter per write
point spent most of the test starting Python); each child arms its own crash point.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.store.atomic import is_temp_name
from companion.store.crashpoints import ENV
from companion.store.tinydb_store import TinyDBStore
from companion.tally.service import TallyService
from companion.village.service import VillageService, calibration_key

REPO = Path(__file__).resolve().parents[2]

SCENARIO = r"""
import random, shutil, sys
from pathlib import Path
from companion.store import crashpoints
from companion.store.tinydb_store import TinyDBStore
from companion.tally.rules import SetField
from companion.tally.service import TallyService
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

store = TinyDBStore(Path(sys.argv[1]))
village, tally = VillageService(store), TallyService(store)
step = 0

def ack():
    global step
    if len(sys.argv) > 2:  # the reference run keeps a copy of the store after each step
        shutil.copytree(sys.argv[1], f"{sys.argv[2]}/{step}",
                        ignore=shutil.ignore_patterns("locks"))
    print("ack", step, flush=True)
    step += 1

village.confirm("big-box", "time_track_length"); ack()          # 0 component correction
setup = VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                              PlayerSetup(name="Julie", colour="yellow")], seed=7)
vid, game = village.create(setup); ack()                          # 1 create
rng = random.Random(11)
for _ in range(4):                                                # 2-5 execute
    for cmd in candidate_commands(game, rng):
        try:
            village.execute(vid, game, cmd)
            break
        except RuleError:
            continue
    ack()
village.undo(vid, game); ack()                                    # 6 undo
village.redo(vid, game); ack()                                    # 7 redo
village.set_prefs(vid, game, draw_mode="manual"); ack()           # 8 preferences
store.list_sessions(); ack()                                      # 9 Home (index cache)
tid, sheet = tally.create("villagers", ["Ann", "Bo"]); ack()      # 10 create a tally
tally.apply(tid, sheet, SetField(player=0, field="money", value=30)); ack()  # 11 edit
tally.finish(tid, sheet); ack()                                   # 12 finish
store.list_sessions(); ack()                                      # 13 Home again
store.delete(vid); ack()                                          # 14 delete
print("writes", crashpoints._count, flush=True)
"""


def _view(root: Path) -> dict[str, Any]:
    """What a fresh process sees: each game by kind, opened through its service, and the
    component correction. Also checks that Home's listing agrees with the files."""
    store = TinyDBStore(root)
    assert store.problems() == [], store.problems()
    listed = {info.id: info for info in store.list_sessions()}
    on_disk = {p.stem for p in (root / "sessions").glob("*.json") if not is_temp_name(p.name)}
    assert set(listed) == on_disk
    view: dict[str, Any] = {
        "corrected": "time_track_length" in (store.get_setting(calibration_key("big-box"))
                                             or {})}
    for session_id, info in listed.items():
        stored = store.load(session_id)
        assert (info.finished, info.summary, info.title) == (
            stored.finished, stored.summary, stored.title)
        if info.game == "village":
            game = VillageService(store).open(session_id)
            assert store.load(session_id).events == game.events  # nothing left to repair
            view["village"] = {"events": len(game.events), "redo": len(game.redo_stack),
                               "draw_mode": game.draw_mode,
                               "finished": stored.finished}
        else:
            sheet = TallyService(store).open(session_id)
            view["tally"] = {"events": len(sheet.events), "finished": sheet.finished}
            assert stored.finished == sheet.finished
    return view


# Imports what the scenario needs once, then for each "<crash point> <store> <out file>"
# line on stdin forks a child that arms that crash point, writes its stdout to the out file
# and plays the scenario; answers "<crash point> <return code>" when the child is gone
# (a negative code: killed by that signal, as subprocess reports it).
FORK_SERVER = r"""
import os, sys
SCENARIO = sys.argv[1]
exec(compile("\n".join(line for line in SCENARIO.splitlines()
                        if line.startswith(("import ", "from "))), "<imports>", "exec"))
from companion.store import crashpoints
for job in sys.stdin:
    point, root, out = job.split()
    pid = os.fork()
    if pid == 0:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        sys.stdout = os.fdopen(1, "w")
        crashpoints._target, crashpoints._count = int(point), 0
        sys.argv = ["-c", root]
        exec(SCENARIO, {"__name__": "__main__"})
        sys.stdout.flush()
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    print(point, code, flush=True)
"""


def _run(root: Path, crash_at: int,
         snapshots: Path | None = None) -> tuple[list[int], list[str], int]:
    env = dict(os.environ, PYTHONPATH=str(REPO), **{ENV: str(crash_at)})
    args = [str(root)] + ([str(snapshots)] if snapshots else [])
    proc = subprocess.run([sys.executable, "-c", SCENARIO, *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    return _acked(proc.stdout), proc.stdout.splitlines(), proc.returncode


def _acked(stdout: str) -> list[int]:
    return [int(line.split()[1]) for line in stdout.splitlines() if line.startswith("ack ")]


def _run_killed(tmp: Path, points: range) -> dict[int, tuple[Path, list[int], list[str], int]]:
    """Each crash point's run, forked from one interpreter: its store, acks, lines, code."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop(ENV, None)  # the server itself never crashes
    jobs = {n: (tmp / f"kill-{n}", tmp / f"kill-{n}.out") for n in points}
    stdin = "".join(f"{n} {root} {out}\n" for n, (root, out) in jobs.items())
    proc = subprocess.run([sys.executable, "-c", FORK_SERVER, SCENARIO], cwd=REPO, env=env,
                          input=stdin, capture_output=True, text=True,
                          timeout=60 + 10 * len(jobs))
    assert proc.returncode == 0, proc.stderr
    codes: dict[int, int] = {}
    for line in proc.stdout.splitlines():
        point, code = map(int, line.split())
        codes[point] = code
    assert set(codes) == set(jobs), (proc.stdout, proc.stderr)
    out = {}
    for n, (root, log) in jobs.items():
        text = log.read_text()
        out[n] = (root, _acked(text), text.splitlines(), codes[n])
    return out


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_kill_at_any_write_point_loses_at_most_the_action_in_flight(tmp_path: Path) -> None:
    # The reference run is never killed (a target past the end): it tells how many write
    # points there are, and a copy of its store after each step gives that step's view.
    snapshots = tmp_path / "after-step"
    acked, lines, code = _run(tmp_path / "reference", 10**9, snapshots)
    assert code == 0, lines
    steps = len(acked)
    writes = int(next(line for line in lines if line.startswith("writes")).split()[1])
    assert steps == 15 and writes >= steps
    expected = {-1: _view(tmp_path / "empty")}
    expected.update({n: _view(snapshots / str(n)) for n in range(steps)})
    # Distinct but for the two listings (Home changes no game) and any repeated count.
    assert len({json.dumps(v, sort_keys=True) for v in expected.values()}) >= steps - 3

    for point, (root, acked, lines, code) in _run_killed(tmp_path,
                                                           range(1, writes + 1)).items():
        assert code == -signal.SIGKILL, (point, lines)
        last = acked[-1] if acked else -1
        assert acked == list(range(last + 1))
        view = _view(root)
        # Every acknowledged step is there; at most the step in flight beyond it.
        assert view in (expected[last], expected.get(last + 1)), (point, lines[-1:], view)
        leftovers = [p.name for p in (root / "sessions").iterdir() if is_temp_name(p.name)]
        assert leftovers == []  # a killed writer's temp file is swept on the next open
    assert expected[steps - 1]["corrected"] and "village" not in expected[steps - 1]
    print(f"\n{writes} write points killed in {steps} steps: every acknowledged action kept")
