"""Keep the controls on the page when a screen rebuilds its body from the state.

A screen that builds its controls anew on every change (a panel: `body_controls()`)
would send the whole body to the phone on every tap: Flet sees new controls, not
changed ones (measured: 20 KB and the phone laying the panel out again for a counter
tap). `reconcile(old, new)` instead changes the control already on the page into the new
one, property by property, where both are the same kind of Flet control with the same
key; the diff then holds only what changed (a number, a button's disabled).

Only for screens that keep no reference to the controls they build (they read drafts
and the state, never a built control): a reference would point at the new control,
which never reaches the page. Controls of the app's own classes (subclasses of Flet's)
are never merged: they may keep state outside their fields; nor are frozen controls.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flet.controls.base_control import BaseControl
from flet.controls.value_types import Prop

_PLAIN: dict[type, tuple[str, ...]] = {}


def _plain_fields(kind: type) -> tuple[str, ...]:
    """A control's own fields (given to its constructor) that are no Flet Prop: those
    are kept in `_values` only while they differ from their default."""
    names = _PLAIN.get(kind)
    if names is None:
        def is_prop(name: str) -> bool:
            owner = next((c for c in kind.__mro__ if name in c.__dict__), None)
            return owner is not None and isinstance(owner.__dict__[name], Prop)

        names = tuple(f.name for f in dataclasses.fields(kind)
                      if f.init and not f.name.startswith("_") and not is_prop(f.name))
        _PLAIN[kind] = names
    return names


def _fields(old: Any, new: Any) -> list[str]:
    """The fields where `old` or `new` may differ: Props set on either, plain fields."""
    names = dict.fromkeys(name for name in (*old._values, *new._values)
                          if not name.startswith("_"))
    return [*names, *_plain_fields(type(new))]


def _mergeable(old: Any, new: Any) -> bool:
    kind = type(new)
    return (type(old) is kind and kind.__module__.startswith("flet.")
            and old.key == new.key
            and not hasattr(old, "_frozen"))  # Flet refuses to change a frozen one


def _is_controls(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(item, BaseControl) for item in value)


def reconcile_list(old: list[Any], new: list[Any]) -> list[Any]:
    """`new`, with each control merged into the one at its place in `old` where it can
    be; the list returned is `old` itself when every item was merged in place."""
    merged = [reconcile(o, n) for o, n in zip(old, new, strict=False)] + new[len(old):]
    if len(merged) == len(old) and all(m is o for m, o in zip(merged, old, strict=True)):
        return old
    return merged


def reconcile(old: object, new: object) -> Any:
    """`old` changed to show what `new` shows, when it can be (same Flet class, same
    key); otherwise `new`."""
    if old is new or not isinstance(new, BaseControl) or not _mergeable(old, new):
        return new
    for name in _fields(old, new):
        value, was = getattr(new, name), getattr(old, name)
        if value is was:
            continue
        if isinstance(value, BaseControl) and isinstance(was, BaseControl):
            merged = reconcile(was, value)
            if merged is not was:
                setattr(old, name, merged)
        elif _is_controls(value) and isinstance(was, list):
            merged_list = reconcile_list(was, value)
            if merged_list is not was:
                setattr(old, name, merged_list)
        elif callable(value) and callable(was) and not isinstance(value, type):
            # A handler made anew (a closure over the same draft): the phone needs no
            # word of it, only the server calls it.
            setattr(old, name, value)
            dirty = getattr(old, "_dirty", None)
            if isinstance(dirty, dict):
                dirty.pop(name, None)
        elif _differs(was, value):
            setattr(old, name, value)
    return old


def _differs(was: object, value: object) -> bool:
    try:
        return bool(was != value)
    except Exception:  # a value that cannot be compared: take the new one
        return True
