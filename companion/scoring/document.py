"""From the raw bytes of a score file to a payload the game parsers can check safely.

`json.loads` accepts things no score file needs and the rest of the program cannot carry:
NaN and Infinity, integers of thousands of digits (which Python refuses to turn back into
text), lone UTF-16 surrogates (which cannot be printed as UTF-8) and nesting deep enough
to exhaust the stack.  `read_document` refuses all of them up front, each as one problem
line naming the field or `(input)`, in the same style as the game parsers' lines.

Problems inside an otherwise readable document do not stop the run: the offending value is
replaced by a placeholder that every game model rejects, so the game's own checks still
report every other problem, and `merge_problems` drops the game's duplicate line for a field
this module has already named.  A key that is not spelled like a field (letters, digits, `_`
and `-`) is no field of any game: it is reported here with its name quoted, so that a key
such as "a b", "x: y" or "a\\nb" still reads as one field on one line, and dropped.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

from companion.core.validation import InputProblems, field_path
from companion.scoring.inputs import player_line_order

# A score file nests four levels at most ({"players": [{"promises": [{...}]}]}); far below
# the interpreter's recursion limit, far above any real file.
MAX_DEPTH = 64
# Larger than any count a game can reach, and small enough that sums of such numbers stay
# well inside Python's 4,300-digit limit for turning integers into text.
MAX_DIGITS = 100

_SPECIAL = re.compile(r'["\[\]{}]')
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")
# Every field of every score file is spelled like this; any other key is unknown anyway.
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")


class _Refused:
    """Stands in for a value already reported; no game model accepts it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<refused>"


REFUSED = _Refused()


class _LongInt:
    """An integer literal with too many digits, kept as its text."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _parse_int(text: str) -> int | _LongInt:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return _LongInt(digits)
    return int(text)


def decode(data: bytes) -> str:
    """Strict UTF-8, or one `(input)` line naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputProblems([f"(input): not UTF-8 at byte {exc.start}"]) from None


def nesting_depth_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """True if brackets outside strings nest deeper than `limit` (iterative, linear)."""
    depth = 0
    pos = 0
    while True:
        match = _SPECIAL.search(text, pos)
        if match is None:
            return False
        char = match.group()
        pos = match.end()
        if char == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                return False  # an unterminated string: the JSON parser reports it
            pos = rest.end()
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth = max(0, depth - 1)


def parse_json(text: str) -> Any:
    """`json.loads` that never raises anything but InputProblems."""
    if nesting_depth_exceeds(text):
        raise InputProblems([f"(input): nested too deeply (more than {MAX_DEPTH} levels)"])
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise InputProblems([f"(input): not valid JSON at line {exc.lineno} column "
                             f"{exc.colno}: {exc.msg}"]) from None
    except RecursionError:
        raise InputProblems([f"(input): nested too deeply (more than {MAX_DEPTH} levels)"]
                            ) from None


def _value_problem(value: object) -> str | None:
    if isinstance(value, _LongInt):
        return f"is too large ({value.digits} digits; at most {MAX_DIGITS} are allowed)"
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    if isinstance(value, str) and _SURROGATE.search(value):
        return "contains an invalid character (lone surrogate)"
    return None


def key_path(loc: tuple[Any, ...], key: str) -> str:
    """The path of a key that would not read as a path spelled plainly ("a b", "x: y",
    "", "a.b", "p[0]", control characters): quoted, as in `players[0]["a b"]`."""
    quoted = json.dumps(key, ensure_ascii=False)
    return f"{field_path(loc)}[{quoted}]" if loc else f"[{quoted}]"


def _key_problem(key: str) -> str:
    if _SURROGATE.search(key):
        return "field name contains an invalid character (lone surrogate)"
    return "is not a known field"


def screen(payload: object) -> tuple[Any, list[str]]:
    """A copy of `payload` with refused values replaced, and one line per refusal, in
    document order.

    Iterative, so it is safe on any depth `json.loads` produced; it also enforces
    MAX_DEPTH on its own in case it is handed a document that skipped `parse_json`.
    """
    problems: list[str] = []
    # Each frame: the (key or index, value) pairs still to copy, the copy, its location.
    stack: list[tuple[Iterator[tuple[Any, Any]], Any, tuple[Any, ...]]] = []

    def take(value: object, loc: tuple[Any, ...]) -> Any:
        problem = _value_problem(value)
        if problem is not None:
            problems.append(f"{field_path(loc)}: {problem}")
            return REFUSED
        if not isinstance(value, dict | list):
            return value
        if len(stack) >= MAX_DEPTH:
            raise InputProblems([f"(input): nested too deeply (more than {MAX_DEPTH} levels)"])
        if isinstance(value, dict):
            stack.append((iter(value.items()), {}, loc))
        else:
            stack.append((enumerate(value), [], loc))
        return stack[-1][1]

    root = take(payload, ())
    while stack:
        items, target, loc = stack[-1]
        step = next(items, None)
        if step is None:
            stack.pop()
            continue
        key, value = step
        if isinstance(key, str) and not _PLAIN_KEY.fullmatch(key):
            problems.append(f"{key_path(loc, key)}: {_key_problem(key)}")
            continue  # dropped: the game models would only call it unknown again
        copied = take(value, (*loc, key))
        if isinstance(target, dict):
            target[key] = copied
        else:
            target.append(copied)
    return root, problems


def read_document(data: bytes) -> tuple[Any, list[str]]:
    """Decode, parse and screen a score file.

    Raises InputProblems when nothing can be checked (not UTF-8, not JSON, too deep);
    otherwise returns the screened payload and the lines for the values it refused.
    """
    return screen(parse_json(decode(data)))


def problem_field(line: str) -> str:
    """The field a problem line names: the text before its first ': '."""
    return line.partition(": ")[0]


def merge_problems(screened: Sequence[str], lines: Sequence[str]) -> list[str]:
    """The game's lines plus this module's, without the game's line for a field this
    module already refused (its placeholder is what the game complains about)."""
    taken = {problem_field(line) for line in screened}
    kept = [line for line in lines if problem_field(line) not in taken]
    return sorted([*kept, *screened], key=player_line_order)
