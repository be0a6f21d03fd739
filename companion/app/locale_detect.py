"""Pick the first-run language from the client's locale list (browser or phone OS), by
`companion.i18n.negotiate_language`."""

from __future__ import annotations

import asyncio
import logging

import flet as ft

from companion.i18n import DEFAULT_LANGUAGE, negotiate_language

logger = logging.getLogger(__name__)

# After this a silent client (no device-info support) is taken to be English.
DETECT_TIMEOUT_S = 15.0


def locale_tag(locale: ft.Locale) -> str:
    parts = [locale.language_code, locale.script_code, locale.country_code]
    return "_".join(p for p in parts if p)


async def detect_language(page: ft.Page, timeout_s: float | None = None) -> str:
    """Ask the client for its locales; a client that does not answer gets English."""
    try:
        info = await asyncio.wait_for(page.get_device_info(), timeout_s or DETECT_TIMEOUT_S)
    except Exception as exc:
        logger.info("device locale unavailable (%s); using %s", exc, DEFAULT_LANGUAGE)
        return DEFAULT_LANGUAGE
    candidates = [locale_tag(loc) for loc in (getattr(info, "locales", None) or [])]
    if isinstance(info, ft.WebDeviceInfo):
        candidates += list(info.languages or []) + ([info.language] if info.language else [])
    return negotiate_language(candidates)
