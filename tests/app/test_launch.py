"""run_app wiring without serving: ft.run is replaced by a recorder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.app import launch


def test_assets_dir_holds_the_icon() -> None:
    assert (launch.assets_dir() / "icon.png").is_file()


def test_run_app_serves_web_without_cdn(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    for var in ("FLET_WEB_NO_CDN", "FLET_FORCE_WEB_SERVER", "FLET_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(launch.ft, "run", lambda main, **kw: calls.append(kw))
    assert launch.run_app(host="127.0.0.1", port=8123, data_dir=str(tmp_path / "d")) == 0
    (kwargs,) = calls
    assert kwargs["no_cdn"] is True and kwargs["view"] == ft.AppView.WEB_BROWSER
    assert (kwargs["host"], kwargs["port"]) == ("127.0.0.1", 8123)
    assert Path(kwargs["assets_dir"]).is_dir()
    import os

    assert os.environ["FLET_WEB_NO_CDN"] == "true"
    assert os.environ["FLET_FORCE_WEB_SERVER"] == "true"
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out
    assert (tmp_path / "d").is_dir()  # the real store opened its data dir


def test_packaged_app_keeps_flet_transport(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLET_PLATFORM", "android")
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    launch.configure_web_environment()
    import os

    assert "FLET_FORCE_WEB_SERVER" not in os.environ


def test_unopenable_store_is_an_error_exit(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    def broken(_: str | None) -> None:
        raise PermissionError("no access")

    monkeypatch.setattr(launch, "open_store", broken)
    monkeypatch.setattr(launch.ft, "run", lambda *a, **k: pytest.fail("must not serve"))
    assert launch.run_app(data_dir="/nope") == 1
    assert "no access" in capsys.readouterr().err


def test_cli_starts_the_app_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import cli

    seen: list[dict[str, object]] = []

    def run_app(**kw: Any) -> int:
        seen.append(kw)
        return 0

    monkeypatch.setattr(launch, "run_app", run_app)
    assert cli.main(["--port", "8124"]) == 0
    # Sharing is never the default: share=None serves 127.0.0.1 only.
    assert seen == [{"host": "127.0.0.1", "port": 8124, "data_dir": None,
                     "allow_hosts": (), "allow_origins": (), "share": None}]


def test_cli_app_import_failure_is_loud(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken install must fail with its error, never pass for "not built yet"."""
    import sys

    from companion import cli

    monkeypatch.setitem(sys.modules, "companion.app.launch", None)  # import raises
    with pytest.raises(ImportError):
        cli.main([])
