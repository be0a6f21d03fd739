"""kit/changed_parts.py: diffing only the changed parts must send what diffing the whole
tree sends. Two sessions hold the same controls and get the same changes; one sends them
with `update_changed`, the other with `update()`. Each session's messages are applied to
a copy of its page, as a client applies them (companion/bench/flet_mirror.py), and the two
copies must match, with nothing left unsent on the server."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch, PatchOperation
from flet.messaging.protocol import MessageAction, decode_ext_from_msgpack

from companion.app.kit.changed_parts import changed_parts, update_changed
from companion.bench.flet_mirror import PageMirror

from .harness import AppHarness


class Tree:
    """The same controls in each session: nested parts, lists, an optional slot."""

    def __init__(self, clicks: list[str]) -> None:
        self.clicks = clicks
        self.deep = ft.Text("deep")
        self.slot = ft.Container(content=ft.Text("slot"))
        self.row = ft.Row([ft.Text("r0"), ft.Text("r1")])
        self.box = ft.Container(padding=ft.Padding.all(4), content=ft.Column(
            [ft.Container(content=self.deep), ft.Text("beside")]))
        self.empty = ft.Container()
        self.button = ft.TextButton("b")
        self.root = ft.Column([self.slot, self.row, self.box, self.empty, self.button])


def deep_text(tree: Tree) -> None:
    tree.deep.value = "changed"


def replace_content(tree: Tree) -> None:
    tree.slot.content = ft.TextButton("new", on_click=lambda: tree.clicks.append("new"))


def append_in_place(tree: Tree) -> None:
    tree.row.controls.append(ft.Text("r2"))


def reassign_list(tree: Tree) -> None:
    tree.row.controls = [tree.row.controls[-1], ft.Text("first")]


def nested_value(tree: Tree) -> None:
    tree.box.padding = ft.Padding.only(left=9)


def none_to_control(tree: Tree) -> None:
    tree.empty.content = ft.Column([ft.Text("filled")])


def handler(tree: Tree) -> None:
    tree.button.on_click = lambda: tree.clicks.append("b")


def two_places(tree: Tree) -> None:
    tree.deep.value = "again"
    tree.row.controls[0].value = "r-first"  # type: ignore[attr-defined]
    tree.empty.content = None


def colour_and_deep(tree: Tree) -> None:
    """A scalar change of a part and of a control under it (sent as replaces, the walk
    going on below the part)."""
    tree.box.bgcolor = "red"
    tree.deep.value = "under a colour"


def colour_and_list_below(tree: Tree) -> None:
    tree.box.bgcolor = "blue"
    tree.box.tooltip = "tip"
    column = tree.box.content
    assert isinstance(column, ft.Column)
    column.controls.append(ft.Text("more"))


def colour_and_structure(tree: Tree) -> None:
    """A scalar and a nested object of the same part: Flet diffs the part whole."""
    tree.box.bgcolor = None
    tree.box.padding = ft.Padding.all(2)


def colour_of_the_root(tree: Tree) -> None:
    tree.root.spacing = 3
    tree.slot.bgcolor = "green"


def nothing(tree: Tree) -> None:
    pass


STEPS: list[Callable[[Tree], None]] = [deep_text, replace_content, append_in_place,
                                       reassign_list, nested_value, none_to_control,
                                       handler, two_places, colour_and_deep,
                                       colour_and_list_below, colour_and_structure,
                                       colour_of_the_root, nothing]


def _without_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k != "_i"}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


class Client:
    def __init__(self) -> None:
        self.tree: Tree | None = None
        self.clicks: list[str] = []

        def main(page: ft.Page) -> None:
            self.tree = Tree(self.clicks)
            page.add(self.tree.root)

        self.app = AppHarness(main=main).start()

    def close(self) -> None:
        self.app.close()

    def patches(self) -> int:
        return sum(1 for m in self.app.conn.messages if m.action == MessageAction.PATCH_CONTROL)

    def mirror(self) -> Any:
        """The tree as a client holds it after every message so far, without control ids
        (each session numbers its own)."""
        conn = self.app.conn

        def decoded(i: int) -> Any:  # (paths are keyed by list index: int map keys)
            return msgpack.unpackb(conn.frames[i], ext_hook=decode_ext_from_msgpack,
                                   strict_map_key=False)

        action, body = decoded(0)
        assert action == MessageAction.REGISTER_CLIENT.value
        mirror = PageMirror(body["page_patch"])
        for i in range(1, len(conn.frames)):
            action, body = decoded(i)
            if action == MessageAction.PATCH_CONTROL.value:
                mirror.apply(body)
        assert self.tree is not None
        return _without_ids(mirror.control(self.tree.root._i))

    def send(self, step: Callable[[Tree], None], send: Callable[[BaseControl], None]) -> None:
        tree = self.tree
        assert tree is not None

        async def act() -> None:
            step(tree)
            send(tree.root)

        self.app._run(act())
        self.app.settle()


def test_the_parts_send_what_the_whole_diff_sends() -> None:
    parts, whole = Client(), Client()
    try:
        for step in STEPS:
            before = parts.patches()
            parts.send(step, update_changed)
            whole.send(step, lambda root: root.update())
            assert parts.mirror() == whole.mirror(), step.__name__
            assert parts.patches() - before == (0 if step is nothing else 1), step.__name__
            tree = parts.tree
            assert tree is not None
            # Nothing left for a whole diff to send.
            patch, added, removed = ObjectPatch.from_diff(
                tree.root, tree.root, control_cls=BaseControl)
            assert (patch.patch, added, removed) == ([], [], []), step.__name__
        # Controls added by a part are indexed and mounted: their events arrive.
        assert parts.tree is not None
        parts.app.click("new")
        parts.app.click("b")
        assert parts.clicks == ["new", "b"]
    finally:
        parts.close()
        whole.close()


def test_only_the_changed_parts_are_diffed() -> None:
    client = Client()
    try:
        tree = client.tree
        assert tree is not None
        assert changed_parts(tree.root) == []
        tree.deep.value = "x"
        tree.row.controls.append(ft.Text("r2"))
        found = [(part, path) for part, _parent, path, _whole in changed_parts(tree.root)]
        assert found == [(tree.row, ["controls", 1]),
                         (tree.deep, ["controls", 2, "content", "controls", 0, "content"])]
        client.send(nothing, update_changed)
        assert changed_parts(tree.root) == []
        # A part with scalar changes only is not diffed whole: the walk goes on below it.
        tree.box.bgcolor = "red"
        tree.deep.value = "y"
        tree.row.controls.append(ft.Text("r3"))
        found_whole = [(part, whole) for part, _parent, _path, whole
                       in changed_parts(tree.root)]
        assert found_whole == [(tree.row, True), (tree.box, False), (tree.deep, False)]
        client.send(nothing, update_changed)
        assert changed_parts(tree.root) == []
    finally:
        client.close()


def test_a_patch_message_is_not_formatted_whole() -> None:
    """flet_web's send_message formats every message it sends in an f-string for its debug
    log, debug on or not: the patch's repr must not format the controls it adds."""
    client = Client()
    try:
        client.send(replace_content, update_changed)
        sent = [m for m in client.app.conn.messages
                if m.action == MessageAction.PATCH_CONTROL][-1]
        assert "TextButton" in repr(sent.body)  # what a whole repr would format
        text = f"{sent}"
        assert "TextButton" not in text and len(text) < 80, text
    finally:
        client.close()


def test_an_update_leaves_no_operation_in_a_reference_cycle() -> None:
    """Flet's diff builder keeps its operations in a doubly linked list that its teardown
    leaves linked: every operation of every client's update was garbage in a cycle,
    freed only by the collector (and the reason it ran, table mode's issue 23)."""
    client = Client()
    try:
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            client.send(two_places, update_changed)  # several operations in one patch
            gc.collect()
            left = [o for o in gc.garbage if isinstance(o, PatchOperation)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert left == []
    finally:
        client.close()
