"""Rows by key whose SQL is compiled once per process, for the hottest reads.

Django builds and compiles a queryset's SQL anew on every evaluation. For a game socket's
connect (the game with its deal and player, ``games.access.access_game``) that was most of
the time the process's one core spent on it: py-spy put the ORM's SQL compiler at about a
quarter of a connect's work in a reconnect storm (docs/benchmarks.md); the session and the
user every socket reads were the next (``ftsite.sessions``, ``games.socket.session_user``).
A :class:`PreparedRow` (and :class:`RowByPk`) compiles its queryset once (per database
alias), then runs the same SQL with each new key and builds the instances (select_related
included) exactly as ``QuerySet`` does, through the compiler's own converters and related
populators. A queryset may carry annotations (a subquery's column beside the row's: a
socket's session, ``games.socket.session_user``), set on the instance as ``QuerySet``
sets them.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Field, Model, QuerySet
from django.db.models.sql.compiler import SQLCompiler

from ftsite.patches import sql_row_plan

M = TypeVar("M", bound=Model)

# A key no row has, compiled into the SQL and found again among its parameters.
_SENTINEL = uuid.UUID("00000000-0000-4000-8000-00000000f00d")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    key_index: dict[str, int]  # where each lookup's value goes among the parameters
    compiler: SQLCompiler
    fields: tuple[int, int]  # where the model's own columns are in a row
    init_list: list[str]
    populators: list[Any]
    annotations: dict[str, int]  # an annotation's name -> its column in a row
    # (column, its converters, its expression): what the compiler's get_converters lists,
    # which it works out anew for every row set (about 80 us for a game row's 48 columns).
    converters: list[tuple[int, list[Any], Any]]


class PreparedRow(Generic[M]):
    """``queryset.filter(**lookups)``'s one row (or ``None``) for a queryset of
    ``select_related`` rows, compiled once: the lookups (``session_key``, ``pk``,
    ``expire_date__gt``, each on a field of the model itself) are the parameters, given to
    :meth:`get`. ``sentinels`` holds, for each lookup, a value of its field's type that no
    query would ask for, compiled into the SQL and found again among its parameters; at
    most one row must match (a key). ``queryset`` must not be filtered by anything that
    changes (its SQL is kept). A lookup of an annotation's subquery (on another model, its
    sentinel already in the queryset) names its field in ``param_fields``, so its value is
    prepared as that field's."""

    def __init__(
        self,
        queryset: QuerySet[M],
        *,
        param_fields: dict[str, Field[Any, Any]] | None = None,
        **sentinels: Any,
    ) -> None:
        self._queryset = queryset
        self._param_fields = dict(param_fields or {})
        self._sentinels = sentinels
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def get(self, *, using: str = "default", **values: Any) -> M | None:
        compiled, params = self._statement(using, values)
        with connections[using].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchone()
        return None if fetched is None else self._build(compiled, fetched, using)

    def get_many(
        self, lookups: Sequence[dict[str, Any]], *, using: str = "default"
    ) -> list[M | None]:
        """:meth:`get` for each of ``lookups`` (its keyword arguments), in their order.

        On PostgreSQL the statements go in one round trip (:func:`statement_rows_many`:
        psycopg's pipeline, Django's client-side binding as :meth:`get` has it). A connect thread
        that takes a reconnect storm's waiting connects together
        (``games.socket.connect_threads``) reads them this way: one wait for PostgreSQL
        and one hand-off of the interpreter's lock a batch, not one a socket
        (docs/benchmarks.md, "Session 13"). Elsewhere (SQLite) one statement each."""
        if not lookups:
            return []
        statements = [self._statement(using, values) for values in lookups]
        compiled = statements[0][0]
        fetched = statement_rows_many(compiled.sql, [params for _, params in statements], using)
        return [self._build(compiled, rows[0], using) if rows else None for rows in fetched]

    def _statement(self, using: str, values: dict[str, Any]) -> tuple[_Compiled, list[Any]]:
        """The compiled statement and its parameters for ``values`` (the lookups')."""
        compiled = self._compiled.get(using) or self._compile(using)
        connection = connections[using]
        params = list(compiled.params)
        for lookup, index in compiled.key_index.items():
            params[index] = self._prep(lookup, values[lookup], connection)
        return compiled, params

    def _build(self, compiled: _Compiled, fetched: Any, using: str) -> M:
        """The instance (select_related included) of one fetched row, as ``QuerySet``
        builds it: the compiler's converters (listed once), ``from_db``, the populators
        and the annotations."""
        connection = connections[using]
        row = list(fetched)
        for index, converters, expression in compiled.converters:
            value = row[index]
            for convert in converters:
                value = convert(value, expression, connection)
            row[index] = value
        start, end = compiled.fields
        model = self._queryset.model
        obj = model.from_db(using, compiled.init_list, row[start:end])
        for populator in compiled.populators:
            populator.populate(row, obj)
        for name, index in compiled.annotations.items():
            setattr(obj, name, row[index])
        return obj

    def _prep(self, lookup: str, value: Any, connection: Any) -> Any:
        """The parameter the ORM would send for ``lookup=value`` (exact and comparison
        lookups on a field of the model, or of ``param_fields``: the field's own database
        value)."""
        name = lookup.split("__", 1)[0]
        meta = self._queryset.model._meta
        field = self._param_fields.get(lookup) or (
            meta.pk if name == "pk" else meta.get_field(name)
        )
        assert field is not None
        return field.get_db_prep_value(value, connection, prepared=False)  # type: ignore[union-attr]

    def _compile(self, using: str) -> _Compiled:
        with self._lock:
            if using in self._compiled:
                return self._compiled[using]
            # param_fields' lookups are the queryset's own already (its annotations').
            own = {k: v for k, v in self._sentinels.items() if k not in self._param_fields}
            query = self._queryset.filter(**own).using(using).query
            compiler = query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            key_index: dict[str, int] = {}
            for lookup, sentinel in self._sentinels.items():
                marker = self._prep(lookup, sentinel, connections[using])
                found = [i for i, p in enumerate(params) if p == marker]
                if len(found) != 1:
                    raise ValueError(f"{lookup} is not one parameter of {sql!r}: {params!r}")
                key_index[lookup] = found[0]
            # How QuerySet builds the instances from a row: Django's internals
            # (ftsite.patches.sql_row_plan, guarded there).
            plan = sql_row_plan(compiler, using)
            compiled = _Compiled(
                sql=sql,
                params=tuple(params),
                key_index=key_index,
                compiler=compiler,
                fields=plan.fields,
                init_list=plan.init_list,
                populators=plan.populators,
                annotations=plan.annotations,
                converters=plan.converters,
            )
            self._compiled[using] = compiled
            return compiled


