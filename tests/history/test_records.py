"""GameRecords from SessionInfos: every game's summary shape, old and strange ones."""

from __future__ import annotations

from datetime import date

from companion.history.records import build_record, build_records
from tests.history.helpers import info, solo, tally, village


def test_a_new_village_summary_gives_every_field() -> None:
    summary = village({"Ann": 50, "Bo": 61, "Cy": 50}, day="2024-06-03", start="Cy",
                      categories={"Bo": {"prestige": 20, "coins": 41}}, minutes=95)
    summary["ranks"] = {"Bo": 1, "Ann": 2, "Cy": 2}
    rec = build_record(info("g1", summary))
    assert rec.date == date(2024, 6, 3) and rec.duration_min == 95
    assert rec.edition == "big-box" and not rec.solo and rec.start_player == "Cy"
    assert [(p.name, p.score, p.rank, p.winner) for p in rec.players] == [
        ("Ann", 50, 2, False), ("Bo", 61, 1, True), ("Cy", 50, 2, False)]
    assert rec.players[1].categories == {"prestige": 20, "coins": 41}
    assert rec.players[0].categories is None


def test_an_old_summary_leaves_the_new_fields_unknown() -> None:
    summary = village({"Ann": 40, "Bo": 30}, edition=None)
    rec = build_record(info("old", summary))
    assert (rec.edition, rec.duration_min, rec.start_player, rec.karla_variant) == (
        None, None, None, None)
    # Ranks are derived: winners first, then by score.
    assert [(p.name, p.rank, p.winner) for p in rec.players] == [("Ann", 1, True),
                                                                 ("Bo", 2, False)]


def test_a_tie_broken_by_the_rules_keeps_the_winner_first() -> None:
    rec = build_record(info("tie", village({"Ann": 12, "Bo": 12, "Cy": 5},
                                           winners=["Bo"])))
    assert [(p.name, p.rank) for p in rec.players] == [("Ann", 2), ("Bo", 1), ("Cy", 3)]


def test_solo_leaves_karla_out_and_keeps_achievement_and_variant() -> None:
    rec = build_record(info("s", solo("Ann", 52, "master", day="2024-01-02", variant="d4")))
    assert rec.solo and [p.name for p in rec.players] == ["Ann"]
    assert (rec.achievement, rec.karla_variant) == ("master", "d4")
    assert rec.opponent == "Karla"  # she played, unscored: the rows name her
    multi = build_record(info("m", village({"Ann": 40, "Bo": 30})))
    assert multi.opponent is None
    alone = build_record(info("t", tally("feudum", {"Ann": 20}, ["Ann"]), game="feudum"))
    assert alone.solo and alone.opponent is None  # nobody else listed


def test_the_edition_of_an_old_village_summary_where_it_is_certain() -> None:
    """Before summaries had an edition: solo and five players exist in Big Box only;
    two to four players could be either edition and stay unknown."""
    old_solo = solo("Ann", 52, "master", day="2024-01-02", variant=None)
    del old_solo["edition"]
    assert build_record(info("s", old_solo)).edition == "big-box"
    five = village({n: 10 + i for i, n in enumerate("ABCDE")}, edition=None)
    assert build_record(info("five", five)).edition == "big-box"
    four = village({n: 10 + i for i, n in enumerate("ABCD")}, edition=None)
    assert build_record(info("four", four)).edition is None
    told = village({"Ann": 3, "Bo": 4}, edition="2011")
    assert build_record(info("told", told)).edition == "2011"  # as stored, never guessed
    other = tally("villagers", {n: i for i, n in enumerate("ABCDE")}, ["E"])
    assert build_record(info("o", other, game="villagers")).edition is None


def test_a_player_out_of_the_game_has_no_score() -> None:
    rec = build_record(info("sc", tally("small-city", {"Ann": 22, "Bo": 30, "Cy": "—"},
                                        ["Bo"]), game="small-city"))
    cy = rec.players[2]
    assert (cy.score, cy.eliminated, cy.rank) == (None, True, None)
    assert (rec.players[0].rank, rec.players[1].rank) == (2, 1)
    assert rec.edition is None and rec.duration_min is None


def test_unfinished_games_are_not_records_and_strange_ones_are_counted() -> None:
    infos = [info("ok", village({"Ann": 3, "Bo": 2})),
             info("open", {"players": ["Ann"]}, finished=False),
             info("empty", {}), info("junk", {"players": 5, "scores": "x"}),
             info("nested", {"players": [[1], {"name": None}]})]
    built = build_records(infos)
    assert [r.id for r in built.records] == ["ok"]
    assert built.skipped == 3 and built.skipped_ids == ["empty", "junk", "nested"]


def test_odd_values_are_read_as_unknown_not_raised() -> None:
    summary = {"players": [{"name": "Ann", "total": "41"}, {"name": "Bo", "score": 7.0},
                           {"name": "Cy", "eliminated": True}],
               "winner": "Ann", "date": "not a date", "started_at": "x", "ended_at": 5,
               "solo": "no", "categories": {"Ann": {"coins": True}}, "start_player": "Zed"}
    rec = build_record(info("odd", summary, day="2023-02-03"))
    assert [(p.name, p.score, p.winner) for p in rec.players] == [
        ("Ann", 41, True), ("Bo", 7, False), ("Cy", None, False)]
    assert rec.date == date(2023, 2, 3)  # from the store's dates
    assert rec.start_player is None and rec.players[0].categories is None
    assert not rec.solo


def test_a_record_is_the_model_pydantic_would_make() -> None:
    # build_record makes its models without model_construct's loop (records.built):
    # the same fields, the same fields set, equal, hashable and copied alike.
    from companion.history.records import GameRecord, PlayerResult

    summary = village({"Ann": 50, "Bo": 61}, day="2024-06-03", start="Bo",
                      categories={"Bo": {"prestige": 20}}, minutes=40)
    rec = build_record(info("g1", summary))
    same = GameRecord.model_validate(
        {**rec.model_dump(), "players": [PlayerResult.model_validate(p.model_dump())
                                         for p in rec.players]})
    assert rec == same and rec.model_dump() == same.model_dump()
    assert rec.model_fields_set == set(GameRecord.model_fields)
    assert rec.players[0].model_fields_set == set(PlayerResult.model_fields)
    assert rec.model_copy(update={"title": "x"}).title == "x" and rec.title != "x"
    assert rec.__pydantic_extra__ is None and rec.__pydantic_private__ is None
