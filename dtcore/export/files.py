"""Writing an output file safely: all or nothing, and never over one of the command's inputs."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8 with the newlines given) to ``path`` through a temporary file
    in the same folder and a rename: a failure midway leaves the old file (or none), never a
    truncated one."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def refuse_input_as_output(out: str | Path | None, inputs: Iterable[str | Path | None]) -> None:
    """ValueError when the output path names one of the inputs (``predict m.json data.csv --out
    data.csv`` would replace the data with predictions)."""
    if out is None or str(out) == "-":
        return
    target = Path(out).resolve()
    for given in inputs:
        if given is not None and str(given) != "-" and Path(given).resolve() == target:
            raise ValueError(f"--out {str(out)!r} is an input of this command; write to another file")
