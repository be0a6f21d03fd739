"""Table notes: what the app tells the players to do or what just happened, as a key plus
parameters so every language can word it (English templates here; the app's catalogues
carry `note.<key>` in each language with the same placeholders).

Parameters named `colour`, `space`, `section`, `goods`, `side` hold game terms that the app
translates on their own (`colour.<v>`, `space.<v>`, `section.<v>`, `goods.<v>`, `side.<v>`).
"""

from __future__ import annotations

from typing import Any

from companion.core.json_types import JsonObject

EN: dict[str, str] = {
    "born": "{player}: a gen-{gen} member is born onto the farmyard",
    "next_start_taken": "{player} takes the next-start-player marker",
    "next_start_gone": "The next-start-player marker is already taken: nothing happens",
    "city_again": "{player} already has a marker in city {city}: no reward",
    "to_black_bag": "{player} puts a gen-{gen} member into the black bag",
    "supply_short": "Only {count} {colour} cubes left in the supply for the bag",
    "put_on_space": "Put on {space}: {cubes}",
    "compensation_chosen": "{player} takes a {colour} cube as compensation",
    "next_start_spent": "The next-start-player marker is spent as a coin",
    "nobody_dies": "{player} has no visible member: nobody dies",
    "removed_final": "{player}'s gen-{gen} member died in the final turns: removed from the game",
    "to_chronicle": "{player}'s gen-{gen} member goes to the chronicle ({section})",
    "to_graveyard": "{player}'s gen-{gen} member goes to the graveyard",
    "removed_no_slot": "No slot left: {player}'s gen-{gen} member is removed from the game",
    "game_end_chronicle": "Game end: {player} filled the last chronicle slot. Final turns follow.",
    "game_end_graveyard": "Game end: {player} filled the last graveyard slot. Final turns follow.",
    "market_day": "Market day: {player} sells first (first sale free)",
    "served": "{player} serves the customer on front space {slot}",
    "market_no_sale": "Market day over: no customer was served, the market stays as it is",
    "refill_front": "Refill: move queue {src} » front {dst}",
    "refill_queue": "Refill: move queue {src} » queue {dst}",
    "refill_stack": "Refill: new tile from the stack » queue {dst}",
    "market_empty": "Every customer has been served: the front spaces stay empty",
    "final_mass": "Final mass",
    "round_mass": "Round {round} is over: mass",
    "to_church": "{player}'s gen-{gen} member » church level {level}",
    "monk_drawn": "A monk is drawn and goes back into the bag",
    "no_bonus": "Nobody is on the church track: no bonus",
    "bonus_most": "{player} gains {bonus} prestige: most members on the church track ({count})",
    "bonus_rightmost": "{player} gains {bonus} prestige: tied for most church members "
                       "({count}), rightmost member on level {level}",
    "bonus_still_tied": "{player} gains {bonus} prestige: tied for most church members "
                        "({count}) and on the rightmost level {level}, so each tied player gets "
                        "the bonus",
    "karla_majority": "{player} has the majority on the church track and scores nothing",
    "grain_cap": "{player} can keep at most {cap} grain: took {got} of {amount}",
    "seat_grain": "{player} (seat {seat}) gets 1 grain",
    "seat_coin": "{player} (seat {seat}) gets 1 extra coin",
    "next_start_back": "The next-start-player marker goes back to the council",
    "new_start_player": "{player} becomes the start player; the next-start-player marker goes "
                        "back to the council",
    "final_turns": "Final turns: {players}",
    "no_final_turns": "Final turns: nobody",
    "final_scoring": "Final scoring",
    "quill_passed": "{player}'s time marker passed the quill",
    "quill_passed_n": "{player}'s time marker passed the quill {times} times",
    "plague_taken": "{player} took a plague cube from {space}: it goes back to the supply",
    "well_used": "{player} used the well: may do any action",
    "well_used_solo": "{player} used the well: may do any action (Karla takes nothing)",
    "start_player": "{player} is the start player",
    "compensation_drawn": "{player} gets a random influence cube: {colour}",
    # Karla
    "karla_no_cube": "Karla finds no cube on the board",
    "karla_takes": "Karla takes {colour} from {space} » her space {pos}",
    "karla_why_same": "Why: the same colour from the same space",
    "karla_why_next": "Why: no {colour} on {from_space}, the next space clockwise with it",
    "karla_why_none": "Why: no {colour} cube on the board; a cube of your choice from {space}",
    "karla_why_only_one": "Why: only one influence colour is left on the board; a cube from "
                          "{space}",
    "karla_why_next_nonempty": "{from_space} is empty: the next space clockwise with cubes is "
                               "{space}",
    "karla_why_chosen": "You chose the cube",
    "karla_fate_quill": "Karla's {side} fate tile {tile} shows the quill",
    "karla_fate_blank": "Karla's {side} fate tile {tile} is blank",
    "karla_fate_reshuffle": "All three {side} fate tiles are face up: shuffle them face down "
                            "again",
    "karla_no_member": "Karla has no member left who can die",
    "karla_market": "Karla took the market cube: she holds a market day",
    "karla_church_over": "Karla has no member left on the church building: no church reaction "
                         "for the rest of the game",
    "karla_to_bag": "Karla puts her gen-{gen} member from the church building into the black bag",
    "d4_shows": "The die shows {colour}",
    "d4_again": "No {colour} on the board: roll again",
    # Worded by companion.village.round_end for what the engine does without a note.
    "church_moved": "{player}'s gen-{gen} member moves up the church track: level "
                    "{from_level} » {level}",
    "church_none": "Nobody moves up the church track",
    "start_player_stays": "{player} stays the start player",
    "karla_board_reset": "Karla's board: every cube but the last goes back to the supply",
    "bag_filled": "Fill the bag: {cubes}",
}


def cube_list(counts: dict[str, int], name: Any = str) -> str:
    """{"green": 1, "plague": 2} -> "1 green, 2 plague" (colour names via `name`)."""
    return ", ".join(f"{n} {name(c)}" for c, n in counts.items())


def render_en(key: str, params: JsonObject) -> str:
    template = EN.get(key)
    if template is None:
        return key
    shown = {k: cube_list(v) if isinstance(v, dict) else v for k, v in params.items()}
    return template.format(**shown)
