"""Templates: created, changed and retired only as versions with a config hash; bounds on the
buy-in; the exact-return check (> 100 % needs explicit, logged confirmation); the shipped
defaults; the facts players see; the terms a table gets."""

from __future__ import annotations

from typing import Any

import pytest

from qipai.authority import Authority, games
from qipai.authority import errors as E
from qipai.authority.oplog import Actor

OLGA = Actor("olga", "operator")


def test_shipped_templates_are_seeded_once(authority: Authority) -> None:
    made = authority.start()
    ids = {t.id for t in made}
    assert {
        "pokdeng-classic",
        "pokdeng-banker-player",
        "paigow",
        "holdem-bonus",
        "niuniu",
        "tiengow",
    } <= ids
    assert authority.start() == []
    classic = authority.templates.get("pokdeng-classic")
    assert classic.version == 1 and classic.config["mode"] == "classic"
    assert classic.config == games.default_settings("pokdeng") | {"mode": "classic"}
    assert classic.min_buy_in >= games.min_buy_in("pokdeng", games.parse_config("pokdeng", {}))
    assert authority.templates.get("holdem-bonus").pool_id == "holdem-bonus"
    assert authority.log.entries(action="template.create")[0]["actor"] == "system"


def test_create_change_retire_are_versions(authority: Authority) -> None:
    made = authority.templates.create(
        {
            "game": "pokdeng",
            "name": "High limit",
            "settings": {"mode": "classic", "limits": {"player": {"min": 1000, "max": 500_000}}},
            "min_buy_in": 10_000,
            "reason": "VIP room",
        },
        OLGA,
    )
    assert made.id == "pokdeng-high-limit" and made.version == 1
    assert len(made.config_hash) == 64
    changed = authority.templates.change(
        made.id,
        {"base_version": 1, "settings": {"mode": "classic", "betting_s": 20}, "reason": "slower"},
        OLGA,
    )
    assert changed.version == 2 and changed.config_hash != made.config_hash
    assert changed.min_buy_in == 10_000
    with pytest.raises(E.StaleVersion):
        authority.templates.change(made.id, {"base_version": 1, "name": "x", "reason": "r"}, OLGA)
    retired = authority.templates.retire(made.id, OLGA, "season over", 2)
    assert retired.version == 3 and retired.status == "retired"
    assert [v.version for v in authority.templates.versions(made.id)] == [1, 2, 3]
    assert authority.templates.get(made.id, 1).config_hash == made.config_hash
    with pytest.raises(E.TemplateRetired):
        authority.templates.for_player(made.id)
    with pytest.raises(E.TemplateRetired):
        authority.templates.change(made.id, {"base_version": 3, "name": "x", "reason": "r"}, OLGA)
    actions = [r["action"] for r in reversed(authority.log.entries(target=made.id))]
    assert actions == ["template.create", "template.change", "template.retire"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "nope", "name": "x"}, "game"),
        ({"game": "pokdeng", "name": ""}, "name"),
        ({"game": "pokdeng", "name": "x", "settings": {"decks": "eight"}}, "settings"),
        ({"game": "pokdeng", "name": "x", "settings": {"wild": 1}}, "settings"),
        ({"game": "pokdeng", "name": "x", "min_buy_in": 0}, "min_buy_in"),
        ({"game": "pokdeng", "name": "x", "min_buy_in": 10_000, "max_buy_in": 9_999}, "max_buy_in"),
        ({"game": "pokdeng", "name": "x", "min_buy_in": True}, "min_buy_in"),
        ({"game": "pokdeng", "name": "x", "min_buy_in": 10**13}, "min_buy_in"),
        ({"game": "pokdeng", "name": "x", "bot_levels": ["terminator"]}, "bot_levels"),
        ({"game": "pokdeng", "name": "x", "options": {"away_grace_s": 1}}, "away_grace_s"),
        ({"game": "pokdeng", "name": "x", "id": "Bad Id"}, "id"),
        ({"game": "pokdeng", "name": "x", "pool_id": "a:b"}, "pool_id"),
        ({"game": "pokdeng", "name": "x", "colour": "red"}, "colour"),
        ([1, 2], None),
    ],
)
def test_bad_templates_are_refused_and_change_nothing(
    authority: Authority, body: Any, field: str | None
) -> None:
    before = authority.log.count()
    with pytest.raises(E.BadRequest) as refused:
        authority.templates.create(body, OLGA)
    if field is not None:
        assert refused.value.field and field in refused.value.field, refused.value.to_json()
    assert authority.templates.current() == {}
    assert authority.log.count() == before


