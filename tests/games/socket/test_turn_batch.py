"""``games.socket.turn_batch``: the calls of one turn of the event loop go to one send, in
order; each caller gets its own result or the batch's error."""

from __future__ import annotations

import asyncio

import pytest

from games.socket.turn_batch import TurnBatch


class Recorder:
    def __init__(self, fail: Exception | None = None) -> None:
        self.batches: list[list[int]] = []
        self.fail = fail

    async def send(self, items: list[int]) -> list[int]:
        self.batches.append(items)
        await asyncio.sleep(0)
        if self.fail is not None:
            raise self.fail
        return [item * 10 for item in items]


def test_it_sends_the_calls_of_one_turn_together_in_order() -> None:
    sent = Recorder()
    batch = TurnBatch(sent.send)

    async def main() -> list[int]:
        return list(await asyncio.gather(*(batch.call(n) for n in range(5))))

    assert asyncio.run(main()) == [0, 10, 20, 30, 40]
    assert sent.batches == [[0, 1, 2, 3, 4]]


def test_it_sends_a_later_turns_calls_in_a_batch_of_their_own() -> None:
    sent = Recorder()
    batch = TurnBatch(sent.send)

    async def main() -> tuple[int, int]:
        first = await batch.call(1)
        return first, await batch.call(2)

    assert asyncio.run(main()) == (10, 20)
    assert sent.batches == [[1], [2]]


def test_each_caller_gets_the_batchs_error() -> None:
    batch = TurnBatch(Recorder(fail=ConnectionError("redis gone")).send)

    async def main() -> list[object]:
        return list(await asyncio.gather(batch.call(1), batch.call(2), return_exceptions=True))

    outcomes = asyncio.run(main())
    assert [type(outcome) for outcome in outcomes] == [ConnectionError, ConnectionError]


def test_a_send_that_answers_the_wrong_number_of_calls_fails_them_all() -> None:
    async def short(items: list[int]) -> list[int]:
        return items[:1]

    batch = TurnBatch(short)

    async def main() -> list[object]:
        return list(await asyncio.gather(batch.call(1), batch.call(2), return_exceptions=True))

    assert [type(outcome) for outcome in asyncio.run(main())] == [ValueError, ValueError]


def test_a_cancelled_caller_does_not_stop_the_others() -> None:
    sent = Recorder()
    batch = TurnBatch(sent.send)

    async def main() -> int:
        gone = asyncio.ensure_future(batch.call(1))
        kept = asyncio.ensure_future(batch.call(2))
        await asyncio.sleep(0)  # both queued
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        return await kept

    assert asyncio.run(main()) == 20
    assert sent.batches == [[1, 2]]


def test_each_event_loop_has_its_own_batch() -> None:
    sent = Recorder()
    batch = TurnBatch(sent.send)
    assert asyncio.run(batch.call(3)) == 30
    assert asyncio.run(batch.call(4)) == 40
    assert sent.batches == [[3], [4]]
