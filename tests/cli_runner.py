"""The command line run in this process: ``dtcore.cli.main(argv)`` with stdout and stderr captured.

Starting ``python -m dtcore`` costs a second or more of imports per call on the 2-core machine,
and most CLI tests are about what the command prints, not about the process. ``run_cli`` gives
what ``subprocess.run(..., capture_output=True)`` gives (``returncode``, ``stdout``, ``stderr``,
text or bytes) with what a real process would see: the exit code of ``SystemExit`` (argparse's
usage errors, ``--help``), exit code 1 and a traceback on stderr for an uncaught exception,
Python warnings printed on stderr with the interpreter's default filters, ``env`` as the whole
environment and ``cwd`` as the working directory for the duration of the call. Tests where the
process itself is the point (the console script, ``python -m dtcore``, memory caps, a remote
Dask scheduler) keep ``subprocess``.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from dtcore.cli import main

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class CliRun:
    """What one run printed and returned, shaped like ``subprocess.CompletedProcess``."""

    args: list[str]
    returncode: int
    stdout: str | bytes
    stderr: str | bytes


class Hung(BaseException):
    """A run went past its hang guard: a generous bound that catches a loop, not slowness
    (a BaseException, so that no ``except Exception`` on the way swallows it)."""


@contextlib.contextmanager
def hang_guard(seconds: float | None) -> Iterator[None]:
    """Raise ``Hung`` in the main thread after ``seconds`` (no guard off the main thread or
    where there is no SIGALRM); the stand-in for ``subprocess.run(timeout=...)`` in process."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise Hung(f"still running after {seconds} s: a hang, not a slow run")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    """``env`` as the whole environment; ``COLUMNS`` as a process writing to a pipe sees it (80
    unless set), so argparse wraps its usage text as it would there, not to pytest's terminal."""
    saved = dict(os.environ)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    os.environ.setdefault("COLUMNS", "80")
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _directory(cwd: str | Path | None) -> Iterator[None]:
    if cwd is None:
        yield
        return
    saved = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(saved)


@contextlib.contextmanager
def _process_warnings() -> Iterator[None]:
    """Warnings as a fresh interpreter shows them: on stderr, once per place, deprecations hidden."""

    def show(message, category, filename, lineno, file=None, line=None):
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    with warnings.catch_warnings():
        warnings.resetwarnings()
        warnings.simplefilter("default")
        for quiet in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
            warnings.simplefilter("ignore", quiet)
        warnings.showwarning = show
        yield


def _translated(data: bytes) -> str:
    """Bytes as ``subprocess.run(text=True)`` returns them: decoded, universal newlines."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    sys.stderr.write(f"{exc.code}\n")
    return 1


def run_cli(
    *args: object,
    cwd: str | Path | None = ROOT,
    env: Mapping[str, str] | None = None,
    text: bool = True,
    hang_seconds: float | None = None,
) -> CliRun:
    """``dtcore ARGS`` in this process; ``text=False`` gives the raw bytes of stdout/stderr."""
    argv = [str(a) for a in args]
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", write_through=True)
    with (
        _environment(env),
        _directory(cwd),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        _process_warnings(),
    ):
        try:
            with hang_guard(hang_seconds):
                code = main(argv) or 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except Exception:
            traceback.print_exc()
            code = 1
        out.flush()
        err.flush()
    stdout, stderr = out_bytes.getvalue(), err_bytes.getvalue()
    if text:
        return CliRun(argv, code, _translated(stdout), _translated(stderr))
    return CliRun(argv, code, stdout, stderr)