def statement_rows_many(sql: str, params_list: list[Any], using: str = "default") -> list[Any]:
    """The rows of ``sql`` for each parameters of ``params_list``, a list each, in order.

    On PostgreSQL in one round trip: psycopg's pipeline mode, through its
    ``executemany(..., returning=True)`` (each parameters its own statement and result
    set, with Django's client-side binding as its cursor has it); logged as Django's debug
    cursor logs an ``executemany``. Elsewhere (SQLite) one statement each."""
    connection = connections[using]
    if len(params_list) < 2 or connection.vendor != "postgresql":
        found = []
        with connection.cursor() as cursor:
            for params in params_list:
                cursor.execute(sql, params)
                found.append(cursor.fetchall())
        return found
    fetched: list[Any] = []
    started = time.monotonic()
    with connection.cursor() as cursor, connection.wrap_database_errors:
        raw = cursor.cursor  # psycopg's: Django's wrapper has no executemany(returning=)
        raw.executemany(sql, params_list, returning=True)
        while True:
            fetched.append(raw.fetchall())
            if not raw.nextset():
                break
    if connection.queries_logged:
        connection.queries_log.append(
            {"sql": f"{len(params_list)} times: {sql}", "time": f"{time.monotonic() - started:.3f}"}
        )
    if len(fetched) != len(params_list):
        raise RuntimeError(f"{len(params_list)} statements gave {len(fetched)} results")
    return fetched


class RowByPk(PreparedRow[M]):
    """``queryset.filter(pk=key).first()``, compiled once (see :class:`PreparedRow`); the
    primary key a UUID unless ``sentinel`` is a key of another type no row has."""

    def __init__(self, queryset: QuerySet[M], sentinel: Any = _SENTINEL) -> None:
        super().__init__(queryset, pk=sentinel)

    def get(self, key: Any, *, using: str = "default") -> M | None:  # type: ignore[override]
        return super().get(using=using, pk=key)
