"""Send a view's changes by diffing only the parts that changed (pins flet 1.0.5 internals).

`control.update()` diffs the whole subtree: Flet walks every control under it (its
`_compare_dataclasses` runs the control's `before_update` and validation, lists are
matched item by item), some 300 objects for a table, about 3 ms a client, although a tap
changes a handful of them. In table mode every client showing the game does that walk on
every change (issue 23: the server's CPU per action under load).

`update_changed(root)` first walks the same tree cheaply, reading only the bookkeeping the
diff itself reads (a property set since the last send: `_dirty`; a plain dataclass
field: `__changes`; the snapshots of list, dict and nested-object fields taken when the
control was last encoded: `__prev_lists`, `__prev_dicts`, `__prev_classes`). A control
with a change of its own is diffed by Flet as it would be inside the whole diff (same
parent, same path from `root`, so the same operations); a control with none is passed
through. A part whose own change is only scalar properties (a colour, a text, a flag: no
list, dict or nested object changed) gets its replace operations as Flet's diff makes them
(`_compare_dataclasses`' scalar branch: the control's `before_update` first, then one
replace per changed field) and the walk goes on into its children, instead of Flet
diffing its whole subtree (a cube's colour: its border, alignment and letter; a player's
tile for its background: every text and row in it). The operations of every changed part
go out as one patch message on `root`, as
`root.update()` sends them, and the session's index and mount hooks are kept exactly as
`Session.patch_control` keeps them.

The message goes out with a short `repr`: flet_web's `send_message` logs every message
with an f-string (`transport_log.debug(f"send_message: {message}")`), which formats it
even with debug logging off, and the dataclass repr of a patch walks every control added
in it (about 7% of the server's CPU per action at 25 tables x 4 clients, py-spy).

Anything this walk does not model (an isolated control, a frozen or declarative
component, a list holding lists) makes it fall back to `root.update()`; a control whose
state it cannot read is counted as changed. So it may diff more than needed, never less.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flet.controls.base_control import BaseControl
from flet.controls.context import context
from flet.controls.object_patch import DiffBuilder, ObjectPatch
from flet.messaging.protocol import Message, MessageAction, PatchControlBody

# (changed object, its parent, path from the root, whether Flet diffs its whole subtree:
# False when its own change is scalar properties only, sent as replaces, see the module)
Part = tuple[Any, Any, list[Any], bool]


class _PatchMessage(Message):
    """A PATCH_CONTROL message whose repr names it without formatting the patch (see the
    module); encoded exactly as Message (msgpack sends [action, body])."""

    def __repr__(self) -> str:
        return f"Message(PATCH_CONTROL, id={getattr(self.body, 'id', None)})"


class _Unsupported(Exception):
    """The tree holds something the cheap walk does not model: diff it all."""


_MISSING = object()
_PLAIN = frozenset({str, int, float, bool, bytes})  # values with nothing inside
_DATACLASS: dict[type, bool] = {}  # whether instances of a class are dataclasses


def _is_dataclass(value: Any) -> bool:
    """dataclasses.is_dataclass for an instance (never a class), cached per class."""
    cls: type = value.__class__
    known = _DATACLASS.get(cls)
    if known is None:  # (a class's class is `type`: no dataclass)
        known = _DATACLASS[cls] = (not issubclass(cls, type)
                                   and dataclasses.is_dataclass(cls))
    return known


def _own_change(obj: Any, d: dict[str, Any]) -> bool:
    """Whether `obj` (its attributes `d`) has a change the diff would send from obj itself,
    not from its children."""
    if d.get("_dirty") or d.get("__changes"):
        return True
    return _structural_change(obj, d)


def _scalars_only(obj: Any, d: dict[str, Any]) -> bool:
    """Whether `obj`'s own change (it has one) is scalar fields only: every field set
    since the last send (`_dirty`, `__changes`) holds no list, dict or nested object and
    had none (no snapshot), and no list, dict or nested object changed."""
    prev_lists = d.get("__prev_lists")
    prev_dicts = d.get("__prev_dicts")
    prev_classes = d.get("__prev_classes")
    if prev_lists is None or prev_dicts is None or prev_classes is None:
        return False
    for names in (d.get("_dirty"), d.get("__changes")):
        for name in names or ():
            if name in prev_lists or name in prev_dicts or name in prev_classes:
                return False
            value = getattr(obj, name, None)
            if isinstance(value, (list, dict)) or _is_dataclass(value):
                return False
    return not _structural_change(obj, d)


def _structural_change(obj: Any, d: dict[str, Any]) -> bool:
    """Whether a list, dict or nested object of `obj` changed since it was last sent (or
    it never was)."""
    prev_lists = d.get("__prev_lists")
    prev_dicts = d.get("__prev_dicts")
    prev_classes = d.get("__prev_classes")
    if prev_lists is None or prev_dicts is None or prev_classes is None:
        return True  # never encoded (or snapshots unknown): let the diff decide
    for name, old in prev_lists.items():
        new = d.get(name, _MISSING)
        if new is _MISSING:
            new = getattr(obj, name, None)
        if new.__class__ is not list or len(new) != len(old):
            return True
        for a, b in zip(old, new):  # noqa: B905 (same length)
            if a is not b:
                return True
    for name, old_map in prev_dicts.items():
        new_map = d.get(name, _MISSING)
        if new_map is _MISSING:
            new_map = getattr(obj, name, None)
        if new_map.__class__ is not dict or new_map.keys() != old_map.keys():
            return True
        for key, value in old_map.items():
            if new_map[key] is not value:
                return True
    for name, old_obj in prev_classes.items():
        if getattr(obj, name, None) is not old_obj:
            return True
    # A structural field with no snapshot that now holds something (None -> value).
    for name in getattr(obj.__class__, "_structural_fields", ()):
        if name in prev_lists or name in prev_dicts or name in prev_classes:
            continue
        value = d.get(name, _MISSING)
        if value is _MISSING:
            value = getattr(obj, name, None)
        if value is None:
            continue
        if isinstance(value, (list, dict)) and value or _is_dataclass(value):
            return True
    return False


Link = tuple[Any, ...]  # (the parent's link, key, ...): a path, built only when needed


def _path(link: Link | None) -> list[Any]:
    keys: list[Any] = []
    while link is not None:
        keys[:0] = link[1:]
        link = link[0]
    return keys


def changed_parts(root: Any) -> list[Part]:
    """The topmost objects under `root` (itself included) with a change of their own, each
    with its parent and path, in the order the whole diff meets them, and under a part
    with scalar changes only, its changed descendants too. Raises _Unsupported."""
    parts: list[Part] = []
    stack: list[tuple[Any, Any, Link | None]] = [(root, None, None)]
    pop, push = stack.pop, stack.append
    while stack:
        obj, parent, link = pop()
        d = getattr(obj, "__dict__", None)
        if d is None:  # no bookkeeping to read: let the diff decide
            parts.append((obj, parent, _path(link), True))
            continue
        if ("_frozen" in d or d.get("_c") == "C"
                or (d.get("_isolated") and obj is not root)):
            raise _Unsupported
        if _own_change(obj, d):
            scalars = _scalars_only(obj, d)
            if scalars and isinstance(obj, BaseControl):
                # As Flet's diff, before reading what changed; the hook may change more.
                obj._before_update_safe()
                scalars = _scalars_only(obj, d)
            parts.append((obj, parent, _path(link), not scalars))
            if not scalars:
                continue
        children: list[tuple[Any, Any, Link | None]] = []
        for name, items in d["__prev_lists"].items():
            for i, item in enumerate(items):
                if _is_dataclass(item):
                    children.append((item, obj, (link, name, i)))
                elif isinstance(item, (list, dict)):
                    _nested(item, obj, (link, name, i), children)
        for name, items in d["__prev_dicts"].items():
            if items:
                _nested(items, obj, (link, name), children)
        for name, item in d["__prev_classes"].items():
            children.append((item, obj, (link, name)))
        for child in reversed(children):
            push(child)
    return parts


def _nested(value: Any, parent: Any, link: Link,
            out: list[tuple[Any, Any, Link | None]]) -> None:
    """The objects the diff would descend into from a list or dict inside a field, with
    the path the diff gives them."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if item is None or item.__class__ in _PLAIN:
            continue
        if isinstance(item, (list, dict)):
            _nested(item, parent, (link, key), out)
        elif _is_dataclass(item):
            out.append((item, parent, (link, key)))


