"""Every library patch of ``ftsite.patches``: the upstream code each relies on is still
shaped as assumed (these fail when a lock bump changes it), each applies only within its
version guard, and each does what it says. The serving patches' effects on a connect are
also in tests/games/socket/test_connect_path.py, the dispatch's hops in
test_connect_threads.py, the prepared rows' equality with the ORM's in
tests/games/test_prepared.py."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from ftsite import patches


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """No patch decided yet (each ``apply_*`` decides again), restored afterwards."""
    state: dict[str, bool] = {}
    monkeypatch.setattr(patches, "applied", state)
    return state


def _installed_as(monkeypatch: pytest.MonkeyPatch, versions: dict[str, str]) -> None:
    real = patches.installed_version
    monkeypatch.setattr(patches, "installed_version", lambda name: versions.get(name) or real(name))


def _source(thing: Any) -> str:
    return inspect.getsource(thing)


# The guards ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "holds"),
    [("8.1.0", True), ("8.1.7rc1", True), ("8.0.9", False), ("8.2.0", False), ("9", False)],
)
def test_a_guard_holds_from_its_low_version_to_below_its_high_one(
    version: str, holds: bool
) -> None:
    assert patches.Guard("redis", "8.1", "8.2").holds(version) is holds


def test_a_guard_of_a_package_not_installed_does_not_hold() -> None:
    assert not patches.Guard("no-such-package-here", "1", "2").holds()


GUARDS = [patches.AUTOBAHN, patches.REDIS, patches.DJANGO, patches.CHANNELS, patches.CHANNELS_REDIS]


@pytest.mark.parametrize("guard", GUARDS, ids=lambda guard: guard.package)
def test_every_guard_holds_on_the_locked_versions(guard: patches.Guard) -> None:
    # A lock bump out of a guard's range fails here: check the shape tests below on the
    # new version, then widen the guard.
    assert guard.holds(), f"{guard.describe()}: installed {metadata.version(guard.package)}"


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_every_guard_holds_on_the_versions_the_locks_pin(lock: str) -> None:
    text = (Path(__file__).resolve().parents[1] / lock).read_text()
    for guard in GUARDS:
        pinned = re.search(rf"^{re.escape(guard.package)}==(\S+)", text, re.M | re.I)
        assert pinned is not None, guard.package
        assert guard.holds(pinned.group(1)), f"{pinned.group(0)}: not {guard.describe()}"


def test_a_patch_outside_its_guard_is_not_applied_and_says_so(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _installed_as(monkeypatch, {"autobahn": "27.1.0"})
    with caplog.at_level(logging.WARNING, logger="ftsite.patches"):
        assert patches.apply_autobahn_lazy_debug() is False
        assert patches.apply_autobahn_lazy_debug() is False
    assert fresh["autobahn_lazy_debug"] is False
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1  # once, however often it is asked
    assert "checked on autobahn>=26.11,<26.12, installed autobahn 27.1.0" in warned[0]


# autobahn: lazy debug lines --------------------------------------------------------------


def test_autobahn_still_formats_its_connection_debug_lines_with_pformat_and_hltype() -> None:
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    module = _source(protocol)  # the file: what the patch replaced is still named there
    assert re.search(r"^from pprint import pformat$", module, re.M)
    assert "attrs=pformat(configAttrLog))" in _source(protocol.WebSocketProtocol._connectionMade)
    assert re.search(r"^\s+hltype,$", module, re.M)  # imported by name from autobahn.util
    assert "func=hltype(self._connectionMade)" in module
    assert re.search(r"^from autobahn.util import .*\bhltype\b", _source(websocket), re.M)
    assert "return pformat(self._timings)" in _source(protocol)


def test_autobahns_debug_text_is_made_only_when_formatted(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[object] = []
    monkeypatch.setattr(
        patches.LazyPformat, "render", staticmethod(lambda obj: rendered.append(obj) or "x")
    )
    assert patches.apply_autobahn_lazy_debug() is True
    from autobahn.websocket import protocol

    lazy = protocol.pformat([("a", 1)])
    assert rendered == []  # nothing formatted until a log observer formats the line
    assert f"{lazy}" == "x" and rendered == [[("a", 1)]]


# redis-py: its version, read once --------------------------------------------------------


def test_redis_still_reads_its_version_from_metadata_at_each_driver_info() -> None:
    from redis import driver_info, utils

    module = _source(utils)  # the file: unchanged by the patch
    assert re.search(
        r'def get_lib_version\(\):\n    try:\n        libver = metadata.version\("redis"\)', module
    )
    # Imported inside the call, so replacing redis.utils.get_lib_version reaches it.
    assert re.search(r"^\s+from redis.utils import get_lib_version$", _source(driver_info), re.M)


def test_redis_version_once_is_left_out_from_redis_8_2_which_caches_it(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from redis import utils

    def upstream() -> str:
        return "8.2.0"

    monkeypatch.setattr(utils, "get_lib_version", upstream)
    _installed_as(monkeypatch, {"redis": "8.2.0"})
    with caplog.at_level(logging.WARNING, logger="ftsite.patches"):
        assert patches.apply_redis_version_once() is False
    assert utils.get_lib_version is upstream
    assert "installed redis 8.2.0; each connection reads the version" in caplog.text


def test_redis_version_once_reads_the_version_once_and_is_idempotent(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from redis import utils

    calls: list[int] = []

    def upstream() -> str:
        calls.append(1)
        return "8.1.0"

    monkeypatch.setattr(utils, "get_lib_version", upstream)
    assert patches.apply_redis_version_once() is True
    once = utils.get_lib_version
    assert patches.apply_redis_version_once() is True
    assert utils.get_lib_version is once  # not wrapped twice
    assert [utils.get_lib_version() for _ in range(3)] == ["8.1.0"] * 3 and calls == [1]


# Django's Redis cache: its client ------------------------------------------------------


def test_djangos_redis_cache_still_keeps_its_client_and_servers_where_assumed() -> None:
    from django.core.cache.backends.redis import RedisCache, RedisCacheClient
    from django.utils.functional import cached_property

    assert isinstance(RedisCache.__dict__["_cache"], cached_property)
    assert "return self._class(self._servers, **self._options)" in _source(RedisCache)
    assert 'self._servers = re.split("[;,]", server)' in _source(RedisCache.__init__)
    params = inspect.signature(RedisCacheClient.get_client).parameters
    assert list(params) == ["self", "key", "write"]
    assert params["write"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "if write or len(self._servers) == 1:" in _source(RedisCacheClient)  # the first


def test_the_cache_client_is_djangos_own_for_the_server_it_writes_to(
    fresh: dict[str, bool],
) -> None:
    from django.core.cache.backends.redis import RedisCache

    backend = RedisCache("redis://127.0.0.1:1/3,redis://127.0.0.1:2/3", {})  # never connected
    assert patches.redis_cache_client(backend, "k") is None  # not applied yet
    assert patches.apply_redis_cache_client() is True
    client = patches.redis_cache_client(backend, "k")
    assert client is not None
    assert client.connection_pool.connection_kwargs["port"] == 1
    assert client.connection_pool is backend._cache.get_client("k", write=True).connection_pool
    assert patches.redis_cache_server(backend) == "redis://127.0.0.1:1/3"


# channels_redis: a group's key ---------------------------------------------------------


def test_channels_redis_still_keeps_a_group_as_the_batched_joins_write_it() -> None:
    from channels_redis.core import RedisChannelLayer

    assert 'return f"{self.prefix}:group:{group}".encode("utf8")' in _source(
        RedisChannelLayer._group_key
    )
    add = _source(RedisChannelLayer.group_add)
    assert "group_key = self._group_key(group)" in add
    assert "connection = self.connection(self.consistent_hash(group))" in add
    assert "await connection.zadd(group_key, {channel: time.time()})" in add
    assert "await connection.expire(group_key, self.group_expiry)" in add
    assert "await connection.zrem(key, channel)" in _source(RedisChannelLayer.group_discard)
    # A join's script drops members past the expiry as a group_send does before reading.
    assert "max=int(time.time()) - self.group_expiry" in _source(RedisChannelLayer)


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        async def call(key: Any, *args: Any, **kwargs: Any) -> None:
            self.calls.append((name, key))

        return call


def test_the_group_key_is_the_one_group_add_writes(fresh: dict[str, bool]) -> None:
    from channels.layers import InMemoryChannelLayer
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1"])  # never connected
    recorder = _Recorder()
    layer.connection = lambda index: recorder  # type: ignore[method-assign]
    asyncio.run(layer.group_add("game-1", "specific.abc!def"))
    assert recorder.calls[0] == ("zadd", patches.channel_layer_group_key(layer, "game-1"))
    assert not patches.channel_layer_batched(layer)  # not applied yet
    assert patches.apply_channels_redis_group_key() is True
    assert patches.channel_layer_batched(layer)
    assert not patches.channel_layer_batched(InMemoryChannelLayer())


def test_outside_its_guard_joins_take_the_layers_own_group_add(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels_redis.core import RedisChannelLayer

    from games.socket.groups import group_join, group_leave

    _installed_as(monkeypatch, {"channels-redis": "4.4.0"})
    assert patches.apply_channels_redis_group_key() is False
    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1"])
    recorder = _Recorder()
    layer.connection = lambda index: recorder  # type: ignore[method-assign]
    assert asyncio.run(group_join(layer, "game-1", "specific.abc!def")) is True  # announces
    asyncio.run(group_leave(layer, "game-1", "specific.abc!def"))
    assert [name for name, _ in recorder.calls] == ["zadd", "expire", "zrem"]


def test_the_in_memory_layer_still_keeps_its_groups_where_a_join_counts_them() -> None:
    from channels.layers import InMemoryChannelLayer

    layer = InMemoryChannelLayer()
    asyncio.run(layer.group_add("game-1", "specific.abc!def"))
    assert isinstance(layer.groups, dict) and len(layer.groups["game-1"]) == 1


# Channels: dispatch without the hop ----------------------------------------------------


def test_channels_still_hops_to_close_old_connections_where_the_patch_leaves_it_out() -> None:
    from channels.consumer import AsyncConsumer
    from channels.generic.websocket import AsyncWebsocketConsumer

    dispatch = _source(AsyncConsumer.dispatch)
    assert "handler = getattr(self, get_handler_name(message), None)" in dispatch
    assert "await aclose_old_connections()" in dispatch
    assert "await handler(message)" in dispatch
    disconnect = _source(AsyncWebsocketConsumer.websocket_disconnect)
    assert "for group in self.groups:" in disconnect
    assert 'await self.disconnect(message["code"])' in disconnect
    assert "await aclose_old_connections()" in disconnect
    assert "raise StopConsumer()" in disconnect


def _consumer() -> type:
    from channels.generic.websocket import AsyncWebsocketConsumer

    class Consumer(AsyncWebsocketConsumer):
        seen: list[str]

        async def hello_there(self, message: dict[str, Any]) -> None:
            self.seen.append(message["type"])

        async def disconnect(self, code: int) -> None:
            self.seen.append(f"closed {code}")

    return Consumer


def test_the_game_consumer_dispatches_without_the_hop() -> None:
    from games.socket.consumers import GameConsumer

    assert GameConsumer.dispatch is patches._direct_dispatch  # type: ignore[comparison-overlap]
    assert GameConsumer.websocket_disconnect is patches._direct_websocket_disconnect  # type: ignore[comparison-overlap]


def test_the_duel_and_arena_sockets_dispatch_without_the_hop() -> None:
    from games.socket.arena_consumers import ArenaConsumer
    from games.socket.duel_consumers import DuelConsumer

    for consumer in (DuelConsumer, ArenaConsumer):
        assert consumer.dispatch is patches._direct_dispatch  # type: ignore[comparison-overlap]
        assert consumer.websocket_disconnect is patches._direct_websocket_disconnect  # type: ignore[comparison-overlap]


def test_a_direct_dispatch_calls_the_handler_and_closes_as_channels_does(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels import consumer as channels_consumer
    from channels.exceptions import StopConsumer
    from channels.generic import websocket as channels_websocket

    hops: list[int] = []

    async def hop() -> None:
        hops.append(1)

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", hop)
    monkeypatch.setattr(channels_websocket, "aclose_old_connections", hop)
    consumer_class = _consumer()
    assert patches.apply_channels_direct_dispatch(consumer_class) is True
    assert patches.apply_channels_direct_dispatch(consumer_class) is True  # idempotent
    consumer = consumer_class()
    consumer.seen = []
    asyncio.run(consumer.dispatch({"type": "hello.there"}))
    with pytest.raises(ValueError, match="No handler for message type nobody.home"):
        asyncio.run(consumer.dispatch({"type": "nobody.home"}))
    with pytest.raises(StopConsumer):
        asyncio.run(consumer.websocket_disconnect({"type": "websocket.disconnect", "code": 1000}))
    assert consumer.seen == ["hello.there", "closed 1000"] and hops == []


def test_outside_its_guard_a_consumer_keeps_channels_dispatch(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels.consumer import AsyncConsumer

    _installed_as(monkeypatch, {"channels": "4.4.0"})
    consumer_class = _consumer()
    assert patches.apply_channels_direct_dispatch(consumer_class) is False
    assert consumer_class.dispatch is AsyncConsumer.dispatch  # type: ignore[attr-defined]


def test_a_consumer_with_groups_is_refused_the_direct_disconnect(fresh: dict[str, bool]) -> None:
    consumer_class = _consumer()
    consumer_class.groups = ["lobby"]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="has groups"):
        patches.apply_channels_direct_dispatch(consumer_class)


# Django's SQL compiler: the row plan ---------------------------------------------------


def test_djangos_model_iterable_still_builds_rows_as_the_row_plan_does() -> None:
    from django.db.models.query import ModelIterable, get_related_populators
    from django.db.models.sql.compiler import SQLCompiler

    built = _source(ModelIterable.__iter__)
    for line in (
        "compiler.select,",
        "compiler.klass_info,",
        "compiler.annotation_col_map,",
        'select_fields = klass_info["select_fields"]',
        "model_fields_start, model_fields_end = select_fields[0], select_fields[-1] + 1",
        "f[0].target.attname for f in select[model_fields_start:model_fields_end]",
        "related_populators = get_related_populators(klass_info, select, db)",
        "db, init_list, row[model_fields_start:model_fields_end]",
        "rel_populator.populate(row, obj)",
        "setattr(obj, attr_name, row[col_pos])",
    ):
        assert line in built, line
    assert list(inspect.signature(get_related_populators).parameters) == [
        "klass_info",
        "select",
        "db",
    ]
    rows = _source(SQLCompiler.results_iter)
    assert "fields = [s[0] for s in self.select[0 : self.col_count]]" in rows
    assert "converters = self.get_converters(fields)" in rows
    assert "value = converter(value, expression, connection)" in _source(
        SQLCompiler.apply_converters
    )


@pytest.mark.django_db
def test_the_row_plan_places_a_sessions_columns_as_the_orm_does() -> None:
    from django.contrib.sessions.models import Session

    compiler = Session.objects.all().query.get_compiler(using="default")
    compiler.as_sql()
    plan = patches.sql_row_plan(compiler, "default")
    assert plan.init_list == [field.attname for field in Session._meta.concrete_fields]
    assert plan.fields == (0, len(plan.init_list)) and plan.populators == []


def test_outside_its_guard_the_sql_compiler_patch_stops_the_start(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed_as(monkeypatch, {"django": "6.0"})
    with pytest.raises(
        ImproperlyConfigured, match="checked on django>=5.2,<5.3; installed django 6.0"
    ):
        patches.apply_sql_compiler_plan()
    assert "sql_compiler_plan" not in fresh


def test_djangos_session_store_still_loads_through_the_hook_the_site_overrides() -> None:
    from django.contrib.sessions.backends.base import SessionBase
    from django.contrib.sessions.backends.db import SessionStore

    assert "s = self._get_session_from_db()" in _source(SessionStore.load)
    fetch = _source(SessionStore._get_session_from_db)
    assert "session_key=self.session_key, expire_date__gt=timezone.now()" in fetch
    assert "self._session_key = None" in fetch
    cached = _source(SessionBase._get_session)
    assert "return self._session_cache" in cached
    assert "self._session_cache = self.load()" in cached


# Django's lazy objects -------------------------------------------------------------------


def test_djangos_lazy_objects_still_keep_what_they_wrap_in_wrapped() -> None:
    from channels import auth, sessions
    from django.utils.functional import LazyObject, new_method_proxy

    assert "self._wrapped = empty" in _source(LazyObject.__init__)
    assert "if (_wrapped := self._wrapped) is empty:" in _source(new_method_proxy)
    assert "self._setup()" in _source(new_method_proxy)
    # Channels fills the scope's own the same way.
    assert 'self.scope["session"]._wrapped = self.session_store(session_key)' in _source(sessions)
    assert 'scope["user"]._wrapped = await get_user(scope)' in _source(auth)


def test_a_lazy_object_is_read_once_or_filled_in_place() -> None:
    from django.utils.functional import SimpleLazyObject

    reads: list[int] = []
    user = SimpleLazyObject(lambda: reads.append(1) or "alice")
    assert patches.lazy_unread(user) and patches.lazy_wrapped(user) is None
    assert patches.lazy_value(user) == "alice" and patches.lazy_value(user) == "alice"
    assert reads == [1] and not patches.lazy_unread(user)
    other = SimpleLazyObject(lambda: reads.append(2) or "never read")
    assert patches.lazy_fill(other, "bob") == "bob"
    assert str(other) == "bob" and reads == [1]
    assert not patches.lazy_unread("plain") and patches.lazy_wrapped("plain") is None


def test_outside_its_guard_the_lazy_objects_patch_stops_the_start(
    fresh: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed_as(monkeypatch, {"django": "6.0.1"})
    with pytest.raises(ImproperlyConfigured, match="LazyObject internals, checked on django"):
        patches.apply_django_lazy_objects()


def test_on_ready_the_guarded_patches_of_every_process_are_applied() -> None:
    names = (
        "sql_compiler_plan",
        "django_lazy_objects",
        "redis_cache_client",
        "channels_redis_group_key",
    )
    assert {name: patches.applied.get(name) for name in names} == dict.fromkeys(names, True)
