"""The wheel is complete: built from the project, installed NON-editable into a fresh venv
and run from outside the repository, it finds its catalogues and its assets inside the
installed package and serves them.

Slow-ish (a wheel build, a venv, a server start: about 10-20 s) and it needs PyPI for the
build backend (pip's build isolation fetches setuptools), so it runs only with
VILLAGE_WHEEL_CHECK=1; .ci/run sets it. By hand:

    VILLAGE_WHEEL_CHECK=1 .venv/bin/pytest -q -p no:cacheprovider tests/packaging

How: the project is copied to a temp dir and built there (`pip wheel --no-deps`): an
in-place build would write build/lib into the repository's build/ folder (flet build's) and
could pick up stale files from it. The wheel goes with `--no-deps` into a venv made
`--without-pip`, whose only view of the dependencies is a .pth line naming this venv's
site-packages: a plain path on sys.path, so the editable install's finder there (which maps
`companion` to the repository) is never activated. Everything then runs with the fresh
venv's python, from a temp working directory, with `-I` (no PYTHONPATH, no script or
working directory on sys.path).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e.conftest import free_port, wait_for_http

from companion.app.theme import WEB_FONTS
from companion.i18n import SUPPORTED_LANGUAGES, Translator
from companion.web.icon_font import ICON_FONT_ASSET
from companion.web.manifest import ICONS

ENV_FLAG = "VILLAGE_WHEEL_CHECK"
REPO = Path(__file__).resolve().parents[2]
# Keys whose text must come out translated (not the key itself) in every language.
KNOWN_KEYS = ("home.settings", "home.resume.heading")
# Not part of the source a wheel is built from: hidden folders (.git, .venv, caches), build
# output (build/ is also flet build's folder), test material.
SKIPPED = {"build", "dist", "test-artifacts", "tests", "__pycache__"}

pytestmark = pytest.mark.skipif(os.environ.get(ENV_FLAG) != "1",
                                reason=f"wheel check: set {ENV_FLAG}=1 (.ci/run does)")

PROBE = r"""
import json, sys
import companion
from companion.app.launch import assets_dir
from companion.app.theme import WEB_FONTS
from companion.i18n import SUPPORTED_LANGUAGES, Translator, locales_dir

locales, assets = locales_dir(), assets_dir()
print(json.dumps({
    "companion": companion.__file__,
    "locales": str(locales),
    "assets": str(assets),
    "po_files": sorted(str(p.relative_to(locales)) for p in locales.rglob("*.po")),
    "asset_files": sorted(str(p.relative_to(assets)) for p in assets.rglob("*")
                          if p.is_file() and p.suffix not in (".py", ".pyc")),
    "fonts_found": {family: (assets / path).is_file() for family, path in WEB_FONTS.items()},
    "texts": {lang: {key: Translator(lang).t(key) for key in sys.argv[1:]}
              for lang in SUPPORTED_LANGUAGES},
    "plurals": {lang: [Translator(lang).tn("history.count", n, count=n) for n in (1, 2)]
                for lang in SUPPORTED_LANGUAGES},
}))
"""


@dataclass
class Installed:
    venv: Path
    site: Path      # the fresh venv's site-packages
    workdir: Path   # somewhere that is not the repository
    env: dict[str, str]

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


def _ignore(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n.startswith(".") or n in SKIPPED or n.endswith(".egg-info")}


def _run(*cmd: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, f"{cmd} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _clean_env() -> dict[str, str]:
    """This environment minus whatever could point the app back at the repository."""
    return {k: v for k, v in os.environ.items()
            if k != "PYTHONPATH" and not k.startswith(("VILLAGE_COMPANION_", "FLET_"))}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    tmp = tmp_path_factory.mktemp("wheel")
    source, dist, venv, workdir = tmp / "source", tmp / "dist", tmp / "venv", tmp / "elsewhere"
    shutil.copytree(REPO, source, ignore=_ignore)
    workdir.mkdir()
    env = _clean_env()
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
         "-q", "-w", dist, source, cwd=tmp, env=env)
    (wheel,) = dist.glob("village_companion-*.whl")
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp, env=env)
    site = Path(_run(venv / "bin" / "python", "-I", "-c",
                     "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                     cwd=workdir, env=env).strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "project_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n", "utf-8")
    _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install",
         "--no-deps", "--no-index", "--disable-pip-version-check", "-q", wheel,
         cwd=tmp, env=env)
    return Installed(venv, site, workdir, env)


def test_installed_package_carries_catalogues_and_assets(installed: Installed) -> None:
    out = _run(installed.python, "-I", "-c", PROBE, *KNOWN_KEYS, cwd=installed.workdir,
               env=installed.env)
    probe = json.loads(out.strip().splitlines()[-1])
    package = installed.site / "companion"
    assert Path(probe["companion"]).parent == package, "imported companion from elsewhere"
    assert Path(probe["locales"]) == package / "locales"
    assert Path(probe["assets"]) == package / "assets"

    repo_po = sorted(str(p.relative_to(REPO / "locales"))
                     for p in (REPO / "locales").rglob("*.po"))
    assert probe["po_files"] == repo_po, "the wheel lacks catalogue files"
    repo_assets = sorted(str(p.relative_to(REPO / "assets"))
                         for p in (REPO / "assets").rglob("*")
                         if p.is_file() and p.suffix not in (".py", ".pyc")
                         and "__pycache__" not in p.parts)
    assert probe["asset_files"] == repo_assets, "the wheel lacks asset files"
    assert probe["fonts_found"] == dict.fromkeys(WEB_FONTS, True)

    for lang in SUPPORTED_LANGUAGES:
        for key in KNOWN_KEYS:
            text = probe["texts"][lang][key]
            assert text != key, f"{lang}: raw key {key!r} shown"
            assert text == Translator(lang).t(key), (lang, key)  # as the repository has it
    assert probe["texts"]["de"]["home.settings"] != probe["texts"]["en"]["home.settings"]
    for lang in SUPPORTED_LANGUAGES:  # a plural entry (msgid_plural), as PROBE reads it
        assert probe["plurals"][lang] == [Translator(lang).tn("history.count", n, count=n)
                                          for n in (1, 2)], lang
    assert probe["plurals"]["en"] == ["1 finished game", "2 finished games"]


@pytest.fixture(scope="module")
def served(installed: Installed) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [installed.venv / "bin" / "village-companion", "--port", str(port),
         "--data-dir", str(installed.workdir / "data")],
        cwd=installed.workdir, env=installed.env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_http(url, 30, proc)
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, url
        body: bytes = response.read()
        return body


def test_installed_app_serves_its_page_fonts_and_icons(served: str) -> None:
    assert b"flutter" in _get(served).lower()
    icons = [f"icons/{name}" for name in ICONS]
    for path in [*WEB_FONTS.values(), "icon.png", "favicon.png", *icons,
                 "assets/" + ICON_FONT_ASSET]:
        assert _get(served + path) == (REPO / "assets" / path).read_bytes(), path
    # the web manifest is the app's own (Flet re-writes the file it serves, same content)
    assert json.loads(_get(served + "manifest.json")) == json.loads(
        (REPO / "assets" / "manifest.json").read_text(encoding="utf-8"))
    # Flutter's font manifest is the app's: no KaTeX or Cupertino icons (issue 23); Flet
    # adds its Roboto to it
    families = [f["family"] for f in json.loads(_get(served + "assets/FontManifest.json"))]
    assert families == ["MaterialIcons", "Roboto"]
