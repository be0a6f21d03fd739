"""run_app's guarded server wiring without serving: Flet's ASGI app goes behind the guard,
the allow options reach the policy, and the store is closed however serving ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app import launch
from companion.app.page_language import StoreLanguage
from companion.app.store_access import AsyncStore
from companion.web.connection_banner import ConnectionBanner
from companion.web.font_fallback import FontFallbackRedirect
from companion.web.server_guard import HostOriginGuard


class Recorder:
    def __init__(self) -> None:
        self.flet_calls: list[dict[str, Any]] = []
        self.served: list[tuple[Any, str, int]] = []
        self.closed = 0


@pytest.fixture
def rec(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    # run_app sets FLET_WEB_NO_CDN/FLET_FORCE_WEB_SERVER: setenv first so they are undone
    for var in ("FLET_PLATFORM", "FLET_SERVER_IP", "FLET_SERVER_PORT", "FLET_WEB_NO_CDN",
                "FLET_FORCE_WEB_SERVER"):
        monkeypatch.setenv(var, "")
        monkeypatch.delenv(var)
    r = Recorder()
    asgi_app = object()

    def fake_run(main: Any, **kw: Any) -> Any:
        r.flet_calls.append(kw)
        return asgi_app if kw.get("export_asgi_app") else None

    def fake_serve(app: Any, host: str, port: int, on_started: Any = None) -> None:
        r.served.append((app, host, port))

    original_close = AsyncStore.close

    def close(self: AsyncStore) -> None:
        r.closed += 1
        original_close(self)

    monkeypatch.setattr(launch.ft, "run", fake_run)
    monkeypatch.setattr(launch, "serve", fake_serve)
    monkeypatch.setattr(AsyncStore, "close", close)
    return r


def test_flets_asgi_app_is_served_behind_the_guard(rec: Recorder, tmp_path: Path) -> None:
    assert launch.run_app(port=8125, data_dir=str(tmp_path), allow_hosts=["box.local"],
                          allow_origins=["https://games.example.org"]) == 0
    (kwargs,) = rec.flet_calls
    assert kwargs["export_asgi_app"] is True and kwargs["no_cdn"] is True
    assert Path(kwargs["assets_dir"]).is_dir()
    ((app, host, port),) = rec.served
    assert (host, port) == ("127.0.0.1", 8125)
    assert isinstance(app, HostOriginGuard)
    assert isinstance(app.app, ConnectionBanner)  # the page carries the connection banner
    assert isinstance(app.app.language, StoreLanguage)
    assert isinstance(app.app.app, launch.AfterFirstAnswer)  # warm-up after Flet's answer
    # Flutter's fallback-font requests get the shipped fonts, not 404 (issue 23)
    assert isinstance(app.app.app.app, FontFallbackRedirect)
    assert {"127.0.0.1:8125", "localhost:8125", "[::1]:8125", "box.local:8125",
            "box.local"} == app.policy.hosts
    assert "https://games.example.org" in app.policy.origins
    assert rec.closed == 1


@pytest.mark.parametrize("ending", [KeyboardInterrupt, RuntimeError])
def test_store_is_closed_however_serving_ends(rec: Recorder, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              ending: type[BaseException]) -> None:
    def failing_serve(*_: Any, **__: Any) -> None:
        raise ending()

    monkeypatch.setattr(launch, "serve", failing_serve)
    if ending is KeyboardInterrupt:
        assert launch.run_app(data_dir=str(tmp_path)) == 0
    else:
        with pytest.raises(ending):
            launch.run_app(data_dir=str(tmp_path))
    assert rec.closed == 1


def test_packaged_app_keeps_flets_own_transport(rec: Recorder, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FLET_PLATFORM", "android")
    assert launch.run_app(data_dir=str(tmp_path)) == 0
    (kwargs,) = rec.flet_calls
    assert "export_asgi_app" not in kwargs and rec.served == []
    assert capsys.readouterr().out == ""


def test_specific_bind_address_is_allowed_and_wildcard_gets_a_hint(
        rec: Recorder, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    launch.run_app(host="192.168.1.20", port=8126, data_dir=str(tmp_path))
    assert "192.168.1.20:8126" in rec.served[-1][0].policy.hosts
    assert "http://192.168.1.20:8126/" in capsys.readouterr().out
    launch.run_app(host="0.0.0.0", port=8126, data_dir=str(tmp_path))
    assert not any(h.startswith("0.0.0.0") for h in rec.served[-1][0].policy.hosts)
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8126/" in out and "--allow-host" in out


def test_flet_env_overrides_are_honoured(rec: Recorder, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLET_SERVER_PORT", "8127")
    launch.run_app(port=8550, data_dir=str(tmp_path))
    assert rec.served[-1][2] == 8127
    assert "localhost:8127" in rec.served[-1][0].policy.hosts


def test_cli_passes_allow_options_canonical(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import cli

    seen: list[dict[str, Any]] = []

    def run_app(**kw: Any) -> int:
        seen.append(kw)
        return 0

    monkeypatch.setattr(launch, "run_app", run_app)
    assert cli.main(["--host", "0.0.0.0", "--allow-host", "Box.Local",
                     "--allow-host", "fe80::1", "--allow-origin", "HTTPS://Games.Example.org/"]
                    ) == 0
    assert seen == [{"host": "0.0.0.0", "port": 8550, "data_dir": None,
                     "allow_hosts": ("box.local", "[fe80::1]"),
                     "allow_origins": ("https://games.example.org",), "share": None}]


@pytest.mark.parametrize("args", [["--allow-host", "*"], ["--allow-origin", "evil.example"],
                                  ["--allow-origin", "https://x.org/path"]])
def test_cli_rejects_malformed_allow_options(args: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from companion import cli

    with pytest.raises(SystemExit) as exited:
        cli.main(args)
    assert exited.value.code == 2
    assert "--allow-" in capsys.readouterr().err
