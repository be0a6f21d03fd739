"""JSON as the app keeps it: stored sessions, backups, score files, settings.

`JsonObject` is a JSON object as the app keeps, sends or writes it (a stored header,
event, summary or file table; an engine note's params; a score file; a backup; a
benchmark's figures): string keys, JSON values. The store never reads inside one; the
code that wrote it reads what it needs and validates it where it is read (a Village
command, a tally edit, a setup model), so its values stay `Any` here, in this one place,
instead of a cast at every reader. A value the code only passes on (a setting to store,
a parameter to word) is typed `object`, which needs no cast at all.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
