"""``dtcore train --engine``: which engine fits, and whether the data fit in memory.

``memory`` (the default) reads the file into memory; any other engine is the ``train`` command an
installed package declares under the ``dtcore.engines`` entry-point group, called with the
flags as a ``TrainRun``. The ``dask`` extra
(``pip install 'dtcore[dask]'``) declares ``dask = dtdask.cli:cmd_train``: histogram CART over
the partitions of Parquet files, on a local cluster or at ``--scheduler``. dtcore stays
numpy-only: an engine's module is loaded only when asked for.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from dtcore.data.limits import NO_LIMITS, SizeLimits
from dtcore.schema import DataError

ENGINES = ("memory", "dask")
#: the entry-point group of the engines other than ``memory``
ENGINE_GROUP = "dtcore.engines"
#: a fit holds the text table, the float64 matrix and a sorted permutation per feature: about
#: this many times rows × columns × 8 bytes
MEMORY_FACTOR = 4


@dataclass(frozen=True)
class TrainRun:
    """What ``dtcore train`` asks another engine to do: its flags, read once by dtcore's CLI, so
    an engine depends on these fields and not on the parser's."""

    sources: tuple[str, ...]  # the data: a path, a glob, or several files
    target: str
    out: str
    algorithm: str = "cart"
    task: str | None = None  # None: the task the target implies (``dtcore.data.roles``)
    ignore: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    continuous: tuple[str, ...] = ()
    weight: str | None = None
    params: dict[str, Any] = field(default_factory=dict)  # the estimator's (``params_from_args``)
    picture: dict[str, Any] = field(default_factory=dict)  # ``write_tree_file``'s (``dot_options``)
    scheduler: str | None = None  # an engine's cluster address (``--scheduler``)
    limits: SizeLimits = NO_LIMITS  # the size limits the data is read with (``--no-limits``: none)


def add_engine_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("more_data", nargs="*", default=[], help=argparse.SUPPRESS)
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default="memory",
        help="memory: read the file here; dask: histogram CART on Dask over Parquet files "
        "(a path, a glob or several files; needs the dtdask package)",
    )
    p.add_argument("--scheduler", metavar="ADDR", help="--engine dask: a Dask scheduler (tcp://host:8786)")


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo in bytes (None where there is no such file)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def estimated_bytes(path: str | Path, sample: int = 1 << 16) -> int:
    """rows × columns × 8 × ``MEMORY_FACTOR``, rows from the file size over the mean length of
    the first lines, columns from the header."""
    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        head = fh.read(sample)
    lines = head.splitlines()
    if len(lines) < 2:
        return 0
    header = lines[0].decode("utf-8", "replace")
    cols = max(header.count(","), header.count("\t"), header.count(";")) + 1
    body = lines[1:-1] if len(lines) > 2 and len(head) == sample else lines[1:]
    mean = max(1.0, sum(len(x) + 1 for x in body) / max(len(body), 1))
    return int(size / mean) * cols * 8 * MEMORY_FACTOR


def check_fits_in_memory(path: str | Path, available: int | None = None) -> None:
    """A DataError suggesting ``--engine dask`` when the file will not fit in memory."""
    if Path(path).suffix.lower() == ".parquet":
        raise DataError(f"{Path(path).name} is a Parquet file: train on it with --engine dask")
    available = available_memory() if available is None else available
    need = estimated_bytes(path)
    if available is not None and need > available:
        raise DataError(
            f"{Path(path).name} needs about {need / 2**30:.1f} GiB to train in memory but "
            f"{available / 2**30:.1f} GiB is available: convert it to Parquet and use "
            "--engine dask (optionally --scheduler ADDR)"
        )


def engine_train(name: str) -> Callable[[TrainRun], int]:
    """The ``train`` command of engine ``name``, loaded from its entry point; a DataError with
    the install line when the extra (or one of its packages) is missing."""
    advice = f"--engine {name} needs dtcore's {name} extra: pip install 'dtcore[{name}]'"
    found = [ep for ep in entry_points(group=ENGINE_GROUP) if ep.name == name]
    if not found:
        raise DataError(advice)
    try:
        train: Callable[[TrainRun], int] = found[0].load()
    except ImportError as e:
        raise DataError(f"{advice} ({e})") from None
    return train


def dispatch(args: argparse.Namespace, run: Callable[[], TrainRun]) -> int | None:
    """Run ``train`` on another engine (its exit code) with the run ``run()`` describes, or None
    for the in-memory engine (after checking that the data fit)."""
    engine = getattr(args, "engine", "memory")
    if engine != "memory":
        return engine_train(engine)(run())
    if getattr(args, "more_data", None):
        raise DataError(
            "several data files: the in-memory engine reads one; use --engine dask for Parquet files"
        )
    check_fits_in_memory(args.data)
    return None
