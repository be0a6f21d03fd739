"""resolve_data_dir: --data-dir > $VILLAGE_COMPANION_DATA_DIR > $FLET_APP_STORAGE_DATA > default."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.store import paths
from companion.store.paths import ENV_DATA_DIR, ENV_FLET_DATA, resolve_data_dir


@pytest.fixture
def default_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    default = tmp_path / "platform-default"
    monkeypatch.setattr(paths, "user_data_dir", lambda *args, **kwargs: str(default))
    monkeypatch.delenv(ENV_DATA_DIR, raising=False)
    monkeypatch.delenv(ENV_FLET_DATA, raising=False)
    return default


def test_priority_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        default_dir: Path) -> None:
    assert resolve_data_dir() == default_dir
    monkeypatch.setenv(ENV_FLET_DATA, str(tmp_path / "flet"))
    assert resolve_data_dir() == tmp_path / "flet"
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    assert resolve_data_dir() == tmp_path / "env"
    assert resolve_data_dir(str(tmp_path / "cli")) == tmp_path / "cli"
    for name in ("platform-default", "flet", "env", "cli"):
        assert (tmp_path / name).is_dir()  # each was created when chosen


def test_empty_values_count_as_unset(monkeypatch: pytest.MonkeyPatch, default_dir: Path) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, "")
    monkeypatch.setenv(ENV_FLET_DATA, "")
    assert resolve_data_dir("") == default_dir


def test_user_and_relative_paths_become_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 default_dir: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert resolve_data_dir("~/vc") == tmp_path / "home" / "vc"
    monkeypatch.chdir(tmp_path)
    result = resolve_data_dir("rel/data")
    assert result.is_absolute() and result == tmp_path / "rel" / "data" and result.is_dir()


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME keeps it inside tmp")
def test_real_platform_default_is_named_for_the_app(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.delenv(ENV_DATA_DIR, raising=False)
    monkeypatch.delenv(ENV_FLET_DATA, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # Linux: keep it in tmp
    result = resolve_data_dir()
    assert result.name == "village-companion"
    assert result.is_dir()
