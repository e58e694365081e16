"""League writes: create, join by invite, leave, remove, rotate, delete, and their limits."""

from __future__ import annotations

import pytest

from games.errors import Forbidden, NotFound
from leaderboards.leagues import selectors, services
from leaderboards.leagues.access import access_league
from leaderboards.leagues.errors import (
    InviteInvalid,
    LeagueFull,
    LeagueNameInvalid,
    OwnerCannotLeave,
    TooManyLeagues,
)
from leaderboards.leagues.models import League, Membership

pytestmark = pytest.mark.django_db


def members_of(league: League) -> set[str]:
    return {
        m.user.username for m in Membership.objects.filter(league=league).select_related("user")
    }


def test_creating_a_league_makes_its_owner_a_member_and_stores_no_working_invite(user, settings):
    league = services.league_create(user=user, name="  Thursday   Club ")
    assert league.name == "Thursday Club" and league.owner == user
    assert members_of(league) == {"ada"}
    token = selectors.invite_token(league=league)
    assert len(token) >= 43 and token == selectors.invite_token(league=league)
    stored = League.objects.filter(pk=league.pk).values().get()
    assert token not in str(stored)
    assert league.invite_digest == selectors.invite_digest(token)
    # The token needs the server's secret: the stored nonce alone opens nothing.
    settings.SECRET_KEY = "another-secret-" * 4
    assert selectors.invite_token(league=league) != token


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_it_refuses_an_empty_or_overlong_name(user, name):
    with pytest.raises(LeagueNameInvalid, match="1 to 60 characters"):
        services.league_create(user=user, name=name)
    assert not League.objects.exists()


def test_a_player_joins_by_the_invite_and_joining_again_changes_nothing(user, bob, make_league):
    league, token = make_league(user)
    assert services.league_join(user=bob, token=token) == league
    assert services.league_join(user=bob, token=token) == league
    assert members_of(league) == {"ada", "bob"}


def test_it_refuses_a_stale_invite_after_rotation(user, bob, carol, make_league):
    league, old = make_league(user)
    new = selectors.invite_token(
        league=services.league_invite_rotate(user=user, league_id=league.pk)
    )
    assert new != old
    with pytest.raises(InviteInvalid, match="owner has made a new one"):
        services.league_join(user=bob, token=old)
    services.league_join(user=carol, token=new)
    assert members_of(league) == {"ada", "carol"}


def test_it_refuses_an_unknown_invite(bob):
    with pytest.raises(InviteInvalid):
        services.league_join(user=bob, token="not-a-token")


def test_it_refuses_a_join_past_the_members_limit(settings, user, bob, carol, make_league):
    settings.FT_LEAGUE_MEMBERS = 2
    league, token = make_league(user, bob)
    with pytest.raises(LeagueFull, match="most a league may have \\(2\\)"):
        services.league_join(user=carol, token=token)
    assert members_of(league) == {"ada", "bob"}


def test_it_refuses_a_create_or_join_past_the_leagues_per_player_limit(
    settings, user, bob, make_league
):
    settings.FT_LEAGUES_PER_PLAYER = 2
    make_league(user, name="One")
    _, token = make_league(bob, name="Two")
    services.league_join(user=user, token=token)
    with pytest.raises(TooManyLeagues, match="leave one before"):
        services.league_create(user=user, name="Three")
    _, other = make_league(bob, name="Four")
    with pytest.raises(TooManyLeagues):
        services.league_join(user=user, token=other)


def test_a_member_leaves_but_the_owner_cannot(user, bob, make_league):
    league, _ = make_league(user, bob)
    services.league_leave(user=bob, league_id=league.pk)
    assert members_of(league) == {"ada"}
    with pytest.raises(OwnerCannotLeave, match="delete the league instead"):
        services.league_leave(user=user, league_id=league.pk)


def test_the_owner_removes_a_member(user, bob, make_league):
    league, _ = make_league(user, bob)
    services.league_member_remove(user=user, league_id=league.pk, member_id=bob.pk)
    assert members_of(league) == {"ada"}
    with pytest.raises(NotFound, match="not a member"):
        services.league_member_remove(user=user, league_id=league.pk, member_id=bob.pk)


def test_it_refuses_a_non_owner_removing_rotating_or_deleting(user, bob, carol, make_league):
    league, _ = make_league(user, bob, carol)
    with pytest.raises(Forbidden, match="owner"):
        services.league_member_remove(user=bob, league_id=league.pk, member_id=carol.pk)
    with pytest.raises(Forbidden):
        services.league_invite_rotate(user=bob, league_id=league.pk)
    with pytest.raises(Forbidden):
        services.league_delete(user=bob, league_id=league.pk)
    assert members_of(league) == {"ada", "bob", "carol"}


def test_a_non_member_is_told_the_league_does_not_exist(user, bob, make_league):
    league, _ = make_league(user)
    for purpose in ("view", "manage"):
        with pytest.raises(NotFound):
            access_league(user=bob, league_id=league.pk, purpose=purpose)
    with pytest.raises(NotFound):
        services.league_leave(user=bob, league_id=league.pk)
    with pytest.raises(NotFound):
        access_league(user=None, league_id=league.pk, purpose="view")
    with pytest.raises(NotFound):
        access_league(user=user, league_id="nope", purpose="view")


def test_the_owner_deletes_the_league_and_its_memberships(user, bob, make_league):
    league, _ = make_league(user, bob)
    assert services.league_delete(user=user, league_id=league.pk) == "Thursday Club"
    assert not League.objects.exists() and not Membership.objects.exists()
