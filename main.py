"""Entry module for `flet build apk|ipa|web` (flet build looks for `<app path>/main.py`,
and the app path is the repository root; see build/README.md).

In a packaged app Flet sets FLET_PLATFORM, FLET_ASSETS_DIR and FLET_APP_STORAGE_DATA, so
`run_app` keeps Flet's own in-app transport and stores sessions in the app's private
storage folder; host and port are not used there.
"""

from companion.app.launch import run_app

run_app()
