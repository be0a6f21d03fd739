"""Every number Feudum prints that the companion uses, with where it comes from.

SEED = /work/shared/seeds/002_2d959dfd088ee047.txt (Chinese rulebook).  "L1006" means
line 1006 of that file.  The seed wins over the digest.
"""

from __future__ import annotations

from typing import Final, Literal

SEED_FILE: Final = "002_2d959dfd088ee047.txt"

# L11: a game for 2-5 players.
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
# L178: five epochs; L1038: the game ends once epoch 5 has been triggered and scored.
EPOCHS: Final = 5

# --- Dawn of each epoch (L1004-L1018) ------------------------------------------------------
GuildStatus = Literal["master", "expert", "apprentice"]
# L712, L1006: master 5, expert 3, apprentice 1 VP at each dawn.
GUILD_STATUS_VP: Final[dict[str, int]] = {"master": 5, "expert": 3, "apprentice": 1}
# L712: the apprentice position is not used with fewer than 4 players.
APPRENTICE_MIN_PLAYERS: Final = 4
# L482, L1008-L1009: an outland worked by your tenant: 4 VP with resources on it, 2 empty.
OUTLAND_WITH_RESOURCES_VP: Final = 4
OUTLAND_EMPTY_VP: Final = 2
# L1010: active regions 1..6 -> 1/3/5/7/9/11 VP (index = number of regions).
ACTIVE_REGIONS_VP: Final[tuple[int, ...]] = (0, 1, 3, 5, 7, 9, 11)
# L142: the kingdom has 6 regions.
REGIONS: Final[tuple[str, ...]] = ("ocean", "island", "forest", "desert", "wasteland",
                                   "mountain")
REGIONS_ZH: Final[tuple[str, ...]] = ("海洋", "島嶼", "森林", "沙漠", "荒地", "山脈")
# L1012-L1016, L446-L452: military service track.  Catapult spaces in track order, each
# (epoch whose dawn checks it, VP lost while it is uncovered).  Disloyalty is checked only
# at the dawn of epochs 2, 4 and 5; penalties of earlier uncovered spaces are lost again.
SERVICE_TRACK: Final[tuple[tuple[int, int], ...]] = ((2, 3), (4, 4), (5, 5))
DISLOYALTY_EPOCHS: Final = tuple(epoch for epoch, _ in SERVICE_TRACK)

# --- Progress die and epoch triggers (L981-L998) -------------------------------------------
# L96: one progress die; L983: the result names the region whose landscape tile is removed.
# The seed does not print the die's faces: its six results are the six regions of L142.
# Face numbers 1-6 follow the order the seed lists the regions in (a project convention).
PROGRESS_DIE_FACES: Final[dict[int, str]] = dict(enumerate(REGIONS, start=1))
# L995-L998: a new epoch dawns when enough tiles of it are revealed on the stacks:
# II: 4 tiles, III: 3 tiles, IV: 2 tiles, V: 1 empty space (an exhausted stack).
EPOCH_TRIGGER: Final[dict[int, int]] = {2: 4, 3: 3, 4: 2, 5: 1}

# --- Final scoring (L1040-L1057) -----------------------------------------------------------
# L366, L1044: journey stages 1-3 pay (lower, higher); the leader(s) of a stage score the
# higher value.  Stage 4 is the monastery, one space, 17 VP.
JOURNEY_STAGE_VP: Final[dict[int, tuple[int, int]]] = {1: (3, 5), 2: (7, 9), 3: (11, 13)}
MONASTERY_STAGE: Final = 4
MONASTERY_VP: Final = 17
# L1046-L1048: great empire.
EMPIRE_PER_OUTPOST_FARM_TOWN: Final = 1
EMPIRE_PER_FIEF: Final = 3
EMPIRE_SET_SIZE: Final = 3
EMPIRE_SET_VP: Final = 3
LocationType = Literal["outpost", "farm", "town", "fief"]
LOCATION_TYPES: Final[tuple[LocationType, ...]] = ("outpost", "farm", "town", "fief")
# L1049: 1 VP per 3 shillings.
SHILLINGS_PER_VP: Final = 3

# --- Limits printed in the rules, used to check score files --------------------------------
# L975: the wine cask holds at most 3 sulfur (sulfur in the cask breaks ties, L1054).
WINE_CASK_MAX_SULFUR: Final = 3
# L494: a player never holds more than 3 royal decree cards.
MAX_DECREES: Final = 3
# L144: the map has 22 location spaces; L156: there are 12 fief discs.
MAP_LOCATIONS: Final = 22
FIEF_DISCS: Final = 12

# --- Other printed VP (for the in-game tallies) --------------------------------------------
# L424-L427: VP for the landscape tile taken when improving, by the tile's epoch.  The
# column headers are not in the seed's text; the L422 example (farm -> town, epoch I tile:
# 3 VP) fixes the second column as farm -> town.
UPGRADE_VP_TABLE: Final[dict[int, tuple[int, int, int, int]]] = {
    1: (2, 3, 4, 4),
    2: (3, 4, 5, 5),
    3: (4, 5, 6, 6),
    4: (5, 6, 7, 7),
}
# L565, L578, L589: conquering a pawn 2 VP, a fief 4 VP.
CONQUER_PAWN_VP: Final = 2
CONQUER_FIEF_VP: Final = 4
# L508: the harvest action scores 1 VP; L611: a played defend card scores 1 VP.
HARVEST_VP: Final = 1
DEFEND_VP: Final = 1