def test_the_minimum_buy_in_covers_the_games_worst_round(authority: Authority) -> None:
    need = games.min_buy_in("pokdeng", games.parse_config("pokdeng", {}))
    if need <= 1:
        pytest.skip("the game states no minimum buy-in yet (GameSpec.min_buy_in)")
    with pytest.raises(E.BadRequest) as refused:
        authority.templates.create({"game": "pokdeng", "name": "x", "min_buy_in": need - 1}, OLGA)
    assert refused.value.field == "min_buy_in"
    assert (
        authority.templates.create(
            {"game": "pokdeng", "name": "x", "min_buy_in": need}, OLGA
        ).min_buy_in
        == need
    )


def test_rtp_over_100_needs_explicit_logged_confirmation(
    authority: Authority, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def fake_rtp(game: str, config: Any) -> list[dict[str, Any]]:
        calls.append(game)
        odds = config.pair_odds
        return [games.bet_return_json({"bet": "P1 pair", "rtp": _pair_rtp(odds)})]

    monkeypatch.setattr(games, "rtp", fake_rtp)
    body = {"game": "pokdeng", "name": "Generous", "settings": {"pair_odds": 20}}
    with pytest.raises(E.RtpOver100) as refused:
        authority.templates.create(body, OLGA)
    assert "P1 pair" in refused.value.message
    assert authority.templates.current() == {}
    made = authority.templates.create(
        {**body, "confirm_rtp_over_100": True, "reason": "promo"}, OLGA
    )
    assert made.rtp_over_100
    (row,) = authority.log.entries(action="template.create")
    assert row["detail"]["confirmed_rtp_over_100"][0]["bet"] == "P1 pair"
    facts = authority.facts(made)
    assert facts["rtp"][0]["over_100"] and facts["rtp_status"] == "ready"
    assert calls == ["pokdeng"]  # the refused attempt computed it; then the cache
    # a second template with the same settings reads the cache: no third computation
    authority.templates.create({**body, "name": "Again", "confirm_rtp_over_100": True}, OLGA)
    assert calls == ["pokdeng"]


def _pair_rtp(odds: int) -> Any:
    from fractions import Fraction

    # a pair of two cards from 8 decks: (4*8 - 1) / (52*8 - 1)
    p = Fraction(31, 415)
    return p * (odds + 1)


def test_pools_are_scoped_to_one_game(authority: Authority) -> None:
    authority.templates.create({"game": "holdem-bonus", "name": "Hold A", "pool_id": "big"}, OLGA)
    authority.templates.create({"game": "holdem-bonus", "name": "Hold B", "pool_id": "big"}, OLGA)
    with pytest.raises(E.Conflict) as refused:
        authority.templates.create({"game": "pokdeng", "name": "P", "pool_id": "big"}, OLGA)
    assert refused.value.field == "pool_id"
    mine = authority.templates.create({"game": "holdem-bonus", "name": "Hold C"}, OLGA)
    assert mine.pool_id == mine.id


def test_players_pick_templates_never_settings(authority: Authority) -> None:
    authority.start()
    for key in ("config", "settings"):
        with pytest.raises(E.SettingsNotAllowed) as refused:
            authority.refuse_settings({"template": "pokdeng-classic", key: {"pair_odds": 10**9}})
        assert refused.value.field == key
    with pytest.raises(E.UnknownTemplate):
        authority.terms_for("nope")
    with pytest.raises(E.UnknownTemplate):
        authority.terms_for(["pokdeng-classic"])
    retired = authority.templates.create(
        {"game": "pokdeng", "name": "Old", "private_allowed": False}, OLGA
    )
    with pytest.raises(E.PrivateNotAllowed):
        authority.terms_for(retired.id, private=True)
    offer = authority.offer("pokdeng")
    assert {f["template"]["id"] for f in offer} >= {"pokdeng-classic", "pokdeng-banker-player"}
    first = offer[0]
    for key in ("pay_table", "min_buy_in", "max_buy_in", "config_hash", "rtp", "rules"):
        assert key in first
