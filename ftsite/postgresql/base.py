"""Django's PostgreSQL backend (``ENGINE = "ftsite.postgresql"`` where the pool is on:
``ftsite.blocks.databases``), the pool's connections checked on their way out by a poll
of their socket instead of Django's round trip (``ftsite.dbpool.connection_dropped``)."""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from ftsite.dbpool import connection_dropped


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        """A connection from the pool that PostgreSQL has not closed: each one it has
        (after a restart, every idle one) goes back to the pool, which discards it, and
        the next is taken; at most the pool's size of them, then a new one."""
        fresh = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is None:
            return fresh
        for _ in range(pool.max_size):
            if not connection_dropped(fresh):
                return fresh
            pool.putconn(fresh)  # broken: closed and replaced by the pool, never lent again
            fresh = super().get_new_connection(conn_params)
        return fresh
