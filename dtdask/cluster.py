"""A Dask client: to a scheduler at an address, or on a local cluster started for the run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from distributed import Client, LocalCluster


@contextmanager
def connect(
    scheduler: str | None = None, n_workers: int = 2, memory_limit: str | None = None, processes: bool = True
) -> Iterator[Any]:
    """A ``distributed.Client`` for ``scheduler`` ("tcp://host:8786"), else for a new
    ``LocalCluster`` of ``n_workers`` one-thread workers, closed (and the cluster shut down)
    on exit."""
    if scheduler:
        client = Client(scheduler)
        try:
            yield client
        finally:
            client.close()
        return
    kw: dict[str, Any] = {"n_workers": n_workers, "threads_per_worker": 1, "processes": processes}
    kw["dashboard_address"] = "127.0.0.1:0"  # a free port on this machine only
    if memory_limit:
        kw["memory_limit"] = memory_limit
    with LocalCluster(**kw) as cluster, Client(cluster) as client:
        yield client
