"""The raw client's copy of the page (companion/bench/flet_mirror.py), kept from exactly the
frames a server session sent, equals the page the server holds: after adds, removes,
reorders and property changes in a plain Flet app, and after taps on the Village table."""

from __future__ import annotations

from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import (
    _get_root_dataclass_field,
    configure_encode_object_for_msgpack,
)

from companion.bench.flet_mirror import PageMirror
from companion.store.memory import MemoryStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup
from tests.app.harness import AppHarness, FakeClient


def _frames(app: AppHarness) -> list[tuple[int, Any]]:
    """Every frame the session sent, decoded as a client does (control ids are int map
    keys in the patches' path tables)."""
    out = []
    for frame in app.conn.frames:
        action, body = msgpack.unpackb(frame, strict_map_key=False)
        out.append((int(action), body))
    return out


def mirror_of(app: AppHarness) -> PageMirror:
    """A mirror fed every frame the harness session sent, as a raw client would be."""
    mirror: PageMirror | None = None
    for action, body in _frames(app):
        if action == 1:
            mirror = PageMirror(body["page_patch"])
        elif action == 2:
            assert mirror is not None
            mirror.apply(body)
    assert mirror is not None
    return mirror


def _normal(value: Any, index: dict[int, Any]) -> Any:
    """Values the encoder leaves out (None, empty, a control's default: a patch may set a
    property back to its default, a whole encode omits it) dropped on both sides."""
    if isinstance(value, dict):
        control = index.get(value["_i"]) if "_i" in value and "_c" in value else None
        out = {}
        for k, v in value.items():
            if v is None or v == [] or v == {}:
                continue
            if control is not None:
                default = _get_root_dataclass_field(type(control), k)
                if default is not None and default.default == v:
                    continue
            out[k] = _normal(v, index)
        return out
    if isinstance(value, list):
        return [_normal(v, index) for v in value]
    return value


def same_page(mirror: PageMirror, app: AppHarness) -> bool:
    index = app.session.index  # type: ignore[union-attr]
    return bool(_normal(mirror.page, index) == _normal(server_page(app), index))


def server_page(app: AppHarness) -> Any:
    """The page as the server holds it now, encoded whole (as flet encodes it)."""
    packed = msgpack.packb(app.page, default=configure_encode_object_for_msgpack(BaseControl))
    return msgpack.unpackb(packed, strict_map_key=False)


def test_mirror_follows_adds_removes_moves_and_props() -> None:
    items = ft.Column([ft.Text(f"item {i}", key=str(i)) for i in range(5)])
    label = ft.Text("zero")

    def main(page: ft.Page) -> None:
        def shuffle() -> None:
            controls = list(items.controls)
            controls.reverse()  # moves
            controls.pop(1)  # a remove
            controls.insert(2, ft.Text("new", key="new"))  # an add
            items.controls = controls
            label.value = "one"  # a property

        page.add(ft.Semantics(identifier="label", content=label), items,
                 ft.Semantics(identifier="go", content=ft.Button("Go", on_click=shuffle)))

    with AppHarness(main=main) as app:
        mirror = mirror_of(app)
        assert mirror.text("label") == "zero"
        go = mirror.clickable("go")
        assert go is not None
        sent = len(app.conn.frames)
        app._run(app.session.dispatch_event(go, "click", None))  # type: ignore[union-attr]
        app.settle()
        assert len(app.conn.frames) > sent  # a patch, not a new page
        mirror = mirror_of(app)
        assert mirror.text("label") == "one"
        assert same_page(mirror, app)


def test_mirror_follows_the_village_table() -> None:
    store = MemoryStore()
    session_id, _ = VillageService(store).create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bo", colour="blue")],
        start_player=0, seed=7))
    client = FakeClient(initial_route=f"/play/village/{session_id}")
    with AppHarness(store, client=client, strict=False) as app:
        mirror = mirror_of(app)
        start = mirror.text("table-turn")
        assert start and "Ann" in start
        cube = next(i for i in mirror.identifiers()
                    if i.startswith("cube-") and "-market-" not in i and "-plague-" not in i)
        for target in (lambda m: m.clickable(cube),
                       lambda m: m.clickable("turn-buttons", "FilledButton"),
                       lambda m: m.clickable("undo"), lambda m: m.clickable("undo")):
            before = mirror.text("table-turn")
            control_id = target(mirror)
            assert control_id is not None
            app._run(app.session.dispatch_event(  # type: ignore[union-attr]
                control_id, "click", None))
            app.settle()
            mirror = mirror_of(app)
            assert mirror.text("table-turn") != before  # every tap shows on the header
        assert mirror.text("table-turn") == start  # two undos: back where it began
        assert same_page(mirror, app)
