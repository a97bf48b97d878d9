"""The "large data" source: Parquet files on the server, under one configured folder, trained on
Dask (``dtdask``) with CART's histogram splitter while the app holds a bounded sample in memory.

Safety: a visitor names a path or glob *relative to* the folder in ``DTREE_LARGE_DATA_DIR``
(:func:`configured_root`); every match is resolved (symlinks, ``..``) and must lie inside that
folder, else the whole request is refused (:func:`resolve_files`). Without the variable the
source is off.

Memory: only the Parquet footers (row counts, schema) of every file and the first
``⌈SAMPLE_ROWS / files⌉`` rows of each file are read (:func:`open_source`); the sample is the
session's table for the preview, the roles grid and the pages that need rows in memory. The fit
(:func:`fit_large`) runs on every row, on the workers of a Dask cluster (:func:`start_client`).

No Streamlit here (``ui/state/large_data.py`` and ``ui/sections/large_data.py`` hold the session side).
"""

from __future__ import annotations

import glob
import hashlib
import os
import sys
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError

from . import roles as R
from .loading import LoadedData, LoadError, raw_rows, tidy_frame
from .metrics import split_scores
from .training import Split, TrainingError, TrainResult, columns_to_train, estimator_params

ROOT_ENV = "DTREE_LARGE_DATA_DIR"
SCHEDULER_ENV = "DTREE_DASK_SCHEDULER"
WORKERS_ENV = "DTREE_DASK_WORKERS"
SAMPLE_ROWS = 5000  # rows held in memory per source (spread evenly over the files)
DEFAULT_DEPTH = 8  # the depth limit a large source starts with
SUFFIXES = (".parquet", ".pq")
MAX_FILES = 10_000
SOURCE = "large"  # LoadedData.source of a large-data sample


@dataclass(frozen=True)
class LargeSource:
    """What a large-data request resolved to: the pattern as typed, the files (absolute, sorted),
    their total rows, and the sample's size."""

    pattern: str
    files: tuple[str, ...]
    rows: int
    sample_rows: int
    digest: str

    @property
    def n_files(self) -> int:
        return len(self.files)


def configured_root(environ: dict | None = None) -> Path | None:
    """The folder large data may be read from (resolved), or None when the source is off (the
    variable unset, empty, or not naming a folder)."""
    value = (os.environ if environ is None else environ).get(ROOT_ENV, "").strip()
    if not value:
        return None
    root = Path(value).expanduser().resolve()
    return root if root.is_dir() else None


def scheduler_address(environ: dict | None = None) -> str | None:
    value = (os.environ if environ is None else environ).get(SCHEDULER_ENV, "").strip()
    return value or None


def worker_count(environ: dict | None = None) -> int:
    """Worker processes of the local cluster (``DTREE_DASK_WORKERS``, at least 1; default 2)."""
    try:
        return max(1, int((os.environ if environ is None else environ).get(WORKERS_ENV, "2")))
    except ValueError:
        return 2


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def resolve_files(pattern: str, root: Path) -> list[Path]:
    """The Parquet files ``pattern`` names under ``root``: a file, a folder (its ``*.parquet``
    files) or a glob (``**`` for sub-folders), relative to ``root`` (an absolute path must lie in
    it). Raises ``LoadError``: empty pattern, anything resolving outside ``root`` (refused as
    typed; a glob's match that leads out through a symlink is skipped, never read), no Parquet
    file matching."""
    text = pattern.strip()
    if not text or "\x00" in text:
        raise LoadError("large.err.empty")
    root = root.resolve()
    base = Path(text) if os.path.isabs(text) else root / text
    # the part before the first wildcard, resolved: "../*" or "/etc/*" is refused as typed
    fixed = Path(*[p for p in _parts_before_glob(base)]) if _has_glob(str(base)) else base
    if not _inside(fixed.resolve(), root):
        raise LoadError("large.err.outside", pattern=text)
    if not _has_glob(str(base)) and base.is_dir():
        base = base / "*"
    try:
        matches = sorted(glob.glob(str(base), recursive=True))[: MAX_FILES + 1]
    except (OSError, ValueError, RecursionError):
        raise LoadError("large.err.bad_glob", pattern=text) from None
    files, outside = [], 0
    for m in matches:
        real = Path(m).resolve()
        if not _inside(real, root):  # through a symlink out of the folder: never read
            outside += 1
        elif real.is_file() and real.suffix.lower() in SUFFIXES:
            files.append(real)
    files = sorted(dict.fromkeys(files))
    if not files:
        raise LoadError("large.err.outside" if outside else "large.err.no_files", pattern=text)
    if len(files) > MAX_FILES:
        raise LoadError("large.err.too_many", pattern=text, limit=MAX_FILES)
    return files


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def _parts_before_glob(path: Path) -> list[str]:
    out = []
    for part in path.parts:
        if _has_glob(part):
            break
        out.append(part)
    return out


