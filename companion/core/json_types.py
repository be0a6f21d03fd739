"""JSON as the app keeps it: stored sessions, backups, score files, settings.

`JsonValue` is any JSON value, exactly (what `json.dumps` writes and `json.loads` reads
back). `JsonObject` is a JSON object as the app keeps, sends or writes it (a stored
header, event, summary or file table; an engine note's params; a score file; a backup; a
benchmark's figures): string keys, JSON values. The store never reads inside one; the
code that wrote it reads what it needs and validates it where it is read (a Village
command, a tally edit, a setup model), so its values stay `Any` here, in this one place,
instead of a cast at every reader.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JsonScalar: TypeAlias = str | int | float | bool | None
JsonValue: TypeAlias = JsonScalar | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject: TypeAlias = dict[str, Any]
