"""``load.reconnect`` splits the server's CPU between its event loop (the main thread) and
its other threads (the connect threads), read from ``/proc`` like the process's total."""

from __future__ import annotations

import os
import threading
import time

from load.reconnect import cpu_seconds, thread_cpu_seconds


def test_it_charges_a_worker_threads_cpu_to_the_other_threads_not_the_main_one() -> None:
    pid = os.getpid()
    burnt, release = threading.Event(), threading.Event()

    def burn() -> None:
        started = time.thread_time()
        while time.thread_time() - started < 0.3:
            pass
        burnt.set()
        release.wait(10)  # alive while the split is read: an ended thread is in neither

    worker = threading.Thread(target=burn)
    main_before, other_before = thread_cpu_seconds(pid)
    worker.start()
    try:
        assert burnt.wait(30)
        main_after, other_after = thread_cpu_seconds(pid)
        total = cpu_seconds(pid)
    finally:
        release.set()
        worker.join()
    assert other_after - other_before >= 0.2  # the worker's 0.3 s, in clock ticks
    assert main_after - main_before < 0.2  # this thread only waited meanwhile
    assert main_after + other_after <= total + 0.05