def shown_name(path: Path, root: Path) -> str:
    """A file as the user sees it: relative to the configured folder (never the server's layout)."""
    try:
        return path.relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def open_source(pattern: str, root: Path, sample_rows: int = SAMPLE_ROWS) -> tuple[LargeSource, LoadedData]:
    """Resolve ``pattern``, read every file's footer (rows, columns: all files must have the same
    columns) and the first rows of each file as the sample. ``LoadError`` on any failure."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = resolve_files(pattern, root)
    per_file = -(-sample_rows // len(files))
    total = 0
    names: list[str] | None = None
    parts: list[pa.Table] = []
    stamp = hashlib.sha256()
    for f in files:
        shown = shown_name(f, root)
        try:
            pf = pq.ParquetFile(f)
            cols = list(pf.schema_arrow.names)
            total += pf.metadata.num_rows
            if names is None:
                names = cols
            elif cols != names:
                raise LoadError("large.err.columns", file=shown, first=shown_name(files[0], root))
            if sum(p.num_rows for p in parts) < sample_rows:
                batches = []
                got = 0
                for batch in pf.iter_batches(batch_size=min(per_file, 65_536)):
                    batches.append(batch)
                    got += batch.num_rows
                    if got >= per_file:
                        break
                if batches:
                    parts.append(pa.Table.from_batches(batches).slice(0, per_file))
            st = f.stat()
        except LoadError:
            raise
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise LoadError("large.err.unreadable", file=shown, detail=str(exc)[:200]) from None
        stamp.update(f"{f}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    if not parts or names is None:
        raise LoadError("large.err.empty_files", pattern=pattern.strip())
    try:
        table = pa.concat_tables(parts, promote_options="default")
        df = tidy_frame(table.to_pandas())
    except (pa.ArrowException, DataError, ValueError) as exc:
        raise LoadError("large.err.unreadable", file=pattern.strip(), detail=str(exc)[:200]) from None
    digest = "large:" + stamp.hexdigest()
    src = LargeSource(pattern.strip(), tuple(str(f) for f in files), total, len(df), digest)
    loaded = LoadedData(df, pattern.strip(), SOURCE, "parquet", None, digest)
    return src, loaded


def start_client(scheduler: str | None, n_workers: int = 2) -> Any:
    """A ``distributed.Client`` (``dtdask.cluster.open_client``): at ``scheduler``, else on a new
    local cluster of ``n_workers`` one-thread worker processes, the engine's modules imported on
    the new workers (``dtdask.cluster.warm_imports``). Kept open for the life of the server process by
    the caller's cache."""
    from dtdask.cluster import open_client, warm_imports

    with _script_main_hidden():
        client = open_client(scheduler, n_workers)
    if scheduler is None:
        client.run(warm_imports)
    return client


@contextmanager
def _script_main_hidden() -> Iterator[None]:
    """While worker processes start: ``__main__`` without a file. ``multiprocessing``'s spawn runs
    the parent's ``__main__`` file again in every child (as ``__mp_main__``); under Streamlit that
    is the app's script, run whole in each Dask worker (2–3 s of CPU each, before the worker
    takes any task); nothing of the script is sent to the workers."""
    main = sys.modules.get("__main__")
    bare = sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:  # unless a script run started meanwhile put its own module there
        if main is not None and sys.modules.get("__main__") is bare:
            sys.modules["__main__"] = main


def fit_large(
    source: LargeSource,
    sample: pd.DataFrame,
    roles: dict[str, str],
    task: str,
    algorithm: str,
    criterion: str,
    values: dict,
    client: Any,
    on_level: Callable[[int], object] | None = None,
) -> TrainResult:
    """CART (histogram splitter) on every row of ``source`` on Dask; scores on the sample (rows
    the tree was trained on, so training scores). ``TrainingError`` with a catalogue key."""
    from dtdask import fit_dask

    if algorithm != "cart":
        raise TrainingError("large.err.cart_only", algorithm=algorithm)
    target, features, kinds = columns_to_train(sample, roles, task)
    params = {**estimator_params("cart", task, criterion, values), "splitter": "hist"}
    t0 = time.perf_counter()
    try:
        est = fit_dask(
            list(source.files),
            target,
            task=task,
            features=features,
            categorical=[f for f, k in zip(features, kinds) if k == CATEGORICAL],
            continuous=[f for f, k in zip(features, kinds) if k == CONTINUOUS],
            client=client,
            on_level=on_level,
            **params,
        )
    except DataError as exc:
        raise TrainingError("train.err.data", detail=str(exc)) from None
    except ValueError as exc:
        raise TrainingError("train.err.params", detail=str(exc)) from None
    except OSError as exc:
        raise TrainingError("large.err.cluster", detail=str(exc)[:300]) from None
    seconds = time.perf_counter() - t0
    y = sample[target].to_numpy(dtype=object)
    known = np.nonzero(~pd.isna(sample[target]).to_numpy())[0]
    empty = np.zeros(0, dtype=known.dtype)
    rows = {"train": known, "valid": empty, "test": empty}
    scores = split_scores(est, raw_rows(sample, features), y, rows, task == R.CLASSIFICATION)
    return TrainResult(est, "cart", task, params, Split(), target, features, kinds, rows, scores, 0, seconds)
