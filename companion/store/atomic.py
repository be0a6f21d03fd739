"""A TinyDB storage that never leaves a half-written file behind.

TinyDB's own JSONStorage rewrites the file in place: a crash or power cut mid-write leaves
truncated JSON, and its next `read` then fails (or an empty file silently becomes an empty
database). Here every write goes to a temporary file in the same directory, is flushed and
fsynced, renamed over the target with `os.replace` (atomic on POSIX and Windows), and then the
directory is fsynced so the rename itself survives a power cut. A reader therefore sees
either the old or the new file, never a mix.

The file starts with a random revision token (`{"_rev":"<32 hex>", ...tables}`) so that a
`ReadCache` can tell, by reading 64 bytes instead of parsing the whole file, whether its
parsed copy is still current, even when another process wrote the file in between.

Every write also keeps, beside the parsed copy, the JSON text of each table as written
(`CachedFile.texts`): a writer that only adds documents to a table (the store's `append`)
extends that text instead of encoding the whole file again. The file is the same byte for
byte: JSON text of an object is its members' texts joined, so the document is assembled
from the tables' texts exactly as `json.dumps` would write it whole.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic_core import from_json
from tinydb.storages import Storage

from companion.core.json_types import JsonObject
from companion.store import crashpoints

_REV_KEY = "_rev"
_REV_HEAD = re.compile(rb'\{"_rev":"([0-9a-f]{32})"')
_HEAD_BYTES = 64

Tables = dict[str, JsonObject]

#: How every file is written: compact, UTF-8 as it is, no NaN (the same as json.dumps with
#: these options; one encoder, so that a table's text is made exactly as inside the file).
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))
encode_json = _ENCODER.encode


class CorruptFileError(ValueError):
    """The file exists but is not a JSON object. It has not been modified."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass
class CachedFile:
    """One file as last read or written: its revision token and parsed tables; when this
    process wrote it, the JSON text of each table as written (`texts`, the same objects as
    in `data`: never to be changed in place); `checked` once the store has checked its
    layout (a file at a new revision is checked again); `next_ids`: the next document id
    of a table, once a writer worked it out."""

    rev: str
    data: Tables
    texts: dict[str, str] | None = None
    checked: bool = False
    next_ids: dict[str, int] = field(default_factory=dict)
    #: The JSON text of each document of one table, as read (`read_entry(doc_texts_of)`;
    #: None when it was parsed in pieces).
    doc_texts: dict[str, str] | None = None


class ReadCache:
    """A small LRU of parsed files, keyed by path and validated by the file's revision token.

    Bounded on purpose: only the few files in use stay parsed, never the whole store.
    The cached dicts are shared with whoever read them: a caller that mutates one must either
    write it back or `discard` the path (the store does this when an operation fails).
    """

    def __init__(self, capacity: int = 8) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, CachedFile] = OrderedDict()
        self._lock = threading.Lock()

    def entry(self, path: str, rev: str) -> CachedFile | None:
        """The cached file at `path` if it is at revision `rev`."""
        with self._lock:
            entry = self._entries.get(path)
            if entry is None or entry.rev != rev:
                return None
            self._entries.move_to_end(path)
            return entry

    def get(self, path: str, rev: str) -> Tables | None:
        entry = self.entry(path, rev)
        return None if entry is None else entry.data

    def has(self, path: str) -> bool:
        with self._lock:
            return path in self._entries

    def put(self, path: str, rev: str, data: Tables, texts: dict[str, str] | None = None,
            *, checked: bool = False) -> CachedFile:
        entry = CachedFile(rev, data, texts, checked)
        with self._lock:
            self._entries[path] = entry
            self._entries.move_to_end(path)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
        return entry

    def discard(self, path: str) -> None:
        with self._lock:
            self._entries.pop(path, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def fsync_dir(directory: Path) -> None:
    """Make a rename/unlink in `directory` durable."""
    if os.name != "posix":
        return  # Windows cannot open a directory; NTFS journals the rename itself.
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def is_temp_name(name: str) -> bool:
    """Whether `name` is one of our temporary files (left behind only by a killed writer)."""
    return name.startswith(".") and name.endswith(".tmp")


#: How tempfile.mkstemp opens its file: created here or not at all, never through a link.
_TEMP_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _create_temp(directory: Path, name: str) -> tuple[int, str]:
    """A new temporary file beside `name` in `directory`, `.<name>.<12 hex>.tmp`
    (is_temp_name): what tempfile.mkstemp makes (mode 0600, O_EXCL, a random name tried
    again if taken), without the Python around it (a tenth of a save's time of its own)."""
    for _ in range(tempfile.TMP_MAX):
        tmp_name = os.path.join(directory, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp_name, _TEMP_FLAGS, 0o600), tmp_name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(directory))


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view):]


