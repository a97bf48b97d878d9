"""A Dask client: to a scheduler at an address, or on a local cluster started for it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from distributed import Client, LocalCluster


def warm_imports() -> None:
    """Import what the fit's tasks run (called on each worker through ``client.run``), so the first
    fit on new workers does not wait for the imports as its first tasks are unpickled."""
    import dask.dataframe  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    import dtdask.fit  # noqa: F401


def open_client(
    scheduler: str | None = None,
    n_workers: int = 2,
    memory_limit: str | None = None,
    processes: bool = True,
    protocol: str | None = None,
) -> Any:
    """A ``distributed.Client`` for ``scheduler`` ("tcp://host:8786"), else for a new
    ``LocalCluster`` of ``n_workers`` one-thread workers (worker processes, or threads when
    ``processes`` is False; ``protocol="tcp"`` lets another process reach a threaded one), its
    dashboard on this machine only (``connect`` shuts that cluster down with the client)."""
    if scheduler:
        return Client(scheduler, timeout="10s")
    kw: dict[str, Any] = {"n_workers": n_workers, "threads_per_worker": 1, "processes": processes}
    kw["dashboard_address"] = "127.0.0.1:0"  # a free port on this machine only
    if memory_limit:
        kw["memory_limit"] = memory_limit
    if protocol:
        kw["protocol"] = protocol
    return Client(LocalCluster(**kw))


@contextmanager
def connect(
    scheduler: str | None = None,
    n_workers: int = 2,
    memory_limit: str | None = None,
    processes: bool = True,
    protocol: str | None = None,
) -> Iterator[Any]:
    """:func:`open_client` for the length of a ``with`` block: the client closed (and a local
    cluster made for it shut down) on exit."""
    client = open_client(scheduler, n_workers, memory_limit, processes, protocol)
    try:
        yield client
    finally:
        cluster = None if scheduler else client.cluster
        client.close()
        if cluster is not None:
            cluster.close()
