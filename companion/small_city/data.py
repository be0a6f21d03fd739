"""Every number Small City prints, with where it comes from.

SEED = /work/shared/seeds/001_26a66273f260436d.txt (Traditional Chinese rules, corrected
edition).  "L52" means line 52 of that file.  The seed wins over the digest.
"""

from __future__ import annotations

from typing import Final

SEED_FILE: Final = "001_26a66273f260436d.txt"

# 2-4 players: the seed prints no range, but its seat table (L39-L42) and the 4-player rule
# (L183) stop at four; the digest says 2-4.
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

# L52: 遊戲進行8輪,每輪有8個階段 — 8 rounds of 8 phases.
ROUNDS: Final = 8

# L53-L60: the eight phases in order: (number, id, English, zh-Hant as printed).
PHASES: Final[tuple[tuple[int, str, str, str], ...]] = (
    (1, "special_action", "Choose special action", "選擇特殊行動"),
    (2, "build", "Build", "建築"),
    (3, "move_residents", "Move residents", "移動居民"),
    (4, "income", "Income", "收入"),
    (5, "voting", "Voting", "投票"),
    (6, "pollution", "Measure pollution", "測量汙染"),
    (7, "city_council", "Influence the city council", "影響市議會"),
    (8, "mayor_visit", "The mayor's next visit", "市長的下一個訪問"),
)

# L37-L42: starting money by seat (seat 1 = the mayor, then clockwise).
STARTING_MONEY: Final[dict[int, int]] = {1: 4, 2: 5, 3: 5, 4: 6}

# L73-L81: the eight special action cards, letter -> (English, zh-Hant).
ACTION_CARDS: Final[dict[str, tuple[str, str]]] = {
    "A": ("Mayor", "市長"),
    "B": ("Architect", "建築師"),
    "C": ("Mediator", "仲介人"),
    "D": ("Engineer", "工程師"),
    "E": ("Supporter", "支持者"),
    "F": ("Urban Planner", "城市規劃師"),
    "G": ("City Councilor", "市議員"),
    "H": ("Opponent", "反對者"),
}
# L65: the 8 cards are laid out in a circle.
ACTION_CIRCLE_SIZE: Final = len(ACTION_CARDS)
# L67: $1 for each unpicked card skipped.
SKIP_COST_PER_CARD: Final = 1

# L210: a residence scores 1 + 2 + ... for its residents, "the fifth resident gives 5".
MAX_RESIDENTS_PER_RESIDENCE: Final = 5
# L148, L212: an active University gives 3 votes in phase 5.
UNIVERSITY_VOTES: Final = 3
# L215: above 50 votes a player takes the "50+" marker.
VOTE_MARKER_AT: Final = 50

# L195-L200: commercial trades in phase 4B, one trade per resident on the square.
MATERIAL_TO_MONEY: Final[dict[str, int]] = {"white": 2, "grey": 3, "black": 5}  # L196
MONEY_TO_VOTES: Final[dict[int, int]] = {1: 2, 2: 3, 3: 4, 4: 5}  # L198
MATERIAL_TO_VOTES: Final[dict[str, int]] = {"white": 3, "grey": 5, "black": 7}  # L200
# L194: each resident on a $1 square earns $1; L192: each visitor earns its owner $1.
MONEY_SQUARE_INCOME: Final = 1
VISITOR_INCOME: Final = 1

# L218-L221: +1 per resident (visitors too), +1 per material produced, -1 per park square.
POLLUTION_PER_RESIDENT: Final = 1
POLLUTION_PER_MATERIAL: Final = 1
POLLUTION_PER_PARK_SQUARE: Final = -1
# L224: once any player's level reaches 10(%), residents start to die.
DEATH_THRESHOLD: Final = 10
# L228: at 100(%) the player is out of the game at once.
ELIMINATION_LEVEL: Final = 100

# L237: advancing a council disc to position 1/2/3/4 costs 1/2/3/4 votes or $ (not mixed).
COUNCIL_ADVANCE_COST: Final[dict[int, int]] = {1: 1, 2: 2, 3: 3, 4: 4}
# L239: switching rows or restarting a row costs 1 vote or $1.
COUNCIL_RESTART_COST: Final = 1
# L247: economy row positions 1-4 give 2/3/5/8 votes or $.
COUNCIL_ECONOMY_ROW: Final[dict[int, int]] = {1: 2, 2: 3, 3: 5, 4: 8}

# L259-L260: a kept promise scores +6/+12/+18 when fulfilled, -3/-6/-12 when failed,
# keyed by the promise's value (its pile, L8).
PROMISE_FULFILLED: Final[dict[int, int]] = {6: 6, 12: 12, 18: 18}
PROMISE_FAILED: Final[dict[int, int]] = {6: -3, 12: -6, 18: -12}
PROMISE_VALUES: Final = tuple(PROMISE_FULFILLED)
# L8-L9: 16 normal promises (1-16) and 16 special ones (17-32, advanced game only).
NORMAL_PROMISES: Final = range(1, 17)
SPECIAL_PROMISES: Final = range(17, 33)
