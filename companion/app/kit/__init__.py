"""The one widget kit every screen builds from: sizes, text, buttons, cards, choices,
steppers, number entry and section bars. Every tappable thing is at least 48 px
(TOUCH_TARGET); numbers are large enough to read at arm's length.

Import from here (`from companion.app.kit import card, stepper`); the modules only group
the pieces: basics (sizes, text, buttons, pager), cards, choices, steppers, numbers,
sections, entry (a dialog for a typed value that closes only once it is accepted),
message_strip (the app's messages, with 48 px Undo and Close: AppContext.toast and offer),
text_fit (how wide a text is drawn: boxes sized so no word breaks inside itself).
Game pieces (cubes, members) are the Village's own: companion.app.village.table.cubes.
"""

from companion.app.kit.basics import (
    BODY_TEXT_SIZE,
    HEADING_TEXT_SIZE,
    PRIMARY_BUTTON_HEIGHT,
    SMALL_TEXT,
    TOUCH_TARGET,
    VALUE_TEXT_SIZE,
    Handler,
    apply_button,
    back_button,
    big_button,
    body,
    heading,
    icon_button,
    muted,
    pager,
    read_only_note,
)
from companion.app.kit.cards import CARD_COLUMNS, banner, card, notice_card
from companion.app.kit.choices import chip, chips, choice_chips, radio, switch
from companion.app.kit.entry import DialogAction, ValueDialog, ask_value, value_field
from companion.app.kit.numbers import ask_number, number_field, parse_count, parse_whole
from companion.app.kit.sections import Section, section_bar
from companion.app.kit.steppers import count_stepper, stepper
from companion.app.kit.text_fit import longest_word_width, text_width

__all__ = [
    "BODY_TEXT_SIZE", "CARD_COLUMNS", "HEADING_TEXT_SIZE", "PRIMARY_BUTTON_HEIGHT",
    "SMALL_TEXT", "TOUCH_TARGET", "VALUE_TEXT_SIZE", "DialogAction", "Handler", "Section",
    "ValueDialog", "apply_button", "ask_number", "ask_value", "back_button", "banner",
    "big_button", "body", "card", "chip", "chips", "choice_chips", "count_stepper",
    "heading", "icon_button", "longest_word_width", "muted", "notice_card",
    "number_field", "pager", "parse_count", "parse_whole", "radio", "read_only_note", "section_bar",
    "stepper", "switch", "text_width", "value_field",
]
