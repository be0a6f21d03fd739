"""Recover what can be recovered from a damaged settings file.

The settings file is a TinyDB table of `{"key": ..., "value": ...}` documents. When the
file is damaged (torn, a stray byte, a wrong shape), every document that can still be read
on its own is kept — the user's corrections of estimated component values above all — and
only the rest goes back to its default.
"""

from __future__ import annotations

import json
import re

from companion.core.json_types import JsonObject

_DOC_START = re.compile(r'\{\s*"key"\s*:')
_MAX_DEPTH = 200  # deeper than any setting the app writes; refuses pathological input


def _depth_ok(value: object, depth: int = 0) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return all(_depth_ok(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_depth_ok(v, depth + 1) for v in value)
    return True


def _setting(doc: object) -> tuple[str, object] | None:
    if isinstance(doc, dict) and isinstance(doc.get("key"), str) and "value" in doc:
        try:
            json.dumps(doc["value"], allow_nan=False)
        except (TypeError, ValueError):
            return None
        return doc["key"], doc["value"]
    return None


def recover_settings(raw: bytes) -> JsonObject:
    """Every readable setting in `raw` (later documents win, as they were written later)."""
    found: JsonObject = {}
    # First the structured way: a parseable file whose shape is only partly wrong.
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and isinstance(data.get("settings"), dict):
        for doc in data["settings"].values():
            item = _setting(doc)
            if item is not None and _depth_ok(item[1]):
                found[item[0]] = item[1]
        return found
    # Else scan the bytes for documents that still parse on their own (a torn file).
    text = raw.decode("utf-8", errors="replace")
    decoder = json.JSONDecoder()
    for match in _DOC_START.finditer(text):
        try:
            doc, _ = decoder.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        item = _setting(doc)
        if item is not None and _depth_ok(item[1]):
            found[item[0]] = item[1]
    return found
