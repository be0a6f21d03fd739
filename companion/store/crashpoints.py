"""Named write points where a test can kill this process (crash-point testing).

The crash-point test runs a scripted game in a child process with
`VILLAGE_COMPANION_CRASH_AT=<n>`: the n-th write point reached kills the process with
SIGKILL, exactly as a power cut or the OOM killer would. Unset (always, outside that test),
`reached` is one comparison.
"""

from __future__ import annotations

import os
import signal

ENV = "VILLAGE_COMPANION_CRASH_AT"
_target = int(os.environ.get(ENV) or 0)
_count = 0


def reached(name: str) -> None:
    """Called at every write point: before a temp file, with it written, after a rename."""
    global _count
    if not _target:
        return
    _count += 1
    if _count == _target:
        print(f"crash at {name}", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
