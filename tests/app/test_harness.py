"""The harness itself: it must catch what a real client would show wrong."""

from __future__ import annotations

import asyncio

import flet as ft
import msgpack
import pytest

from companion.app.device import DeviceServices

from .conftest import ProblemStore
from .harness import AppHarness, FakeClient, HarnessError


def test_every_frame_is_valid_msgpack(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        app.click("Settings")
        assert app.conn.frames
        for frame in app.conn.frames:
            assert isinstance(msgpack.unpackb(frame, strict_map_key=False), list)


def test_unsent_change_is_caught() -> None:
    label = ft.Text("before")

    async def main(page: ft.Page) -> None:
        async def change_without_update() -> None:
            label.value = "after"  # forgot label.update()

        page.add(label, ft.Button("go", on_click=lambda: asyncio.get_running_loop()
                                  .create_task(change_without_update())))

    with AppHarness(main=main) as app, pytest.raises(HarnessError, match="unsent"):
        app.click("go")


def test_crash_in_handler_fails_the_test() -> None:
    def boom() -> None:
        raise RuntimeError("handler exploded")

    def main(page: ft.Page) -> None:
        page.add(ft.Button("explode", on_click=boom))

    with AppHarness(main=main) as app, pytest.raises(HarnessError, match="exploded"):
        app.click("explode")


def test_stale_control_is_refused() -> None:
    def main(page: ft.Page) -> None:
        def replace() -> None:
            page.controls[:] = [ft.Button("new", on_click=replace)]

        page.add(ft.Button("old", on_click=replace))

    with AppHarness(main=main) as app:
        old = app.find("old")
        app.click("old")
        with pytest.raises(HarnessError, match="no longer on the page"):
            app.dispatch(old, "click")


def test_device_helpers_round_trip() -> None:
    copied: list[bool] = []
    holder: dict[str, DeviceServices] = {}
    actions: list[ft.ClientAction] = []

    def main(page: ft.Page) -> None:
        holder["d"] = DeviceServices(page, on_copied=lambda: copied.append(True))
        actions.append(holder["d"].share_action("x"))  # needs the page context
        page.add(
            ft.Button("awake", on_click=lambda: holder["d"].keep_screen_on(True)),
            ft.Button("buzz", on_click=lambda: holder["d"].haptic("heavy")),
            ft.Button("share", on_click=lambda: holder["d"].share_text("score: 42")),
        )

    with AppHarness(main=main) as app:
        app.click("awake")
        assert app.client.wakelock_on
        app.click("buzz")  # a desktop browser has nothing to vibrate: no round trip
        assert app.client.calls("HapticFeedback") == []
        app.click("share")  # desktop browser: no share sheet, so clipboard
        assert app.client.clipboard == "score: 42" and copied == [True]
        assert isinstance(actions[-1], ft.CopyToClipboard)

    with AppHarness(main=main, client=_phone()) as phone:
        phone.click("buzz")
        assert phone.client.calls("HapticFeedback", "heavy_impact")
        phone.click("share")
        assert phone.client.calls("Share", "share_text")
        assert phone.client.clipboard is None
        assert isinstance(actions[-1], ft.ShareText)


def _phone() -> FakeClient:
    return FakeClient(platform="android")
