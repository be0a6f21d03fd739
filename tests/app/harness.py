"""Headless, in-process harness for the Flet app (pins flet 1.0.5 internals).

A real `flet.messaging.session.Session` runs over `RecordingConnection`, an in-memory
Connection that msgpack-encodes every outgoing message with flet's own encoder. That is
not optional: flet records its diff snapshots (`__prev_lists` ...) while encoding, and
without it later changes are silently never diffed. `FakeClient` answers the client
round trips a browser would (device info, push_route, wakelock, clipboard, share), so
code paths that await the client complete here too.

Events are dispatched by control id exactly as the web server does. After every action
the harness waits until the app is idle and then fails the test if the app crashed
(SESSION_CRASHED) or left changes unsent (a control changed but never updated), which is
what a real client would show as a stale screen.

    with AppHarness(store) as app:
        app.click("Settings")
        app.select_radio("한국어")
        assert "설정" in app.visible_texts()
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page, context
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    InvokeMethodRequestBody,
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
    decode_ext_from_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app.kit.text_fit import WORD_JOINER
from companion.app.routing import RouteSpec
from companion.app.shell import build_main
from companion.app.store_access import AsyncStore
from companion.store.base import SessionStore

logger = logging.getLogger(__name__)
C = TypeVar("C", bound=BaseControl)  # a control class, for find_as

AppMain = Callable[[ft.Page], Awaitable[None] | None]


class HarnessError(AssertionError):
    pass


# -- transport -------------------------------------------------------------------------


class RecordingConnection(Connection):
    def __init__(self, loop: asyncio.AbstractEventLoop, executor: ThreadPoolExecutor,
                 on_invoke: Callable[[InvokeMethodRequestBody], None]) -> None:
        super().__init__()
        self.loop = loop
        self.executor = executor
        self.pubsubhub = PubSubHub(loop=loop, executor=executor)
        self.page_url = "http://127.0.0.1:8550"
        self.page_name = ""
        self.messages: list[Message] = []
        self.frames: list[bytes] = []
        self._encode = configure_encode_object_for_msgpack(BaseControl)
        self._on_invoke = on_invoke

    def send_message(self, message: Message) -> None:
        # Encode like FletApp.send_message does; this also records flet's diff snapshots.
        frame = msgpack.packb([message.action, message.body], default=self._encode)
        self.frames.append(frame)
        self.messages.append(message)
        if message.action == MessageAction.INVOKE_METHOD:
            self._on_invoke(message.body)

    def decoded(self, index: int) -> Any:
        return msgpack.unpackb(self.frames[index], ext_hook=decode_ext_from_msgpack)

    def crashes(self) -> list[str]:
        return [m.body.message for m in self.messages
                if m.action == MessageAction.SESSION_CRASHED]


# -- the fake browser ------------------------------------------------------------------


@dataclass
class Invocation:
    control_type: str
    name: str
    args: Any


@dataclass
class FakeClient:
    """What the Flutter web client would answer. Tweak before `start()`."""

    locales: Sequence[str] = ("en-US",)
    width: float = 360
    height: float = 800
    platform: str = "linux"
    brightness: str = "light"
    initial_route: str = "/"
    unanswered: set[str] = field(default_factory=set)  # method names never answered
    delays: dict[str, float] = field(default_factory=dict)  # method name -> seconds
    invocations: list[Invocation] = field(default_factory=list)
    clipboard: str | None = None
    wakelock_on: bool = False

    def page_props(self) -> dict[str, Any]:
        return {
            "route": self.initial_route,
            "web": True,
            "platform": self.platform,
            "platform_brightness": self.brightness,
            "width": self.width,
            "height": self.height,
        }

    def device_info(self) -> dict[str, Any]:
        locales = []
        for tag in self.locales:
            parts = tag.replace("_", "-").split("-")
            loc: dict[str, Any] = {"language_code": parts[0]}
            for part in parts[1:]:
                if len(part) == 4:
                    loc["script_code"] = part
                else:
                    loc["country_code"] = part
            locales.append(loc)
        return {
            "browser_name": "chrome",
            "locales": locales,
            "language": self.locales[0] if self.locales else None,
            "languages": list(self.locales),
            "platform": "Linux x86_64",
            "user_agent": "Mozilla/5.0 (X11; Linux x86_64) harness",
        }

    def answer(self, control_type: str, name: str, args: Any) -> Any:
        self.invocations.append(Invocation(control_type, name, args))
        if (control_type, name) == ("Page", "get_device_info"):
            return self.device_info()
        if control_type == "Wakelock":
            if name in ("enable", "disable"):
                self.wakelock_on = name == "enable"
                return None
            return self.wakelock_on
        if (control_type, name) == ("Clipboard", "set"):
            self.clipboard = (args or {}).get("data")
            return None
        if (control_type, name) == ("Share", "share_text"):
            return {"status": "success", "raw": "harness"}
        return None

    def calls(self, control_type: str, name: str | None = None) -> list[Invocation]:
        return [i for i in self.invocations
                if i.control_type == control_type and (name is None or i.name == name)]


# -- the harness -----------------------------------------------------------------------


# Coroutines that wait on the user or the clock, never on the app: a question on screen
# (table mode's "Act for Ann?") and a message's few seconds on screen (MessageStrip).
IDLE_WAITS = frozenset({"waiting_for_the_user", "hide_after"})


def _waits_for_the_user(task: asyncio.Task[Any]) -> bool:
    """A task waiting for an answer to a question on screen, or for a message's seconds
    to pass, is idle, as a real client waiting for a finger is."""
    awaited: Any = task.get_coro()
    for _ in range(64):
        code = getattr(awaited, "cr_code", None)
        if code is None:
            return False
        if code.co_name in IDLE_WAITS:
            return True
        awaited = getattr(awaited, "cr_await", None)
    return False


class AppHarness:
    def __init__(self, store: SessionStore | None = None, *, main: AppMain | None = None,
                 routes: Mapping[str, RouteSpec] | None = None,
                 client: FakeClient | None = None, strict: bool = True,
                 settle_timeout: float = 5.0) -> None:
        """The real app over `store` (optionally with extra `routes`), or any `main`."""
        if main is None:
            if store is None:
                raise ValueError("give a store (for the real app) or a main")
            self._astore: AsyncStore | None = AsyncStore(store)
            main = build_main(self._astore, routes)
        else:
            self._astore = None
        self._main = main
        self.client = client or FakeClient()
        self.strict = strict
        self.settle_timeout = settle_timeout
        self.loop = asyncio.new_event_loop()
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="harness")
        self.conn = RecordingConnection(self.loop, self._executor, self._on_invoke)
        self.session: Session | None = None
        self._started = False
        self._event_tasks: set[asyncio.Task[None]] = set()
        self._dismissed: set[int] = set()  # dialogs whose dismissal the client reported
        # The client reports a closed dialog's dismissal (False: a client that never does,
        # or a test that reports it by hand to control the order).
        self.client_dismisses = True

    # -- lifecycle -----------------------------------------------------------------------

    def __enter__(self) -> AppHarness:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def page(self) -> ft.Page:
        assert self.session is not None, "call start() first"
        return self.session.page

    def start(self) -> AppHarness:
        self._run(self._register_and_run_main())
        self._started = True
        self.settle()
        return self

    def close(self) -> None:
        pending = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()
        self._executor.shutdown(wait=True)
        if self._astore is not None:
            self._astore.close()

    async def _register_and_run_main(self) -> None:
        # Mirrors flet_web FletApp: REGISTER_CLIENT, then the session-created handler.
        self.session = Session(self.conn)
        page = self.session.page
        _context_page.set(page)
        self.session.apply_page_patch(self.client.page_props())
        page.client_ip = "127.0.0.1"
        page.client_user_agent = "harness"
        self.conn.send_message(Message(
            MessageAction.REGISTER_CLIENT,
            RegisterClientResponseBody(session_id=self.session.id,
                                       page_patch=self.session.get_page_patch(), error=""),
        ))
        context.reset_auto_update()
        result = self._main(page)
        if inspect.isawaitable(result):
            await result
        await self.session.after_event(page)

    # -- running the loop ------------------------------------------------------------------

    def _run(self, coro: Awaitable[Any]) -> Any:
        return self.loop.run_until_complete(coro)

    def settle(self) -> None:
        """Run the loop until no app task is pending, then check what the client saw."""

        async def wait_idle() -> None:
            deadline = self.loop.time() + self.settle_timeout
            quiet_rounds = 0
            while quiet_rounds < 3:
                me = asyncio.current_task()
                pending = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                           and "updates_scheduler" not in repr(t.get_coro())
                           and not _waits_for_the_user(t)]
                if not pending:
                    if self._dismiss_closed_dialogs():
                        quiet_rounds = 0
                        continue
                    quiet_rounds += 1
                    await asyncio.sleep(0)
                    continue
                quiet_rounds = 0
                if self.loop.time() > deadline:
                    names = ", ".join(repr(t.get_coro()) for t in pending)
                    raise HarnessError(f"app still busy after {self.settle_timeout}s: {names}")
                await asyncio.wait(pending, timeout=0.02)

        self._run(wait_idle())
        crashes = self.conn.crashes()
        if crashes:
            raise HarnessError("app crashed:\n" + "\n".join(crashes))
        if self.strict and self._started:
            self.assert_synced()

    def _dismiss_closed_dialogs(self) -> bool:
        """What the web client does once a dialog's close animation ends: it reports the
        dismissal (Flet then unmounts the dialog). True when it reported one."""
        if self.session is None or not self._started or not self.client_dismisses:
            return False
        dialogs = getattr(self.page, "_dialogs", None)
        closed = [d for d in (dialogs.controls if dialogs is not None else [])
                  if not d.open and d._i not in self._dismissed]
        for dialog in closed:
            self._dismissed.add(dialog._i)
            task = self.loop.create_task(
                self.session.dispatch_event(dialog._i, "dismiss", None))
            self._event_tasks.add(task)
            task.add_done_callback(self._event_tasks.discard)
        return bool(closed)

    def _on_invoke(self, body: InvokeMethodRequestBody) -> None:
        # A real client answers asynchronously; so do we (optionally slowly).
        self.loop.call_later(self.client.delays.get(body.name, 0.0), self._answer, body)

    def _answer(self, body: InvokeMethodRequestBody) -> None:
        assert self.session is not None
        control = self.session.index.get(body.control_id)
        control_type = getattr(control, "_c", type(control).__name__)
        if body.name in self.client.unanswered:
            self.client.invocations.append(Invocation(control_type, body.name, body.args))
            return
        result = self.client.answer(control_type, body.name, body.args)
        self.session.handle_invoke_method_results(body.control_id, body.call_id, result, None)
        if (control_type, body.name) == ("Page", "push_route"):
            # The browser changes its URL and reports the route back.
            self._client_route_change((body.args or {}).get("route", "/"))

    def _client_route_change(self, route: str) -> None:
        assert self.session is not None
        self.session.apply_page_patch({"route": route})
        self.loop.create_task(
            self.session.dispatch_event(self.page._i, "route_change", {"route": route}))

    # -- the control tree ------------------------------------------------------------------

    def walk(self, root: Any | None = None, *, visible_only: bool = False
             ) -> Iterator[tuple[BaseControl, tuple[BaseControl, ...]]]:
        """(control, ancestors) for every control under `root` (default: the page)."""
        seen: set[int] = set()

        def visit(value: Any, ancestors: tuple[BaseControl, ...]
                  ) -> Iterator[tuple[BaseControl, tuple[BaseControl, ...]]]:
            if id(value) in seen:
                return
            if isinstance(value, BaseControl):
                seen.add(id(value))
                if visible_only and getattr(value, "visible", True) is False:
                    return
                yield value, ancestors
                ancestors = (*ancestors, value)
                for f in dataclasses.fields(value):
                    if f.name == "_parent" or f.metadata.get("skip"):
                        continue
                    yield from visit(getattr(value, f.name, None), ancestors)
            elif isinstance(value, list | tuple):
                for item in value:
                    yield from visit(item, ancestors)
            elif isinstance(value, dict):
                for item in value.values():
                    yield from visit(item, ancestors)
            elif dataclasses.is_dataclass(value) and not isinstance(value, type):
                for f in dataclasses.fields(value):
                    yield from visit(getattr(value, f.name, None), ancestors)

        yield from visit(self.page if root is None else root, ())

    def screen_roots(self) -> list[BaseControl]:
        """What the user sees: the top view, the overlay (the message strip) and any open
        dialogs."""
        roots: list[BaseControl] = []
        if self.page.views:
            roots.append(self.page.views[-1])
        roots += list(self.page.overlay)
        roots += [d for d in self.page._dialogs.controls if getattr(d, "open", False)]
        return roots

    @staticmethod
    def own_texts(control: BaseControl) -> list[str]:
        texts = []
        for name in ("value", "content", "label", "tooltip", "text", "title", "hint_text"):
            value = getattr(control, name, None)
            if isinstance(value, str) and value:
                if name == "value" and not isinstance(control, ft.Text):
                    continue  # a RadioGroup's value is data, not visible text
                texts.append(value.replace(WORD_JOINER, ""))  # drawn as nothing
        return texts

    def toasts(self) -> list[str]:
        """The words of the message on screen (kit/message_strip, in the page's overlay:
        the live region's text), if any."""
        out = []
        for host in self.page.overlay:
            for control, _ in self.walk(host, visible_only=True):
                if (isinstance(control, ft.Semantics) and control.live_region
                        and isinstance(control.content, ft.Text)):
                    out.append(str(control.content.value).replace(WORD_JOINER, ""))
        return out

    def visible_texts(self) -> list[str]:
        return [text for root in self.screen_roots()
                for control, _ in self.walk(root, visible_only=True)
                for text in self.own_texts(control)]

    def find_all(self, text: str | None = None, *, key: str | None = None,
                 identifier: str | None = None, control_type: type | None = None,
                 exact: bool = True, visible_only: bool = True
                 ) -> list[tuple[BaseControl, tuple[BaseControl, ...]]]:
        roots = self.screen_roots() if visible_only else [self.page]
        hits = []
        for root in roots:
            for control, ancestors in self.walk(root, visible_only=visible_only):
                if control_type is not None and not isinstance(control, control_type):
                    continue
                if key is not None and control.key != key:
                    continue
                if identifier is not None and getattr(control, "identifier", None) != identifier:
                    continue
                if text is not None:
                    texts = self.own_texts(control)
                    if not (text in texts if exact else any(text in t for t in texts)):
                        continue
                hits.append((control, ancestors))
        return hits

    def find(self, text: str | None = None, **kwargs: Any) -> BaseControl:
        hits = self.find_all(text, **kwargs)
        if len(hits) != 1:
            raise HarnessError(f"expected one control for {text!r} {kwargs}, found "
                               f"{len(hits)}; visible texts: {self.visible_texts()}")
        return hits[0][0]

    def find_as(self, kind: type[C], text: str | None = None, **kwargs: Any) -> C:
        """find among the controls of class `kind` only, typed as one (for the checks
        that read its properties: a Chip's `selected`, a TextField's `error`)."""
        control = self.find(text, control_type=kind, **kwargs)
        assert isinstance(control, kind)  # find_all kept only `kind`s
        return control

    def _target(self, text: str | None, event: str, **kwargs: Any) -> BaseControl:
        hits = self.find_all(text, **kwargs)
        targets = []
        for control, ancestors in hits:
            for candidate in (control, *reversed(ancestors)):
                if getattr(candidate, f"on_{event}", None) is not None:
                    targets.append(candidate)
                    break
        unique = {id(t): t for t in targets}
        if len(unique) != 1:
            raise HarnessError(f"expected one {event}-able control for {text!r} {kwargs}, "
                               f"found {len(unique)}; visible texts: {self.visible_texts()}")
        target = next(iter(unique.values()))
        if getattr(target, "disabled", False):
            raise HarnessError(f"{target} is disabled")
        return target

    # -- user actions ----------------------------------------------------------------------

    def dispatch(self, control: BaseControl, event: str, data: Any = None) -> None:
        assert self.session is not None
        if control is not self.page and not any(c is control for c, _ in self.walk()):
            raise HarnessError(f"{control} is no longer on the page (find it again)")
        # As flet's web server does: each event runs in a task of its own (a handler that
        # waits for the user's answer to a question must not hold the next tap back).
        session = self.session

        async def start() -> None:
            task = asyncio.get_running_loop().create_task(
                session.dispatch_event(control._i, event, data))
            self._event_tasks.add(task)
            task.add_done_callback(self._event_tasks.discard)

        self._run(start())
        self.settle()

    def click(self, text: str | None = None, **kwargs: Any) -> None:
        """Tap the control showing `text` (or its nearest tappable ancestor)."""
        self.dispatch(self._target(text, "click", **kwargs), "click")

    def set_value(self, control: BaseControl, value: Any, event: str = "change") -> None:
        """What the client does for an input: update the prop, then fire the event."""
        assert self.session is not None
        self.session.apply_patch(control._i, {"value": value})
        self.dispatch(control, event, value if not isinstance(value, bool) else str(value))

    def type_into(self, label: str, text: str) -> None:
        field_control = self.find(label, control_type=ft.TextField)
        self.set_value(field_control, text)

    def select_radio(self, label: str) -> None:
        hits = self.find_all(label, control_type=ft.Radio)
        if len(hits) != 1:
            raise HarnessError(f"expected one radio {label!r}, found {len(hits)}")
        radio, ancestors = cast(ft.Radio, hits[0][0]), hits[0][1]
        group = next(a for a in reversed(ancestors) if isinstance(a, ft.RadioGroup))
        self.set_value(group, radio.value)

    def toggle_switch(self, label: str) -> None:
        """The switch labelled `label` (its own label or an enclosing Semantics label)."""
        hits = [c for root in self.screen_roots()
                for c, ancestors in self.walk(root, visible_only=True)
                if isinstance(c, ft.Switch) and (c.label == label or any(
                    isinstance(a, ft.Semantics) and a.label == label for a in ancestors))]
        if len(hits) != 1:
            raise HarnessError(f"expected one switch {label!r}, found {len(hits)}")
        switch = cast(ft.Switch, hits[0])
        self.set_value(switch, not switch.value)

    def set_route(self, route: str) -> None:
        """The user typed a URL or used browser back/forward."""
        self._client_route_change(route)
        self.settle()

    def back(self) -> None:
        """The AppBar back arrow / Android back: a view pop of the top view."""
        top = self.page.views[-1]
        self.dispatch(self.page, "view_pop", {"route": top.route})

    # -- consistency -----------------------------------------------------------------------

    def assert_synced(self) -> None:
        """Every control the user can see was sent, with no unsent property changes."""
        assert self.session is not None
        problems = []
        for root in [self.page, *self.screen_roots()]:
            for control, _ in self.walk(root):
                if control._i not in self.session.index:
                    problems.append(f"{control} is on the page but was never sent")
                elif control._dirty:
                    problems.append(f"{control} has unsent changes {sorted(control._dirty)}")
        if problems:
            raise HarnessError("client is out of date (missing update()):\n"
                               + "\n".join(sorted(set(problems))[:20]))
