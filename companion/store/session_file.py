"""The layout of the store's files, as pure functions on their parsed tables.

A game's file holds the TinyDB tables `meta` (one document: title, finished, summary,
version, updated_at, header, schema), `events` and `redo`; index.json holds `sessions`
(each entry a SessionInfo plus its file's stamp) and settings.json holds `settings`
(`{key, value}` documents). Here: building those tables, checking them, migrating an older
game file to the current schema. Nothing here touches the disk.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import cast

from pydantic import TypeAdapter, ValidationError

from companion.core.json_types import JsonObject
from companion.store.atomic import CorruptFileError, Tables, encode_json
from companion.store.base import (
    STORE_SCHEMA,
    SessionInfo,
    UnsupportedSchema,
    clone_json,
    iso_to_ts,
    merged_info,
    utc_iso,
)

Migration = Callable[[JsonObject], JsonObject]

META, EVENTS, REDO = "meta", "events", "redo"
INDEX_TABLE = "sessions"
SETTINGS_TABLE = "settings"

_META_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "game": str, "title": str, "created_at": str, "header": dict,
    "version": int, "updated_at": str, "finished": bool, "summary": dict,
}


def _migrate_1_to_2(tables: JsonObject) -> JsonObject:
    """Schema 1 -> 2: the meta gets the write `version` (the log length is as good a start
    as any) and `updated_at`; finished/summary may be missing in the oldest files."""
    meta = meta_doc(tables)
    meta.setdefault("version", len(tables.get(EVENTS) or {}))
    meta.setdefault("updated_at", meta.get("created_at", utc_iso()))
    meta.setdefault("finished", False)
    meta.setdefault("summary", {})
    return tables


#: Upgrades of a session file's raw tables, version n -> n+1. To change the file format,
#: raise STORE_SCHEMA in base.py and register the step from the previous version here.
#: A step receives a private deep copy and returns the new tables; the store then sets
#: meta.schema to n+1 and writes the result atomically.
MIGRATIONS: dict[int, Migration] = {1: _migrate_1_to_2}


# --------------------------------------------------------------------------- file layout


def session_file_tables(meta: JsonObject, events: list[JsonObject],
                        redo: list[JsonObject]) -> Tables:
    """The raw tables of a session file (TinyDB layout: doc-id string -> document)."""
    return {
        META: {"1": meta},
        EVENTS: {str(i): event for i, event in enumerate(events, 1)},
        REDO: {str(i): item for i, item in enumerate(redo, 1)},
    }


def session_meta(session_id: str, game: str, title: str, header: JsonObject,
                 created_at: str, *, finished: bool = False,
                 summary: JsonObject | None = None, version: int = 1) -> JsonObject:
    return {"schema": STORE_SCHEMA, "id": session_id, "game": game, "title": title,
            "created_at": created_at, "updated_at": created_at, "version": version,
            "finished": finished, "summary": summary or {}, "header": header}


def stamp(stat: os.stat_result) -> list[int]:
    """What identifies one write of a file: every write is a new file (rename), so a new
    inode, size or mtime."""
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


def index_tables(entries: list[JsonObject]) -> Tables:
    """The raw tables of index.json (each entry: a SessionInfo plus its file's stamp)."""
    return {INDEX_TABLE: {str(i): entry for i, entry in enumerate(entries, 1)}}


def meta_doc(tables: JsonObject) -> JsonObject:
    meta = tables.get(META)
    if not isinstance(meta, dict) or len(meta) != 1:
        raise ValueError("no single document in table 'meta'")
    doc = next(iter(meta.values()))
    if not isinstance(doc, dict):
        raise ValueError("meta document is not an object")
    return doc


def _schema_of(tables: JsonObject, path: Path) -> int:
    try:
        version = meta_doc(tables).get("schema")
    except ValueError as exc:
        raise CorruptFileError(path, str(exc)) from exc
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise CorruptFileError(path, f"meta.schema is {version!r}, not a version number")
    return version


def migrate_tables(tables: JsonObject, path: Path) -> tuple[JsonObject, bool]:
    """Bring raw session tables up to STORE_SCHEMA. Returns (tables, whether it changed).

    Never mutates `tables`. Raises UnsupportedSchema for a newer file or a missing step,
    CorruptFileError if there is no readable schema.
    """
    version = _schema_of(tables, path)
    if version > STORE_SCHEMA:
        raise UnsupportedSchema(
            f"{path} was written by a newer Village Companion (store schema {version}; this "
            f"version reads up to {STORE_SCHEMA}). Update the app; the file was not modified.")
    if version == STORE_SCHEMA:
        return tables, False
    migrated = clone_json(tables)
    while version < STORE_SCHEMA:
        step = MIGRATIONS.get(version)
        if step is None:
            raise UnsupportedSchema(
                f"{path}: no migration from store schema {version} to {version + 1}; "
                "the file was not modified.")
        try:
            migrated = step(migrated)
            meta_doc(migrated)["schema"] = version + 1
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise CorruptFileError(
                path, f"cannot migrate from store schema {version}: {exc}") from exc
        version += 1
    return migrated, True


def check_session_tables(tables: JsonObject, session_id: str, path: Path) -> None:
    """Raise CorruptFileError unless `tables` has the current session layout."""
    unknown = set(tables) - {META, EVENTS, REDO}
    if unknown:
        raise CorruptFileError(path, f"unexpected table {sorted(unknown)[0]!r}")
    try:
        meta = meta_doc(tables)
    except ValueError as exc:
        raise CorruptFileError(path, str(exc)) from exc
    for field, kind in _META_FIELDS.items():
        value = meta.get(field)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise CorruptFileError(path, f"meta.{field} missing or of the wrong type")
    if meta["id"] != session_id:
        raise CorruptFileError(path, f"meta.id is {meta['id']!r}, expected {session_id!r}")
    for name in (EVENTS, REDO):
        table = tables.get(name, {})
        if not isinstance(table, dict) or not all(
                isinstance(doc, dict) and key.isdigit() for key, doc in table.items()):
            raise CorruptFileError(path, f"table {name!r} is not a table of documents")


def next_doc_id(table: JsonObject) -> int | None:
    """The id TinyDB gives the next document of `table` (the highest plus one), or None
    if a key is not one TinyDB writes itself ("01", " 1": it would rewrite the table)."""
    highest = 0
    for key in table:
        number = int(key)
        if str(number) != key:
            return None
        highest = max(highest, number)
    return highest + 1


def appended_tables(tables: Tables, texts: Mapping[str, str], next_id: int,
                    docs: list[JsonObject], fields: JsonObject,
                    now: str, doc_texts: list[str] | None = None,
                    ) -> tuple[Tables, dict[str, str]] | None:
    """What the store's append writes, without TinyDB and without encoding the whole file.

    `tables`: a checked session file at the current schema as written, `texts` the JSON
    text of its tables as written, `next_id` the events table's next document id. Returns
    the new tables (new objects where anything changed: `tables` is not modified) and the
    texts known of them, each exactly `encode_json` of its table: `docs` added to the
    events under the next ids, the redo emptied, the meta with `fields` merged, the
    version one up and `updated_at` now; the same tables, in the same order, as TinyDB's
    insert_multiple, truncate and update give. None: a layout this does not handle (the
    caller then takes the TinyDB path). `doc_texts`: the text of each of `docs`, if the
    caller has it (json_docs_and_texts).
    """
    events, events_text = tables.get(EVENTS), texts.get(EVENTS)
    meta_table = tables.get(META)
    if not isinstance(events, dict) or events_text is None or not isinstance(meta_table, dict):
        return None
    (meta_key, meta), = meta_table.items()
    new_meta = merged_info(meta, fields)
    new_meta["version"] = meta["version"] + 1
    new_meta["updated_at"] = now
    changed: Tables = {META: {meta_key: new_meta}}
    known: dict[str, str] = {}
    if docs:
        new_events = dict(events)
        added = []
        if doc_texts is None:
            doc_texts = [encode_json(doc) for doc in docs]
        for doc_id, (doc, text) in enumerate(zip(docs, doc_texts, strict=True), next_id):
            key = str(doc_id)
            new_events[key] = doc
            added.append(f'"{key}":{text}')
        changed[EVENTS] = new_events
        opened = events_text[:-1] + ("," if events else "")
        known[EVENTS] = opened + ",".join(added) + "}"
    redo = tables.get(REDO)
    if redo:
        changed[REDO] = {}
        known[REDO] = "{}"
    new_tables = {name: changed.get(name, table) for name, table in tables.items()}
    for name in tables:
        if name not in changed and name in texts:
            known[name] = texts[name]
    return new_tables, known


def info_from_meta(meta: JsonObject) -> SessionInfo:
    return SessionInfo(
        id=meta["id"], game=meta["game"], title=meta["title"], created_at=meta["created_at"],
        updated_at=meta.get("updated_at") or meta["created_at"],
        finished=bool(meta.get("finished", False)), summary=meta.get("summary") or {},
    )


def json_docs(value: object, what: str) -> list[JsonObject]:
    docs = clone_json(value)
    if not isinstance(docs, list) or not all(isinstance(doc, dict) for doc in docs):
        raise TypeError(f"{what} must be a list of JSON objects")
    return cast(list[JsonObject], docs)


def json_docs_and_texts(value: object, what: str) -> tuple[list[JsonObject], list[str]]:
    """`json_docs` (the same copies, refused alike) and each document's text as a file
    holds it (`encode_json`): one encoding per document serves the copy and the file.
    A document parsed from its text encodes to that text again, except for one whose
    keys only became equal as text (1 and "1"): its text keeps both, the copy the
    last, so reading the file gives the copy all the same."""
    if not isinstance(value, (list, tuple)):
        docs = json_docs(value, what)
        return docs, [encode_json(doc) for doc in docs]
    texts = [encode_json(item) for item in value]  # NaN, sets, ...: refused as clone_json
    docs = [json.loads(text) for text in texts]
    if not all(isinstance(doc, dict) for doc in docs):
        raise TypeError(f"{what} must be a list of JSON objects")
    return docs, texts


def ordered(table: JsonObject) -> list[JsonObject]:
    """Documents of a raw table in doc-id order, i.e. the order they were stored in."""
    return [table[key] for key in sorted(table, key=int)]


def check_index_entry(doc: JsonObject, info: SessionInfo | None = None
                      ) -> tuple[SessionInfo, float]:
    """Raise unless `doc` is an index entry; the SessionInfo it holds (`info`: already
    validated from `doc`, index_infos) and the time of its `updated_at`."""
    if info is None:
        info = SessionInfo.model_validate(doc)
    updated = iso_to_ts(info.updated_at)  # list_sessions sorts by these
    stamp = doc.get("stamp")
    # No stamp: an entry of store schema 1, re-read from its file (never "damaged").
    if stamp is not None and not (isinstance(stamp, list) and len(stamp) == 3
                                  and all(map(isinstance, stamp, _INTS))):
        raise ValueError("index entry with a malformed file stamp")
    return info, updated


_INTS = (int, int, int)
#: Index entries validated per call by `index_infos` (each call holds the interpreter).
INFO_BATCH = 500


@cache
def _infos() -> TypeAdapter[list[SessionInfo]]:
    return TypeAdapter(list[SessionInfo])  # made at first use: nothing more at start-up


def index_infos(table: object) -> list[SessionInfo] | None:
    """The SessionInfo of every document of index.json's table, in its order, validated
    INFO_BATCH at a time by pydantic's compiled validator (what SessionInfo.model_validate
    makes of each, without a Python call per entry); None if any does not validate or
    the table is no table (check_index_entry then checks them one by one, and says
    what is wrong as it always did)."""
    if type(table) is not dict:
        return None
    docs = list(table.values())
    infos: list[SessionInfo] = []
    try:
        for at in range(0, len(docs), INFO_BATCH):
            infos += _infos().validate_python(docs[at:at + INFO_BATCH])
    except ValidationError:
        return None
    return infos


def check_table_file(tables: JsonObject, table_name: str,
                      check: Callable[[JsonObject], object]) -> None:
    """Raise ValueError unless `tables` is exactly {table_name: {"<n>": doc, ...}}."""
    unknown = set(tables) - {table_name}
    if unknown:
        raise ValueError(f"unexpected table {sorted(unknown)[0]!r}")
    table = tables.get(table_name, {})
    if not isinstance(table, dict):
        raise ValueError(f"table {table_name!r} is not a table of documents")
    for key, doc in table.items():
        if not key.isdigit():
            raise ValueError(f"document id {key!r} is not a number")
        check(doc)


def check_setting(doc: object) -> None:
    if not isinstance(doc, dict) or not isinstance(doc.get("key"), str) or "value" not in doc:
        raise ValueError("a setting is not a {key, value} object")


def one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}" if not isinstance(exc, CorruptFileError) \
        else exc.reason
    return (text.splitlines() or [""])[0][:300]
