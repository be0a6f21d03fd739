"""One definition of a result (companion.history.results): multiplayer wins and ties,
solo games won or lost against Karla by the achievement, the assistants; and statistics
that add up over the same games, checked by hand and over random result sets."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.history.records import build_record, build_records
from companion.history.results import Outcome, ahead, is_winner, outcomes, winner_names
from companion.history.stats import compute_stats, head_to_head
from companion.store.memory import MemoryStore
from companion.village.components import load_components
from companion.village.scoring import achievement, solo_won
from companion.village.service import VillageService
from tests.history.helpers import finished_tally, finished_village, info, solo, tally, village


def _rec(summary: dict[str, Any], game: str = "village") -> Any:
    return build_record(info("r1", summary, game=game))


def test_multiplayer_won_tied_lost() -> None:
    rec = _rec(village({"Ann": 50, "Bo": 40, "Cy": 30}))
    assert outcomes(rec) == {"Ann": Outcome.WON, "Bo": Outcome.LOST, "Cy": Outcome.LOST}
    assert winner_names(rec) == ["Ann"]
    shared = _rec(village({"Ann": 45, "Bo": 45, "Cy": 30}))
    assert outcomes(shared) == {"Ann": Outcome.TIED, "Bo": Outcome.TIED,
                                "Cy": Outcome.LOST}
    assert winner_names(shared) == ["Ann", "Bo"]  # both winners for BG Stats
    assert is_winner(shared, shared.players[0]) and not is_winner(shared, shared.players[2])
    assert ahead(shared, "Ann", "Bo") == 0 and ahead(shared, "Cy", "Ann") == -1
    unknown = _rec({"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winners": [],
                    "date": "2024-01-01"})
    assert set(outcomes(unknown).values()) == {Outcome.UNKNOWN}
    assert winner_names(unknown) == []


def test_solo_is_won_or_lost_against_karla_by_the_achievement() -> None:
    won = _rec(solo("Dana", 47, "traveller", day="2024-03-01"))
    assert outcomes(won) == {"Dana": Outcome.WON} and winner_names(won) == ["Dana"]
    # The summary lists Dana as the "winner" (the score sheet's own ranking of one): the
    # result is the achievement's, not that list's.
    lost = _rec(solo("Dana", 39, "apprentice", day="2024-03-01"))
    assert outcomes(lost) == {"Dana": Outcome.LOST} and winner_names(lost) == []
    assert lost.opponent == "Karla"
    old = _rec(solo("Dana", 39, None, day="2024-03-01"))
    assert outcomes(old) == {"Dana": Outcome.UNKNOWN}
    odd = _rec(solo("Dana", 39, "emperor", day="2024-03-01"))
    assert outcomes(odd) == {"Dana": Outcome.UNKNOWN}


def test_the_solo_rule_lives_with_the_scoring_and_follows_the_expansions() -> None:
    comp = load_components("big-box")
    assert solo_won(comp, "apprentice") is False
    assert [solo_won(comp, a) for a in
            ("traveller", "master", "grandmaster", "genius", "sage")] == [True] * 5
    assert solo_won(comp, None) is None and solo_won(comp, "nobody") is None
    # 45 points win with the base game, not with the Inn (the ladder rises by 10).
    assert solo_won(comp, achievement(comp, 45, [])) is True
    assert solo_won(comp, achievement(comp, 45, ["inn"])) is False
    assert solo_won(comp, achievement(comp, 50, ["inn"])) is True


def test_the_assistants() -> None:
    city = _rec(tally("small-city", {"Ann": 22, "Bo": "—"}, ["Ann"]), game="small-city")
    assert outcomes(city) == {"Ann": Outcome.WON, "Bo": Outcome.LOST}  # Bo left the game
    feudum = _rec(tally("feudum", {"Bo": 10, "Cy": 12, "Di": 12}, ["Cy", "Di"]),
                  game="feudum")
    assert outcomes(feudum) == {"Bo": Outcome.LOST, "Cy": Outcome.TIED, "Di": Outcome.TIED}


def test_real_games_from_the_store() -> None:
    store = MemoryStore()
    svc = VillageService(store)
    sid = finished_village(svc, ["Dana"], seed=5, solo_game=True)
    city = finished_tally(store, "small-city", ["Ann", "Bo"])
    records = {r.id: r for r in build_records(store.list_sessions()).records}
    dana = records[sid]
    assert dana.solo and dana.achievement is not None
    expected = Outcome.LOST if dana.achievement == "apprentice" else Outcome.WON
    assert outcomes(dana) == {"Dana": expected}
    assert dana.karla_policy in ("ask", "auto") and dana.karla_colour == "purple"
    assert outcomes(records[city]) == {"Ann": Outcome.WON, "Bo": Outcome.LOST}
    stats = compute_stats(records.values())
    for p in stats.players:
        assert p.plays == p.wins + p.losses + p.ties + p.unknown == 1


# -- statistics over random result sets --------------------------------------------------

_NAMES = ["Ann", "Bo", "Cy", "Di"]
_ACHIEVEMENTS = ["apprentice", "traveller", "master", "sage", None]


@st.composite
def _game(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    day = f"2024-0{draw(st.integers(1, 9))}-1{draw(st.integers(0, 9))}"
    if draw(st.booleans()):
        name = draw(st.sampled_from(_NAMES))
        return "village", solo(name, draw(st.integers(0, 99)), draw(
            st.sampled_from(_ACHIEVEMENTS)), day=day,
            variant=draw(st.sampled_from(["standard", "d4", None])),
            policy=draw(st.sampled_from(["ask", "auto", None])))
    names = draw(st.lists(st.sampled_from(_NAMES), min_size=2, max_size=4, unique=True))
    scores = {n: draw(st.integers(0, 60)) for n in names}
    winners = draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True))
    return draw(st.sampled_from(["village", "feudum"])), {
        "players": names, "scores": scores, "winners": winners, "date": day}


@settings(max_examples=60, deadline=None)
@given(st.lists(_game(), max_size=12))
def test_plays_wins_losses_and_ties_add_up(games: list[tuple[str, dict[str, Any]]]) -> None:
    records = build_records([info(f"g{i}", summary, game=game)
                             for i, (game, summary) in enumerate(games)]).records
    stats = compute_stats(records)
    # Worked out again, naively, from the summaries themselves.
    expected: dict[str, Counter[str]] = {}
    for _game_name, summary in games:
        if summary.get("solo"):
            (name,) = summary["scores"]
            a = summary.get("achievement")
            result = ("unknown" if a is None else "lost" if a == "apprentice" else "won")
            expected.setdefault(name.casefold(), Counter())[result] += 1
            continue
        winners = summary["winners"]
        for name in summary["players"]:
            result = ("unknown" if not winners else "lost" if name not in winners
                      else "won" if len(winners) == 1 else "tied")
            expected.setdefault(name.casefold(), Counter())[result] += 1
    assert {p.key for p in stats.players} == set(expected)
    for p in stats.players:
        got = Counter({"won": p.wins, "lost": p.losses, "tied": p.ties,
                       "unknown": p.unknown})
        assert +got == +expected[p.key]
        assert p.plays == p.wins + p.losses + p.ties + p.unknown == sum(expected[p.key].values())
        decided = p.wins + p.losses + p.ties
        assert p.win_rate == (round(p.wins / decided, 4) if decided else None)
        assert p.longest_win_streak <= p.wins
        if p.solo is not None:
            assert p.solo.plays == p.solo.wins + p.solo.losses + p.solo.unknown
            assert sum(k.plays for k in p.solo.against_karla) == p.solo.plays
    for h in stats.head_to_head:
        assert h.games == h.a_ahead + h.b_ahead + h.level + h.unknown
        back = head_to_head(stats, h.b_name, h.a_name)
        assert back is not None and (back.a_ahead, back.b_ahead) == (h.b_ahead, h.a_ahead)
    assert sum(g.plays for g in stats.games) == sum(g.plays for g in stats.editions) \
        == len(records)
