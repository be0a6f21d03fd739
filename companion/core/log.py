"""The append-only event log every session keeps: events in groups, plus a redo stack.

A *group* is what one user action recorded (Village: the command and the chance events
the app drew because of it; a scoring assistant: the one edit). Undo moves the last group
onto the front of the redo stack; redo moves the first redo group back exactly as
recorded; any new action clears the redo stack; "go back to group N" undoes every group
after N. Group 0 holds what the session recorded by itself before any action (Village's
opening draws) and is never undone.

The log only keeps the bookkeeping: the session decides what an event means and how its
state follows (Village refolds the log, a tally keeps one state per edit). The events are
the dicts a store saves, never copied or reshaped here, so stored formats are the
session's own. Where an event keeps its group number (Village's "group"), `group_of`
reads it; without it every event is a group of its own, numbered from 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.errors import Refused
from companion.core.json_types import JsonObject

Event = JsonObject
GroupOf = Callable[[Mapping[str, Any]], int]
Refuse = Callable[[str, str, str, JsonObject], Refused]  # (field, message, key, params)


@dataclass(frozen=True)
class LogSnapshot:
    """The log and redo stack at one moment, to roll back a change the store refused."""

    events: tuple[Event, ...]
    redo: tuple[Event, ...]


class EventLog:
    def __init__(self, events: Iterable[Event] = (), redo: Iterable[Event] = (), *,
                 group_of: GroupOf | None = None) -> None:
        self._group_of = group_of
        self.events: list[Event] = list(events)
        # Front = the next group to redo.
        self.redo: list[Event] = list(redo)

    # ---- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.events)

    def group_at(self, index: int) -> int:
        """The group of the event at `index` in the log."""
        if self._group_of is None:
            return index + 1
        return int(self._group_of(self.events[index]))

    @property
    def group(self) -> int:
        """The last group in the log (0 when nothing but group 0 is)."""
        return self.group_at(len(self.events) - 1) if self.events else 0

    @property
    def can_undo(self) -> bool:
        return self.group > 0

    @property
    def can_redo(self) -> bool:
        return bool(self.redo)

    def end_of(self, group: int) -> int:
        """How many events the log keeps if it goes back to `group`."""
        if self._group_of is None:
            return max(0, min(group, len(self.events)))
        return next((i for i in range(len(self.events)) if self.group_at(i) > group),
                    len(self.events))

    def through(self, group: int) -> list[Event]:
        """The events of every group up to and including `group`."""
        return self.events[:self.end_of(group)]

    def next_redo(self) -> list[Event]:
        """The first redo group as recorded ([] when there is nothing to redo)."""
        if not self.redo:
            return []
        if self._group_of is None:
            return self.redo[:1]
        first = self._group_of(self.redo[0])
        k = 1
        while k < len(self.redo) and self._group_of(self.redo[k]) == first:
            k += 1
        return self.redo[:k]

    # ---- changing --------------------------------------------------------------------
    def record(self, events: Sequence[Event], *, keep_redo: bool = False) -> None:
        """Append one action's events. A new action clears the redo stack; `keep_redo` is
        for replaying a stored log (or settling a new one), which is no new action."""
        self.events.extend(events)
        if not keep_redo:
            self.redo = []

    def cut_after(self, group: int) -> int:
        """Move every event of a group after `group` onto the front of the redo stack, in
        order; returns how many groups moved."""
        cut = self.end_of(group)
        popped = self.events[cut:]
        if not popped:
            return 0
        moved = len({self.group_at(i) for i in range(cut, len(self.events))})
        del self.events[cut:]
        self.redo = popped + self.redo
        return moved

    def undo(self) -> bool:
        """Move the last group onto the redo stack (group 0 stays)."""
        if not self.can_undo:
            return False
        self.cut_after(self.group - 1)
        return True

    def redo_next(self, recorded: Sequence[Event] | None = None) -> list[Event]:
        """Move the first redo group back into the log; returns it. `recorded`: the same
        group as the session re-recorded it while re-applying it (a tally re-stamps a
        stored edit; its content is the same). The session re-applies first, so a group
        that no longer applies leaves the log as it was."""
        batch = self.next_redo()
        if not batch:
            return []
        del self.redo[:len(batch)]
        self.events.extend(batch if recorded is None else recorded)
        return batch

    def go_back_to(self, group: object, refuse: Refuse = Refused.one) -> int:
        """Undo every group after `group` (0 = back to the start); returns how many were
        undone. Anything but a group in the log is refused (field "group")."""
        return self.cut_after(self.check_group(group, refuse))

    def check_group(self, group: object, refuse: Refuse = Refused.one) -> int:
        """`group` if it is a group in the log; else `refuse("group", message, key, params)`
        is raised (a session passes its own refusal type, e.g. Village's RuleError)."""
        if type(group) is not int:  # a bool is no group number either
            raise refuse("group", "must be a whole number", "log.group_whole", {})
        if not 0 <= group <= self.group:
            raise refuse("group", f"must be from 0 to {self.group}", "log.group_range",
                         {"last": self.group})
        return group

    # ---- all-or-nothing around a save ------------------------------------------------
    def snapshot(self) -> LogSnapshot:
        return LogSnapshot(tuple(self.events), tuple(self.redo))

    def restore(self, snap: LogSnapshot) -> None:
        self.events = list(snap.events)
        self.redo = list(snap.redo)
