"""The quarantine folder: damaged files set aside byte for byte, each with a report.

A file is moved (a rename: its bytes are never rewritten) or, when it must stay usable in
place, copied; beside it goes `<name>.why.json`, the StoreProblem Home shows until the user
deletes it. In a read-only data folder nothing can move: the problem is still reported,
for as long as this process runs, pointing at the file where it stands.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from companion.store.atomic import atomic_write_bytes, fsync_dir
from companion.store.base import ProblemKind, StoreProblem, utc_iso

log = logging.getLogger(__name__)

REPORT_SUFFIX = ".why.json"
SUFFIX = ".corrupt"


class Quarantine:
    def __init__(self, directory: Path, read_only: Callable[[], str | None]) -> None:
        self.directory = directory
        self._read_only = read_only
        self._unmoved: list[StoreProblem] = []  # found read-only: reported, not moved

    def set_aside(self, path: Path, reason: str, *, kind: ProblemKind = "file",
                  title: str = "", recovered: list[str] | None = None,
                  keep_original: bool = False) -> StoreProblem:
        """Move (or, with keep_original, copy) a damaged file aside with a report.
        The caller holds whatever lock guards `path`."""
        now = datetime.now(UTC)
        if self._read_only() is not None:
            problem = StoreProblem(path=str(path), moved_to=str(path), reason=reason,
                                   kind=kind, title=title, recovered=recovered or [],
                                   at=utc_iso(now.timestamp()))
            if problem.path not in {p.path for p in self._unmoved}:
                self._unmoved.append(problem)
            return problem
        self.directory.mkdir(exist_ok=True)
        stamp = now.strftime("%Y%m%dT%H%M%S%fZ")
        target = self.directory / f"{path.name}.{stamp}{SUFFIX}"
        n = 1
        while target.exists():
            target = self.directory / f"{path.name}.{stamp}-{n}{SUFFIX}"
            n += 1
        problem = StoreProblem(path=str(path), moved_to=str(target), reason=reason,
                               kind=kind, id=target.name, title=title,
                               recovered=recovered or [], at=utc_iso(now.timestamp()))
        # The report first: a kill after it and before the move leaves a report of a
        # file not there yet, which `problems` skips; never a moved file without a report.
        atomic_write_bytes(self.directory / f"{target.name}{REPORT_SUFFIX}",
                           problem.model_dump_json().encode("utf-8"))
        if keep_original:
            atomic_write_bytes(target, path.read_bytes())
        else:
            os.replace(path, target)
            fsync_dir(path.parent)
        fsync_dir(self.directory)
        log.warning("store file %s (%s) set aside as %s", path, reason, target)
        return problem

    def problems(self) -> list[StoreProblem]:
        found = [problem.model_copy() for problem in self._unmoved]
        if not self.directory.is_dir():
            return found
        for entry in os.scandir(self.directory):
            if not entry.name.endswith(SUFFIX):
                continue
            report = self.directory / f"{entry.name}{REPORT_SUFFIX}"
            try:
                problem = StoreProblem.model_validate_json(report.read_bytes())
                problem = problem.model_copy(update={"id": entry.name,
                                                     "moved_to": entry.path})
            except (OSError, ValueError):
                # Set aside by an older version (no report): say what we know.
                original = entry.name.split(".json.", 1)[0] + ".json"
                problem = StoreProblem(path=original, moved_to=entry.path,
                                       reason="could not be read", id=entry.name,
                                       at=utc_iso(entry.stat().st_mtime))
            found.append(problem)
        found.sort(key=lambda p: (p.at, p.id), reverse=True)
        return found

    def path_of(self, problem_id: str) -> Path:
        """The quarantined file of `problem_id` (ValueError: not a name of ours)."""
        if (not isinstance(problem_id, str) or not problem_id.endswith(SUFFIX)
                or "/" in problem_id or "\\" in problem_id or problem_id.startswith(".")):
            raise ValueError(f"invalid problem id {problem_id!r}")
        path = self.directory / problem_id
        if not path.is_file():
            raise KeyError(problem_id)
        return path

    def discard(self, problem_id: str) -> None:
        """Delete a quarantined file and its report (the caller holds the store lock)."""
        path = self.path_of(problem_id)
        path.unlink(missing_ok=True)
        (self.directory / f"{problem_id}{REPORT_SUFFIX}").unlink(missing_ok=True)
        fsync_dir(self.directory)
