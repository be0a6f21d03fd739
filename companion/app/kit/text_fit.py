"""How wide a text is drawn, estimated on the server (see companion.app.kit).

A fixed-width box narrower than a word makes Flutter break the word inside itself
("Ansehenslei/ste"); a screen that sizes a box for words (a table's label column) asks
here first. The widths are Roboto's advance widths (the web client's font) per character
class, rounded up, plus a margin: an estimate that errs wide, never a measurement.
CJK and Hangul are one em each (those scripts break between any two characters anyway).

Korean, though, is written with spaces between words and read badly when a word is split
("마지막 플레/이"), and Flutter has no `word-break: keep-all`: `keep_words` puts a word
joiner (U+2060, drawn as nothing, ignored by screen readers) between the syllables of each
Hangul word, which leaves the spaces as the only break points (a word longer than its
whole line is still broken). `plain` takes them out again for text leaving the app.
"""

from __future__ import annotations

import math
import re
import unicodedata

# Advance width in em of Roboto Regular, by character.
_NARROW = dict.fromkeys("ijlI.,:;'|!", 0.26) | dict.fromkeys("ftr()[]-/ ", 0.34)
_WIDE = dict.fromkeys("mw", 0.86) | dict.fromkeys("MW", 0.88) | dict.fromkeys(
    "ABCDGHKNOQRUVXYÄÖÜ", 0.70) | {"ß": 0.6, "%": 0.74, "@": 0.9}
_LOWER, _UPPER, _DIGIT = 0.56, 0.64, 0.57
BOLD_FACTOR = 1.06  # W600/bold runs a little wider
MARGIN = 1.06  # what the estimate adds for fonts it does not know exactly
_WORD = re.compile(r"\S+")
WORD_JOINER = "\u2060"
_HANGUL_WORD = re.compile("[\uac00-\ud7a3]{2,}")


def keep_words(text: str) -> str:
    """`text` with every Hangul word kept whole on a line (see the module doc)."""
    return _HANGUL_WORD.sub(lambda m: WORD_JOINER.join(m.group()), text)


def plain(text: str) -> str:
    """`text` without the joiners `keep_words` added (shared, copied, exported text)."""
    return text.replace(WORD_JOINER, "")


def _char_em(ch: str) -> float:
    if ch in _NARROW:
        return _NARROW[ch]
    if ch in _WIDE:
        return _WIDE[ch]
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    if ch.isdigit():
        return _DIGIT
    if ch.isupper():
        return _UPPER
    return _LOWER


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width (px) `text` takes on one line at font `size`."""
    em = sum(_char_em(ch) for ch in text)
    return math.ceil(em * size * MARGIN * (BOLD_FACTOR if bold else 1.0))


def longest_word_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width of the widest word of `text`: a box narrower than this breaks a word
    inside itself (text wraps between words, and between CJK characters)."""
    widths = []
    for word in _WORD.findall(text):
        if any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in word):
            widths.append(text_width(word[:1], size, bold=bold))  # breaks anywhere
        else:
            widths.append(text_width(word, size, bold=bold))
    return max(widths, default=0.0)
