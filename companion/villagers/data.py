"""Every number Villagers prints that the companion uses, with where it comes from.

SEED = /work/shared/seeds/003_848d660789e912b9.txt (Chinese review with a rules summary).
"L92" means line 92 of that file.  The seed wins over the digest.
"""

from __future__ import annotations

from typing import Final

SEED_FILE: Final = "003_848d660789e912b9.txt"

# L7: 1-5 players.
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 5
# L19: each player starts with 8 coins.
STARTING_MONEY: Final = 8

# L92: draft 2 cards a round, +1 per food in the village, never more than 5.
DRAFT_BASE: Final = 2
DRAFT_MAX: Final = 5
# L113: place 2 cards a round, +1 per builder at the start of the build phase, at most 5.
BUILD_BASE: Final = 2
BUILD_MAX: Final = 5
# L121: at most 3 hand cards a round swapped for basic villagers (not part of the limit, L123).
MAX_BASIC_SWAPS: Final = 3

# L37, L60-L62: placing a locked villager costs 2 coins (or earns 2 from the bank when the
# unlocking villager is your own).
UNLOCK_FEE: Final = 2

# L76, L93: markets run when road piles 2 and 6 run out; L145: the first once piles 1-2 are
# drawn, L156: the second once every road pile is drawn.
FIRST_MARKET_AFTER_PILE: Final = 2
SECOND_MARKET_AFTER_PILE: Final = 6
