"""Store-thread work of the history screens (run through ctx.in_background), and how a
record reads in the app's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import cast

from babel.dates import format_date

from companion.app.assistants.hub import HUB as TALLY_HUB
from companion.app.history.paths import GAME_LABEL_KEYS
from companion.app.summaries import shown_player
from companion.app.village.hub import HUB as VILLAGE_HUB
from companion.history.abandon import resume, split_unfinished
from companion.history.backup import (
    BackupError,
    BackupStore,
    ImportReport,
    backup_json,
    game_json,
    import_backup,
    results_csv,
)
from companion.history.cache import history_cache
from companion.history.names import load_merges, save_merges
from companion.history.query import HistoryFilter, HistoryPage
from companion.history.records import GameRecord
from companion.history.results import Outcome, solo_outcome, winner_names
from companion.history.stats import Statistics
from companion.store.base import SessionInfo, SessionStore

Translate = Callable[..., str]


@dataclass(frozen=True)
class PageData:
    page: HistoryPage
    players: list[str]  # every player's name (merged), for the player filter
    skipped: int  # finished games whose summary could not be read
    abandoned: tuple[SessionInfo, ...] = ()  # unfinished games given up on, last saved first


def read_page(flt: HistoryFilter, page: int, page_size: int,
              store: SessionStore) -> PageData:
    cache = history_cache(store)
    merges = load_merges(store)
    result = cache.page(store, flt, page=page, page_size=page_size, merges=merges)
    if result.items == [] and page > 0 and result.total:  # the list shrank: last page
        last = (result.total - 1) // page_size
        result = cache.page(store, flt, page=last, page_size=page_size, merges=merges)
    _going, abandoned = split_unfinished(cache.unfinished(store))
    return PageData(page=result, players=cache.player_names(store, merges),
                    skipped=cache.skipped, abandoned=tuple(abandoned))


def resume_abandoned(session_id: str, store: SessionStore) -> None:
    """An abandoned game back on Home's "Continue a game" (a copy another screen holds
    is dropped: its version is now behind the file's)."""
    resume(store, session_id)
    for hub in (VILLAGE_HUB, TALLY_HUB):
        hub.forget(session_id)


@dataclass(frozen=True)
class StatsData:
    stats: Statistics  # of the chosen game only (scores of different games differ)
    overall: Statistics  # every game: plays per game, player-count mix
    merges: dict[str, str]
    games: list[str]  # games with finished records, most played first


def read_stats(game: str | None, store: SessionStore) -> StatsData:
    cache = history_cache(store)
    merges = load_merges(store)
    games = cache.games(store)
    chosen = game if game in games else (games[0] if games else None)
    return StatsData(stats=cache.stats(store, merges, game=chosen),
                     overall=cache.stats(store, merges), merges=merges, games=games)


def merge_names(source: str, target: str, store: SessionStore) -> dict[str, str]:
    """Make `source` count as `target` (persisted in the store's settings)."""
    merges = load_merges(store)
    merges[source] = target
    save_merges(store, merges)
    return merges


def unmerge_name(source: str, store: SessionStore) -> dict[str, str]:
    merges = load_merges(store)
    merges.pop(source, None)
    save_merges(store, merges)
    return merges


def record_of(session_id: str, store: SessionStore) -> GameRecord | None:
    """The record of one finished game (None: not finished, unreadable or gone)."""
    records = history_cache(store).records(store)
    return next((r for r in records if r.id == session_id), None)


def game_label(t: Translate, game: str) -> str:
    key = GAME_LABEL_KEYS.get(game)
    return t(key) if key else game


def record_label(t: Translate, record: GameRecord) -> str:
    """The game of a finished record, naming Village's 2011 edition ("Village (2011)");
    the Big Box, the edition of every game since, is plain "Village"."""
    if record.game == "village" and record.edition == "2011":
        return t("history.game.village_2011")
    return game_label(t, record.game)


def day_text(day: date, babel_locale: str) -> str:
    return format_date(day, format="medium", locale=babel_locale)


def opponent_name(record: GameRecord, t: Translate) -> str | None:
    """Who a solo game was played against, in the reader's spelling (카를라 …)."""
    if record.opponent is None:
        return None
    return shown_player(t, record.game, {"solo": record.solo}, record.opponent)