_FIELDS: dict[type, dict[str, dataclasses.Field[Any]]] = {}


def _replace_scalars(builder: DiffBuilder, obj: Any, path: list[Any]) -> None:
    """The replace operations for `obj`'s changed scalar fields, as the scalar branch of
    Flet 1.0.5's `DiffBuilder._compare_dataclasses` makes them (value from `_values` or
    the prop's default; an event handler as whether it is set), then marked sent."""
    cls = obj.__class__
    fields_map = _FIELDS.get(cls)
    if fields_map is None:
        fields_map = _FIELDS[cls] = {f.name: f for f in dataclasses.fields(cls)}
    d = obj.__dict__
    dirty = d.get("_dirty")
    if dirty:
        values = getattr(obj, "_values", None)
        defaults = getattr(cls, "_prop_defaults", None)
        for name in dirty:
            f = fields_map.get(name)
            if f is None or f.metadata.get("skip", False):
                continue
            new = (values.get(name, defaults[name]) if values is not None
                   and defaults is not None else getattr(obj, name, None))
            if name.startswith("on_") and f.metadata.get("event", True):
                new = new is not None
            builder._item_replaced(path, name, new)
        dirty.clear()
    changes = d.get("__changes")
    if changes:
        for name in list(changes):
            f = fields_map.get(name)
            if f is None or f.metadata.get("skip", False):
                continue
            new = getattr(obj, name)
            if name.startswith("on_") and f.metadata.get("event", True):
                new = new is not None
            builder._item_replaced(path, name, new)
        changes.clear()


