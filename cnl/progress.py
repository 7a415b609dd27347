"""Progress on standard error for work a person waits for: a leaf module, importable by every stage.

* :func:`bar`: a tqdm bar for work that can be counted (texts embedded, bytes loaded); on a
  terminal it redraws in place, in a log it writes a line now and then, never nothing.
* :func:`step`: one piece of work that cannot be counted (converting a model, building an
  index): its name and the seconds so far, redrawn on a terminal, then ``done in 12.3 s``.
* :class:`Stages`: the stages of one command (``ask``: loading the model, linking, generating,
  querying): on a terminal a status line names the current one and is cleared when the answer
  comes; ``verbose`` prints each stage's seconds instead (``-v``).
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def _stream():
    return sys.stderr


def is_terminal() -> bool:
    try:
        return _stream().isatty()
    except (AttributeError, ValueError):
        return False


def bar(total: int | None, description: str, unit: str = "it", **options):
    """A tqdm progress bar on standard error, also when it is not a terminal (then a line every
    few seconds rather than a redraw)."""
    from tqdm import tqdm

    terminal = is_terminal()
    return tqdm(total=total, desc=description, unit=unit, file=_stream(), dynamic_ncols=terminal,
                mininterval=0.2 if terminal else 5.0, ascii=not terminal, **options)


class _Ticker:
    """A line redrawn on a terminal every 0.2 s: ``⠋ description (3.4 s)``."""

    def __init__(self, description: str) -> None:
        self.description = description
        self.started = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        n = 0
        while not self._stop.wait(0.2):
            n += 1
            self._draw(f"{SPINNER[n % len(SPINNER)]} {self.description} ({time.perf_counter() - self.started:.1f} s)")

    def _draw(self, text: str) -> None:
        try:
            _stream().write("\r\x1b[2K" + text)
            _stream().flush()
        except (OSError, ValueError):
            pass

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        self._draw("")
        return time.perf_counter() - self.started


@contextmanager
def step(description: str, *, quiet: bool = False):
    """Show ``description`` while the block runs and ``… done in N s`` after it (on a terminal
    with a live clock; in a log as two lines). ``quiet``: show nothing."""
    if quiet:
        yield
        return
    stream = _stream()
    ticker = _Ticker(description) if is_terminal() else None
    if ticker is None:
        print(f"{description} …", file=stream, flush=True)
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds = ticker.stop() if ticker is not None else time.perf_counter() - started
        print(f"{description}: done in {seconds:.1f} s", file=stream, flush=True)


class Stages:
    """The stages of one command. ``live``: a status line on a terminal naming the stage under
    way (default: when standard error is a terminal and not ``verbose``); ``verbose``: each
    stage's seconds on standard error when it ends."""

    def __init__(self, *, verbose: bool = False, live: bool | None = None) -> None:
        self.verbose = verbose
        self.live = (is_terminal() and not verbose) if live is None else live
        self.seconds: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str, detail=None):
        """Time the block as stage ``name``; ``detail``: a callable whose text the verbose line
        adds after the block (what the stage found)."""
        ticker = _Ticker(name + " …") if self.live else None
        started = time.perf_counter()
        try:
            yield
        finally:
            seconds = ticker.stop() if ticker is not None else time.perf_counter() - started
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds
            if self.verbose:
                extra = f" ({detail()})" if detail is not None else ""
                print(f"{name}: {seconds:.2f} s{extra}", file=_stream(), flush=True)


__all__ = ["bar", "step", "Stages", "is_terminal"]