def with_opponent(record: GameRecord, t: Translate, players: str) -> str:
    """`players`, and against whom for a solo game: "Ann vs. Karla"."""
    opponent = opponent_name(record, t)
    return players if opponent is None else t("history.versus", players=players,
                                                opponent=opponent)


def score_text(record: GameRecord, t: Translate) -> str:
    parts = []
    for p in record.players:
        score = t("history.out") if p.eliminated else (
            "?" if p.score is None else str(p.score))
        parts.append(t("history.player_score", name=p.name, score=score))
    return with_opponent(record, t, ", ".join(parts))


def winner_text(record: GameRecord, t: Translate,
                achievement_name: Callable[[str], str]) -> str:
    """The result as companion.history.results defines it: a solo game won or lost
    against Karla with its achievement; else who won ("Winner: Ann, Bo" for a shared
    first place)."""
    if record.solo:
        result = solo_outcome(record)
        opponent = opponent_name(record, t) or ""
        if record.achievement and result is Outcome.WON:
            return t("history.solo_won", opponent=opponent,
                     achievement=achievement_name(record.achievement))
        if record.achievement and result is Outcome.LOST:
            return t("history.solo_lost", opponent=opponent,
                     achievement=achievement_name(record.achievement))
        if record.achievement:
            return t("history.solo_result",
                     achievement=achievement_name(record.achievement))
        return t("history.solo")
    names = ", ".join(winner_names(record))
    return t("history.winner", names=names) if names else t("history.no_winner")


# -- backups ----------------------------------------------------------------------------

BACKUP_FOLDER = "backups"
MAX_IMPORT_BYTES = 64 * 2**20  # a backup larger than this is refused before parsing


@dataclass(frozen=True)
class ExportFile:
    name: str
    data: bytes


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M")


def export_everything(store: SessionStore) -> ExportFile:
    return ExportFile(f"village-companion-backup-{_stamp()}.json",
                      backup_json(store).encode("utf-8"))


def export_results(store: SessionStore) -> ExportFile:
    records = history_cache(store).records(store)
    # A spreadsheet opens UTF-8 CSV reliably with a byte order mark.
    return ExportFile(f"village-companion-results-{_stamp()}.csv",
                      ("\ufeff" + results_csv(records)).encode("utf-8"))


def export_one_game(session_id: str, store: SessionStore) -> ExportFile:
    return ExportFile(f"{session_id}.json", game_json(store, session_id).encode("utf-8"))


def import_data(data: bytes, store: SessionStore) -> ImportReport:
    """Import a backup file's bytes (BackupError: damaged, foreign or too large; then
    nothing was changed)."""
    if len(data) > MAX_IMPORT_BYTES:
        raise BackupError(f"the file is larger than {MAX_IMPORT_BYTES // 2**20} MB",
                          "too_large", size=MAX_IMPORT_BYTES // 2**20)
    report = import_backup(cast(BackupStore, store), data)
    history_cache(store).rescan()
    return report


def backup_folder(store: SessionStore) -> Path | None:
    """<data folder>/backups, where the app can write and read backup files itself
    (None: this store has no folder)."""
    root = getattr(store, "root", None)
    return root / BACKUP_FOLDER if isinstance(root, Path) else None


def save_to_folder(store: SessionStore) -> Path:
    """Write a backup of everything into the data folder; its path."""
    folder = backup_folder(store)
    if folder is None:
        raise BackupError("this store has no data folder", "no_folder")
    exported = export_everything(store)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / exported.name
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(exported.data)
    tmp.replace(path)
    return path


def folder_backups(store: SessionStore) -> list[Path]:
    """Backup files in the data folder, newest first."""
    folder = backup_folder(store)
    if folder is None or not folder.is_dir():
        return []
    return sorted((p for p in folder.glob("*.json") if p.is_file()),
                  key=lambda p: p.name, reverse=True)


def import_from_folder(name: str, store: SessionStore) -> ImportReport:
    folder = backup_folder(store)
    if folder is None or Path(name).name != name:
        raise BackupError(f"no backup file {name!r} in the data folder", "no_file",
                          file=name)
    path = folder / name
    if not path.is_file():
        raise BackupError(f"no backup file {name!r} in the data folder", "no_file",
                          file=name)
    return import_data(path.read_bytes(), store)
