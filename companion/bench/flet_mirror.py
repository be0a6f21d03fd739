"""A client's copy of a Flet page, kept from the server's messages (pins flet 1.0.5's wire
format): what a raw protocol client needs to find a control to click and to see what the
page now shows, without a browser.

The server sends the page once (REGISTER_CLIENT's `page_patch`) and then PATCH_CONTROL
messages: `{"id": <control id>, "patch": [paths, op, op, ...]}` where `paths` is a tree of
path prefixes (`[index, {key: [index, {...}]}]`) relative to that control and each op is
`[0 replace | 1 add, node, key, value]`, `[2 remove, node, key]` or
`[3 move, from_node, from_key, to_node, to_key]`. Ops apply in order, each path read
against the tree as the previous ops left it (as JSON Patch does). Controls are dicts with
`_i` (id) and `_c` (type); event handlers show as `on_<event>: True`.

No Flet import: the benchmark's client process only needs msgpack.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.core.json_types import JsonObject

REPLACE, ADD, REMOVE, MOVE = 0, 1, 2, 3
TEXT_FIELDS = ("value", "text", "label", "tooltip", "title", "hint_text")


def _node_paths(tree: list[Any], prefix: tuple[Any, ...] = ()) -> dict[int, tuple[Any, ...]]:
    """Path-table node index -> the keys leading to it from the patched control."""
    out = {int(tree[0]): prefix}
    if len(tree) > 1:
        for key, child in tree[1].items():
            out.update(_node_paths(child, (*prefix, key)))
    return out


def _walk(value: object, visible_only: bool = False) -> Iterator[JsonObject]:
    """Every dict under `value` (controls and plain values alike), depth first; with
    `visible_only`, none inside a control set `visible: False`."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if visible_only and item.get("visible") is False:
                continue
            yield item
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))


class MirrorError(Exception):
    """A patch that does not fit the copy (a wire-format change, or a missed message)."""


class PageMirror:
    def __init__(self, page: JsonObject) -> None:
        self.page = page
        self._index: dict[int, JsonObject] = {}
        self._reindex()

    def _reindex(self) -> None:
        self._index = {int(d["_i"]): d for d in _walk(self.page) if "_i" in d and "_c" in d}

    def control(self, control_id: int) -> JsonObject | None:
        return self._index.get(control_id)

    def apply(self, body: JsonObject) -> None:
        """Apply one PATCH_CONTROL body."""
        root = self._index.get(int(body["id"]))
        if root is None:
            raise MirrorError(f"patch for unknown control {body['id']}")
        paths_tree, *ops = body["patch"]
        nodes = _node_paths(paths_tree)

        def resolve(node: int) -> Any:
            obj: Any = root
            for key in nodes[node]:
                obj = obj[key]
            return obj

        for op in ops:
            kind = op[0]
            if kind == MOVE:
                source = resolve(op[1])
                value = source.pop(op[2])
                self._put(resolve(op[3]), op[4], value, insert=True)
                continue
            parent = resolve(op[1])
            if kind == REMOVE:
                parent.pop(op[2]) if isinstance(parent, list) else parent.pop(op[2], None)
            elif kind in (REPLACE, ADD):
                self._put(parent, op[2], op[3], insert=kind == ADD)
            else:
                raise MirrorError(f"unknown patch op {kind}")
        self._reindex()

    @staticmethod
    def _put(parent: Any, key: Any, value: Any, *, insert: bool) -> None:
        if isinstance(parent, list):
            if insert:
                parent.insert(key, value)
            else:
                parent[key] = value
        else:
            parent[key] = value

    # ---- reading ------------------------------------------------------------------------
    def by_identifier(self, identifier: str) -> JsonObject | None:
        """The control with Semantics `identifier` (the first in tree order)."""
        for control in self.controls():
            if control.get("identifier") == identifier:
                return control
        return None

    def controls(self, root: JsonObject | None = None) -> Iterator[JsonObject]:
        """Every visible control under `root` (default: the top view, as views under it
        are the back stack) in tree order."""
        if root is None:
            views = self.page.get("views") or []
            root = views[-1] if views else self.page
        for item in _walk(root, visible_only=True):
            if "_c" in item and "_i" in item:
                yield item

    def text(self, identifier: str) -> str | None:
        """Every text under the control with `identifier`, one per line; None if absent."""
        control = self.by_identifier(identifier)
        if control is None:
            return None
        return "\n".join(str(c[f]) for c in self.controls(control) for f in TEXT_FIELDS
                         if isinstance(c.get(f), str) and c.get(f))

    def clickable(self, identifier: str, control_type: str | None = None) -> int | None:
        """The id of the first enabled clickable control (of `control_type`, e.g.
        "FilledButton", if given) in the `identifier` subtree."""
        control = self.by_identifier(identifier)
        if control is None:
            return None
        for c in self.controls(control):
            if (c.get("on_click") and not c.get("disabled")
                    and control_type in (None, c.get("_c"))):
                return int(c["_i"])
        return None

    def identifiers(self) -> list[str]:
        return [str(c["identifier"]) for c in self.controls() if c.get("identifier")]