def atomic_write_bytes(path: Path, payload: bytes) -> None:
    """Replace `path` with `payload` so that a crash leaves either the old or the new file."""
    directory = path.parent
    crashpoints.reached("before-temp")
    fd, tmp_name = _create_temp(directory, path.name)
    try:
        try:
            _write_all(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        crashpoints.reached("temp-written")
        os.replace(tmp_name, path)
    except BaseException:
        # The target was not touched; only our temp file needs to go.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    crashpoints.reached("renamed")
    fsync_dir(directory)


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def _read_rest(fd: int, head: bytes) -> bytes:
    """`head` and everything after it in the open file `fd`, to its end."""
    chunks = [head]
    want = max(os.fstat(fd).st_size - len(head), 0) + 1  # + 1: one call sees the end
    while chunk := os.read(fd, want):
        chunks.append(chunk)
        want = 1 << 20
    return b"".join(chunks)


_DECODE = json.JSONDecoder().raw_decode


def parse_with_doc_texts(raw: bytes, table: str) -> tuple[JsonObject, dict[str, str]] | None:
    """Parse a file that is exactly `{"_rev":"<token>","<table>":{"<id>":<doc>,...}}`,
    compact as written here, one document at a time; the data (as json.loads gives it)
    and each document's text. None for anything else (the caller parses it whole, which
    also says what is wrong with a damaged file)."""
    try:
        text = raw.decode("utf-8")
        head = re.compile(r'\{"_rev":"([0-9a-f]{32})",' + re.escape(json.dumps(table))
                          + r":\{").match(text)
        if head is None:
            return None
        docs: JsonObject = {}
        texts: dict[str, str] = {}
        pos = head.end()
        if text[pos] != "}":
            while True:
                if text[pos] != '"':
                    return None
                key, pos = _DECODE(text, pos)
                if text[pos] != ":":
                    return None
                doc, end = _DECODE(text, pos + 1)
                docs[key] = doc
                texts[key] = text[pos + 1:end]
                pos = end
                if text[pos] == "}":
                    break
                if text[pos] != ",":
                    return None
                pos += 1
        if text[pos:] != "}}":
            return None
    except (UnicodeDecodeError, ValueError, IndexError):
        return None
    return {_REV_KEY: head[1], table: docs}, texts


#: Bytes of index.json parsed per call by `parse_in_pieces`: each call holds the
#: interpreter (about 3 ms for 512 KB), the event loop has it back between two.
PIECE_BYTES = 1 << 19
#: Where one document of a one-table file ends and the next begins, as written here.
_DOC_BOUNDARY = re.compile(rb'\},"[0-9]+":\{')


def parse_in_pieces(raw: bytes, table: str) -> JsonObject | None:
    """What `json.loads` gives for a file that is exactly
    `{"_rev":"<token>","<table>":{"<id>":<doc>,...}}` (compact, as written here), parsed
    by pydantic's compiled JSON parser (issue 23: an 8 MB index.json in 40 ms, against
    110 for parse_with_doc_texts and 80 for json.loads), PIECE_BYTES of documents a
    call. None for anything else, or anything that parser reads otherwise than json
    (a lone surrogate): the caller then parses it as before.

    The file is cut before a `,"<digits>":{` that follows a `}`: outside strings (a
    string holds no bare quote), but maybe inside a document (a summary keyed by
    numbers). Every piece must parse as an object on its own; a cut inside a
    document leaves both of its pieces unbalanced, so they do not, and the whole file
    goes to the caller's parse. When every piece parses, the file is those pieces
    joined by commas: the merged pieces are what json.loads gives."""
    head = _one_table_head(table).match(raw)
    if head is None or raw[-2:] != b"}}":
        return None
    docs: JsonObject = {}
    pos, end = head.end(), len(raw) - 2
    try:
        while pos < end:
            cut = end
            if end - pos > PIECE_BYTES:
                found = _DOC_BOUNDARY.search(raw, pos + PIECE_BYTES, end)
                if found is not None:
                    cut = found.start() + 1
            piece = from_json(b"{" + raw[pos:cut] + b"}")
            if type(piece) is not dict:
                return None
            docs.update(piece)
            pos = cut + 1  # past the comma
    except (ValueError, RecursionError):
        return None
    return {_REV_KEY: head[1].decode("ascii"), table: docs}


def _one_table_head(table: str) -> re.Pattern[bytes]:
    return re.compile(rb'\{"_rev":"([0-9a-f]{32})",' + re.escape(json.dumps(table).encode())
                      + rb":\{")


class AtomicJSONStorage(Storage):
    """TinyDB storage: atomic, durable writes; strict reads; optional shared read cache.

    `read` returns None for a missing file (TinyDB's "empty database") and raises
    `CorruptFileError` for anything that is not a JSON object, including an empty file.
    Unlike JSONStorage it does not create the file on open, so a corrupt file is never
    touched: it is only ever replaced by a complete new file through `write`.
    """

    def __init__(self, path: str | os.PathLike[str], cache: ReadCache | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self._key = str(self.path)
        self._cache = cache

    def read(self) -> Tables | None:
        entry = self.read_entry()
        return None if entry is None else entry.data

    def read_entry(self, doc_texts_of: str | None = None, *,
                   pieces: bool = False) -> CachedFile | None:
        """The file as cached (parsed at most once per revision); None if it is missing.
        Without a cache, or for a file without a revision token, a fresh uncached entry.
        `doc_texts_of`: a file of that one table, as written here, is parsed document by
        document, keeping each one's text (CachedFile.doc_texts); with `pieces`, in
        pieces without the texts (parse_in_pieces, a third of the time), and document
        by document only if that parser declines it."""
        # os.open/os.read, not open(): no buffered file object for the 64 bytes that
        # usually answer (a save of a game in play), a third of the time.
        try:
            fd = os.open(self._key, _READ_FLAGS)
        except FileNotFoundError:
            return None
        try:
            head = os.read(fd, _HEAD_BYTES)
            rev_match = _REV_HEAD.match(head)
            if self._cache is not None and rev_match is not None:
                cached = self._cache.entry(self._key, rev_match.group(1).decode())
                if cached is not None:
                    return cached
            raw = _read_rest(fd, head)
        finally:
            os.close(fd)
        fast = None if doc_texts_of is None or not pieces \
            else parse_in_pieces(raw, doc_texts_of)
        split = None if doc_texts_of is None or fast is not None \
            else parse_with_doc_texts(raw, doc_texts_of)
        data, doc_texts = (fast, None) if fast is not None else \
            split if split is not None else (self._parse(raw), None)
        rev = data.pop(_REV_KEY, None)
        if self._cache is not None and isinstance(rev, str):
            entry = self._cache.put(self._key, rev, data)
        else:
            entry = CachedFile(rev if isinstance(rev, str) else "", data)
        entry.doc_texts = doc_texts
        return entry

    def _parse(self, raw: bytes) -> JsonObject:
        if not raw.strip():
            raise CorruptFileError(self.path, "file is empty")
        try:
            data = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CorruptFileError(self.path, f"not valid JSON ({exc})") from exc
        if not isinstance(data, dict):
            raise CorruptFileError(
                self.path, f"expected a JSON object, found {type(data).__name__}")
        return data

    def write(self, data: Tables) -> None:
        self.write_known(data, {})

    def write_known(self, data: Tables, known: Mapping[str, str], *,
                    checked: bool = False,
                    next_ids: dict[str, int] | None = None) -> CachedFile | None:
        """Write `data`, taking the JSON text of the tables named in `known` as given
        (the caller vouches that it is `encode_json` of that table, or at least text
        that parses to it: json_docs_and_texts) and encoding the others; the file is
        what `json.dumps` of the whole document gives. Returns the cache entry of the
        new revision (`checked`: its layout is known good)."""
        if self._cache is not None:
            # Forget first: if anything below fails, the next read goes to the disk.
            self._cache.discard(self._key)
        rev = os.urandom(16).hex()  # a random token (as uuid4().hex, without the object)
        texts: dict[str, str] = {}
        # The token goes first so `read` can find it in the first bytes of the file.
        parts = ['{"_rev":"', rev, '"']
        for name, table in data.items():
            if name == _REV_KEY:
                continue
            if not isinstance(name, str):
                raise TypeError(f"table names are strings, not {type(name).__name__}")
            text = known.get(name)
            if text is None:
                text = encode_json(table)
            texts[name] = text
            parts += (",", encode_json(name), ":", text)
        parts.append("}")
        atomic_write_bytes(self.path, "".join(parts).encode("utf-8"))
        if self._cache is None:
            return None
        entry = self._cache.put(self._key, rev, data, texts, checked=checked)
        entry.next_ids.update(next_ids or {})
        return entry

    def close(self) -> None:
        pass  # No handle is kept open between operations.