def _teardown(builder: DiffBuilder) -> None:
    """The builder's teardown, and its chain of operations emptied: a doubly linked list
    of [prev, next, op] nodes that the teardown only detaches from its root. Left linked,
    every operation of every client's update (its node, object and dict) is garbage in a
    reference cycle, and those cycles are what set the young collections off in table
    mode (one about every 30 actions at 4 clients, each walking 20,000 objects with the
    event loop stopped)."""
    root = builder._DiffBuilder__root  # type: ignore[attr-defined]
    node = root[1] if root else None
    builder.teardown()
    root.clear()  # (the teardown links it to itself)
    while node:  # a node is [prev, next, op]; the last one's next is the emptied root
        following = node[1]
        node.clear()
        node = following


def update_changed(root: BaseControl) -> None:
    """Send `root`'s changes as `root.update()` would, diffing only the changed parts."""
    session = root.page.session  # raises as root.update() does when root left the page
    try:
        parts = changed_parts(root)
    except _Unsupported:
        root.update()
        return
    context.mark_update_called()  # as page.update() does (no auto-update after the event)
    if not parts:
        return
    # One builder for every part, as the whole diff has one (from_diff, part by part).
    builder = DiffBuilder(root, root, control_cls=BaseControl)
    for obj, parent, path, whole in parts:
        if whole:
            builder._compare_values(parent, path, None, obj, obj, frozen=False)
        else:
            _replace_scalars(builder, obj, path)
    ops = list(builder.execute())
    added = list(builder.get_added_controls())
    removed = list(builder.get_removed_controls())
    _teardown(builder)
    message = ObjectPatch(ops).to_message()
    if len(message) > 1:
        session._Session__send_message(  # type: ignore[attr-defined]
            _PatchMessage(MessageAction.PATCH_CONTROL, PatchControlBody(root._i, message)))
    # As Session.patch_control: index everything first, then the mount hooks.
    index = session.index
    for control in removed:
        index.pop(control._i, None)
    for control in added:
        index[control._i] = control
    added_ids = {control._i for control in added}
    for control in removed:
        if control._i not in added_ids:
            control.will_unmount()
    removed_ids = {control._i for control in removed}
    for control in added:
        if control._i not in removed_ids:
            control.did_mount()
