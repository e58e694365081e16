"""The packed move log (``games.logcodec``, issue 37): it reads back exactly what was
packed, for logs of every variant with take-backs and resigns, and refuses a damaged blob
instead of giving a shorter or different log."""

from __future__ import annotations

import zlib
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import RESIGN, UNDO, VARIANTS, GameState
from games.logcodec import MAGIC, LogCorrupt, LogEntry, log_pack, log_unpack

START = datetime(2026, 12, 7, 9, 30, tzinfo=UTC)

stamps = st.datetimes(
    min_value=datetime(1971, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
)
moves = st.one_of(
    st.sampled_from(["s", "c1-f", "w-c3", "c2-c9:3", UNDO, RESIGN]),
    st.text(min_size=1, max_size=16),
)


@st.composite
def logs(draw: st.DrawFn) -> list[LogEntry]:
    """Any log the rows could hold: moves of any text, scores and stamps going up or down."""
    size = draw(st.integers(min_value=1, max_value=60))
    return [
        LogEntry(
            seq,
            draw(moves),
            draw(st.booleans()),
            draw(st.integers(min_value=0, max_value=10**9)),
            draw(stamps),
        )
        for seq in range(1, size + 1)
    ]


@st.composite
def played_logs(draw: st.DrawFn) -> list[LogEntry]:
    """A log as the server records one: legal moves of some variant's deal, take-backs
    among them, perhaps a resign at the end; a score per action and stamps a human pace
    apart, to the microsecond."""
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    engine = GameState.from_seed(draw(st.integers(0, 10**6)), variant, undo_limit=100)
    at, entries = START, []
    for seq in range(1, draw(st.integers(1, 80)) + 1):
        legal = engine.legal_moves()
        choices = legal + ([UNDO] if engine.can_undo else [])
        if not choices or draw(st.integers(0, 40)) == 0:
            entries.append(LogEntry(seq, RESIGN, draw(st.booleans()), engine.score, at))
            break
        move = draw(st.sampled_from(choices))
        engine.undo() if move == UNDO else engine.play(move)
        at += timedelta(microseconds=draw(st.integers(0, 20_000_000)))
        entries.append(LogEntry(seq, move, draw(st.booleans()), engine.score, at))
    return entries


@given(logs())
def test_any_log_reads_back_exactly(log: list[LogEntry]) -> None:
    assert log_unpack(log_pack(log)) == log


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_logs())
def test_a_played_log_of_any_variant_with_take_backs_reads_back_exactly(
    log: list[LogEntry],
) -> None:
    back = log_unpack(log_pack(log))
    assert back == log
    assert [e.created_at.utcoffset() for e in back] == [timedelta(0)] * len(log)


def test_a_played_log_costs_a_few_bytes_an_action() -> None:
    engine = GameState.from_seed(7, "forty-thieves", undo_limit=0)
    at, log = START, []
    for seq in range(1, 201):
        move = engine.legal_moves()[0] if engine.legal_moves() else RESIGN
        if move != RESIGN:
            engine.play(move)
        at += timedelta(microseconds=1_234_567 + seq * 7919)
        log.append(LogEntry(seq, move, False, engine.score, at))
        if move == RESIGN:
            break
    assert len(log_pack(log)) < 12 * len(log)


@settings(deadline=None)
@given(logs(), st.data())
def test_any_changed_byte_is_refused(log: list[LogEntry], data: st.DataObject) -> None:
    blob = bytearray(log_pack(log))
    where = data.draw(st.integers(0, len(blob) - 1))
    blob[where] ^= data.draw(st.integers(1, 255))
    with pytest.raises(LogCorrupt):
        log_unpack(bytes(blob))


@given(logs(), st.data())
def test_a_cut_short_blob_is_refused(log: list[LogEntry], data: st.DataObject) -> None:
    blob = log_pack(log)
    with pytest.raises(LogCorrupt):
        log_unpack(blob[: data.draw(st.integers(0, len(blob) - 1))])


def test_a_blob_with_a_valid_checksum_but_a_bad_body_is_refused() -> None:
    """Even a body whose checksum was made to match (a bug, not line noise) must not
    read as a log: here one action more is promised than the body holds."""
    body = bytes([2, 0, 1, 1]) + b"s" + bytes([0, 0, 0])
    blob = MAGIC + zlib.crc32(body).to_bytes(4, "big") + zlib.compress(body)
    with pytest.raises(LogCorrupt, match="malformed"):
        log_unpack(blob)


def test_bytes_that_are_not_a_packed_log_are_refused() -> None:
    with pytest.raises(LogCorrupt, match="bad magic"):
        log_unpack(b"1. s\n2. c1-f\n")


def test_it_refuses_to_pack_a_log_whose_seqs_are_not_one_after_another() -> None:
    entry = LogEntry(1, "s", False, 0, START)
    with pytest.raises(ValueError, match="seq 3"):
        log_pack([entry, entry._replace(seq=3)])


def test_it_refuses_to_pack_naive_stamps_or_nothing() -> None:
    with pytest.raises(ValueError, match="naive"):
        log_pack([LogEntry(1, "s", False, 0, datetime(2026, 1, 1))])
    with pytest.raises(ValueError, match="empty"):
        log_pack([])
