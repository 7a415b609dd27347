"""How many threads CPU inference uses: a leaf module, importable by every stage.

Decoding one question is a chain of small matrix products, each ending in a barrier where its
threads wait for one another. On a machine whose cores other processes keep busy, one of two
threads is often descheduled and the other waits for it at every barrier: on this project's
shared 2-core machine with a load average of 10, greedy decoding took 70 s with 2 threads and
6.7 s with 1 (``python /tmp`` figures in docs/model.md, "Cold start"). So inference takes the
cores the load average leaves free, at least one; ``CNL_THREADS`` overrides the choice.
"""
from __future__ import annotations

import os


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def inference_threads() -> int:
    """``CNL_THREADS`` when set, else the cores not kept busy by other processes (the 1-minute
    load average, rounded), at least one."""
    given = os.environ.get("CNL_THREADS", "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    cores = available_cores()
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cores
    return max(1, min(cores, int(cores - busy + 0.5)))


def use_inference_threads(threads: int | None = None) -> int:
    """Set torch's intra-op threads to ``threads`` (default :func:`inference_threads`); returns it."""
    import torch

    threads = threads or inference_threads()
    torch.set_num_threads(threads)
    return threads


__all__ = ["inference_threads", "use_inference_threads", "available_cores"]
