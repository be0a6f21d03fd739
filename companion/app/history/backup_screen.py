"""`/history/backup`: export everything (games, settings, component corrections) to one
file and import one, with the report of what was imported; the results as CSV.

In the browser a file is prepared on the store thread, then offered in a dialog whose
Download button hands the exact bytes to the browser inside the tap (FilePicker.save_file
with src_bytes: a download; a save dialog in the desktop and phone apps). Import picks a
file with ft.PickFiles (opened by the client inside the tap, bytes sent with the result).
For a set-up without either (or a file too large to send), the data folder works too:
"Save in the data folder" writes <data folder>/backups/<name>.json and the files found
there can be imported with one tap.

Import never overwrites: companion.history.backup checks the whole file first and
refuses a damaged or foreign file with the reason, changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.history.data import (
    ExportFile,
    backup_folder,
    export_everything,
    export_results,
    folder_backups,
    game_label,
    import_data,
    import_from_folder,
    save_to_folder,
)
from companion.app.kit import (
    BODY_TEXT_SIZE,
    PRIMARY_BUTTON_HEIGHT,
    SMALL_TEXT,
    TOUCH_TARGET,
    back_button,
    banner,
    big_button,
    card,
    muted,
)
from companion.app.routing import Screen
from companion.games import VILLAGE, edition_label_key
from companion.history.backup import BackupError, ImportReport
from companion.store.base import SessionStore

if TYPE_CHECKING:
    from companion.app.context import AppContext

MAX_LISTED = 5  # backup files of the data folder offered for import
# BackupError.code -> how the problem reads (its params fill the placeholders).
BACKUP_ERROR_KEYS = {
    "not_json": "history.backup.error.not_json",
    "not_object": "history.backup.error.not_object",
    "one_game": "history.backup.error.one_game",
    "foreign": "history.backup.error.foreign",
    "newer": "history.backup.error.newer",
    "damaged": "history.backup.error.damaged",
    "read_only": "history.backup.error.read_only",
    "too_large": "history.backup.error.too_large",
    "no_file": "history.backup.error.no_file",
    "no_folder": "history.backup.error.no_folder",
    "too_deep": "history.backup.error.too_deep",
    "setting_unknown": "history.backup.error.setting_unknown",
    "setting_game": "history.backup.error.setting_game",
    "setting_value": "history.backup.error.setting_value",
    "correction": "history.backup.error.correction",
}
#: NotImported.code (a game of the file left out) -> why, in words.
NOT_IMPORTED_KEYS = {
    "not_replayable": "history.backup.not_imported.not_replayable",
    "newer_engine": "history.backup.not_imported.newer_engine",
    "unknown_game": "history.backup.not_imported.unknown_game",
}


def _attempt(work: Callable[[SessionStore], ImportReport],
             store: SessionStore) -> ImportReport | BackupError:
    """Store thread: a refused file is an answer to show, not a failure to log."""
    try:
        return work(store)
    except BackupError as exc:
        return exc


def _folder_listing(store: SessionStore) -> tuple[str | None, list[str]]:
    folder = backup_folder(store)
    return (None if folder is None else str(folder),
            [p.name for p in folder_backups(store)[:MAX_LISTED]])


def offer_file(ctx: AppContext, exported: ExportFile) -> None:
    """The file is ready: a dialog whose Download hands it to the browser in the tap."""
    t = ctx.t

    def download() -> None:
        ctx.device.save_file(exported.name, exported.data)
        ctx.page.pop_dialog()

    ctx.page.show_dialog(ft.AlertDialog(
        title=ft.Text(t("history.backup.ready")),
        content=ft.Text(t("history.backup.ready_body", file=exported.name,
                          size=f"{len(exported.data) / 1024:.0f}"), size=BODY_TEXT_SIZE),
        actions=[
            ft.TextButton(t("common.cancel"), height=TOUCH_TARGET,
                          on_click=lambda: ctx.page.pop_dialog()),
            ft.FilledButton(t("history.backup.download"), icon=ft.Icons.DOWNLOAD,
                            height=TOUCH_TARGET, on_click=download),
        ],
    ))


class BackupScreen(Screen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self._picker = ft.FilePicker(on_result=self._picked)
        self._report = ft.Column(spacing=8)
        self._folder = ft.Column(spacing=8)
        import_button = ft.Semantics(identifier="backup-import", content=ft.Row([
            ft.FilledButton(
                t("history.backup.import"), icon=ft.Icons.UPLOAD_FILE,
                height=PRIMARY_BUTTON_HEIGHT, expand=True,
                action=ft.PickFiles(self._picker, with_data=True,
                                    file_type=ft.FilePickerFileType.CUSTOM,
                                    allowed_extensions=["json"]))]))
        return ft.View(
            route="/history/backup",
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), self.ctx.back),
                title=ft.Semantics(content=ft.Text(t("history.backup.title")),
                                   identifier="backup-title"),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=12,
            controls=[
                card(t("history.backup.export_title"), [
                    muted(t("history.backup.export_note"), size=BODY_TEXT_SIZE),
                    big_button(t("history.backup.export"), ft.Icons.DOWNLOAD,
                               partial(self._prepare, export_everything),
                               identifier="backup-export"),
                    big_button(t("history.backup.csv"), ft.Icons.TABLE_CHART,
                               partial(self._prepare, export_results),
                               identifier="backup-csv", filled=False),
                ], identifier="card-export"),
                card(t("history.backup.import_title"), [
                    muted(t("history.backup.import_note"), size=BODY_TEXT_SIZE),
                    import_button,
                    ft.Semantics(identifier="backup-report", content=self._report),
                ], identifier="card-import"),
                card(t("history.backup.folder_title"), [self._folder],
                     identifier="card-folder"),
            ],
        )

    def did_appear(self) -> None:
        self._list_folder()

    # -- export ----------------------------------------------------------------------------

    def _prepare(self, export: object) -> None:
        self.ctx.toast(self.ctx.t("history.backup.preparing"))
        self.ctx.in_background(export,  # type: ignore[arg-type]
                               then=self._offer)

    def _offer(self, exported: ExportFile) -> None:
        offer_file(self.ctx, exported)

    # -- import ----------------------------------------------------------------------------

    def _picked(self, e: ft.FilePickerResultEvent) -> None:
        self.import_files(e.files)

    def import_files(self, files: list[ft.FilePickerFile]) -> None:
        t = self.ctx.t
        if not files:  # cancelled
            return
        picked = files[0]
        if picked.bytes is None:
            self._show_error(t("history.backup.no_data", file=picked.name))
            return
        data = picked.bytes
        self._report.controls = [muted(t("history.backup.importing", file=picked.name),
                                       size=BODY_TEXT_SIZE)]
        self.ctx.in_background(partial(_attempt, partial(import_data, data)),
                               then=partial(self._imported, picked.name),
                               on_error=self._import_failed)

    def _import_from_folder(self, name: str) -> None:
        self._report.controls = [muted(self.ctx.t("history.backup.importing", file=name),
                                       size=BODY_TEXT_SIZE)]
        self.ctx.in_background(partial(_attempt, partial(import_from_folder, name)),
                               then=partial(self._imported, name),
                               on_error=self._import_failed)

    def _import_failed(self, exc: Exception) -> None:
        t = self.ctx.t
        if isinstance(exc, BackupError):
            key = BACKUP_ERROR_KEYS.get(exc.code)
            params = dict(exc.params)
            edition = edition_label_key(VILLAGE, params.get("edition"))  # a correction's
            if edition is not None:
                params["edition"] = t(edition)
            reason = t(key, **params) if key else str(exc)
            self._show_error(t("history.backup.refused", reason=reason))
        else:
            self._show_error(self.ctx.failure_text(exc))

    def _show_error(self, text: str) -> None:
        self._report.controls = [banner([text, self.ctx.t("history.backup.unchanged")])]

    def _imported(self, name: str, report: ImportReport | BackupError) -> None:
        t = self.ctx.t
        if isinstance(report, BackupError):
            self._import_failed(report)
            return
        lines = [
            t("history.backup.report_title", file=name),
            t("history.backup.report_imported", count=len(report.imported)),
            t("history.backup.report_skipped", count=len(report.skipped)),
        ]
        for old, new in report.renamed.items():
            lines.append(t("history.backup.report_renamed", id=old, new=new))
        for left in report.not_imported.values():
            why = NOT_IMPORTED_KEYS.get(left.code)
            words = {"detail": left.detail, "game": left.game, **left.params}
            reason = t(why, **words) if why else left.detail
            lines.append(t("history.backup.report_not_imported", title=left.title,
                           game=game_label(t, left.game), reason=reason))
        lines.append(t("history.backup.report_settings", count=len(report.settings_imported)))
        if report.settings_kept:
            lines.append(t("history.backup.report_kept", keys=", ".join(report.settings_kept)))
        self._report.controls = [banner(lines, error=False)]
        self._list_folder()

    # -- the data folder -------------------------------------------------------------------

    def _list_folder(self) -> None:
        self.ctx.in_background(_folder_listing, then=self._show_folder,
                               on_error=lambda exc: None)

    def _show_folder(self, listing: tuple[str | None, list[str]]) -> None:
        t = self.ctx.t
        folder, names = listing
        if folder is None:
            self._folder.controls = [muted(t("history.backup.no_folder"),
                                           size=BODY_TEXT_SIZE)]
            return
        controls: list[ft.Control] = [
            muted(t("history.backup.folder_note", folder=folder), size=BODY_TEXT_SIZE),
            big_button(t("history.backup.save_folder"), ft.Icons.SAVE,
                       self._save_to_folder, identifier="backup-save-folder", filled=False),
        ]
        for name in names:
            controls.append(ft.Row([
                ft.Text(name, size=SMALL_TEXT, expand=True, selectable=True),
                ft.OutlinedButton(t("history.backup.import_short"), height=TOUCH_TARGET,
                                  on_click=partial(self._import_from_folder, name))],
                vertical_alignment=ft.CrossAxisAlignment.CENTER))
        self._folder.controls = controls

    def _save_to_folder(self) -> None:
        self.ctx.in_background(save_to_folder, then=self._saved)

    def _saved(self, path: object) -> None:
        self.ctx.toast(self.ctx.t("history.backup.saved", path=str(path)))
        self._list_folder()
