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
through. The operations of every changed part go out as one patch message on `root`, as
`root.update()` sends them, and the session's index and mount hooks are kept exactly as
`Session.patch_control` keeps them.

Anything this walk does not model (an isolated control, a frozen or declarative
component, a list holding lists) makes it fall back to `root.update()`; a control whose
state it cannot read is counted as changed. So it may diff more than needed, never less.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flet.controls.base_control import BaseControl
from flet.controls.context import context
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import Message, MessageAction, PatchControlBody

Part = tuple[Any, Any, list[Any]]  # (changed object, its parent, path from the root)


class _Unsupported(Exception):
    """The tree holds something the cheap walk does not model: diff it all."""


def _own_change(obj: Any) -> bool:
    """Whether `obj` has a change the diff would send from obj itself (not its children)."""
    if getattr(obj, "_dirty", None) or getattr(obj, "__changes", None):
        return True
    prev_lists = getattr(obj, "__prev_lists", None)
    prev_dicts = getattr(obj, "__prev_dicts", None)
    prev_classes = getattr(obj, "__prev_classes", None)
    if prev_lists is None or prev_dicts is None or prev_classes is None:
        return True  # never encoded (or snapshots unknown): let the diff decide
    for name, old in prev_lists.items():
        new = getattr(obj, name, None)
        if (not isinstance(new, list) or len(new) != len(old)
                or any(a is not b for a, b in zip(old, new, strict=True))):
            return True
    for name, old_map in prev_dicts.items():
        new_map = getattr(obj, name, None)
        if (not isinstance(new_map, dict) or new_map.keys() != old_map.keys()
                or any(new_map[k] is not v for k, v in old_map.items())):
            return True
    for name, old_obj in prev_classes.items():
        if getattr(obj, name, None) is not old_obj:
            return True
    # A structural field with no snapshot that now holds something (None -> value).
    for name in getattr(type(obj), "_structural_fields", ()):
        if name in prev_lists or name in prev_dicts or name in prev_classes:
            continue
        value = getattr(obj, name, None)
        if ((isinstance(value, (list, dict)) and value)
                or (dataclasses.is_dataclass(value) and not isinstance(value, type))):
            return True
    return False


def _check(obj: Any, root: Any) -> None:
    if hasattr(obj, "_frozen") or getattr(obj, "_c", None) == "C":
        raise _Unsupported
    if obj is not root and isinstance(obj, BaseControl) and obj.is_isolated():
        raise _Unsupported


def changed_parts(root: Any) -> list[Part]:
    """The topmost objects under `root` (itself included) with a change of their own, each
    with its parent and path, in the order the whole diff meets them. Raises _Unsupported."""
    parts: list[Part] = []
    stack: list[Part] = [(root, None, [])]
    while stack:
        obj, parent, path = stack.pop()
        _check(obj, root)
        if _own_change(obj):
            parts.append((obj, parent, path))
            continue
        children: list[Part] = []
        for snapshots in ("__prev_lists", "__prev_dicts", "__prev_classes"):
            for name, value in getattr(obj, snapshots).items():
                _children(value, obj, [*path, name], children)
        stack.extend(reversed(children))
    return parts


def _children(value: Any, parent: Any, path: list[Any], out: list[Part]) -> None:
    """The objects the diff would descend into from `value` (a field's value, or an item
    of a list or dict in one), with the path the diff gives them."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            _children(item, parent, [*path, i], out)
    elif isinstance(value, dict):
        for key, item in value.items():
            _children(item, parent, [*path, key], out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append((value, parent, path))


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
    ops: list[Any] = []
    added: list[Any] = []
    removed: list[Any] = []
    for obj, parent, path in parts:
        patch, part_added, part_removed = ObjectPatch.from_diff(
            obj, obj, control_cls=BaseControl, parent=parent, path=path)
        ops += patch.patch
        added += part_added
        removed += part_removed
    message = ObjectPatch(ops).to_message()
    if len(message) > 1:
        session._Session__send_message(  # type: ignore[attr-defined]
            Message(MessageAction.PATCH_CONTROL, PatchControlBody(root._i, message)))
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
