"""Package layout only; everything else is in pyproject.toml.

`locales/` and `assets/` stay at the top level of the repository (translators and
`flet build`, whose app path is the repository, find them there) but ship inside the
package as `companion.locales` and `companion.assets`: setuptools `package_dir` maps the two
subpackages onto the top-level folders. pyproject.toml cannot say this by itself, since
`[tool.setuptools.packages.find]` lists only packages it finds under `companion/` and
an explicit list would have to name every subpackage. The files they carry are chosen in
`[tool.setuptools.package-data]`; the code that reads them is `companion/bundled.py`.
tests/packaging/test_wheel.py (VILLAGE_WHEEL_CHECK=1, run by .ci/run) installs a wheel
and checks the result.
"""

from setuptools import find_namespace_packages, setup

MAPPED = {"companion.locales": "locales", "companion.assets": "assets"}

setup(
    # Namespace packages too: companion/village/data holds only JSON (no __init__.py).
    packages=[*find_namespace_packages(include=["companion", "companion.*"],
                                       exclude=["*.__pycache__"]), *MAPPED],
    package_dir=MAPPED,
)
