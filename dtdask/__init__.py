"""The Dask engine of dtcore's histogram CART (``dtcore.cart.hist``): fit on data that do not fit in
one machine's memory, from a Dask DataFrame or a folder of Parquet files.

* ``profiles``: the column profiles dtcore's role and task rules read, from per-partition
  summaries (the same roles and task as in memory);
* ``summary``: the schema and the bins from one pass of per-partition summaries;
* ``source``: ``DaskHistograms``, the histogram source over persisted partitions (only
  histograms travel to the client);
* ``fit``: ``fit_dask``, which returns an ordinary dtcore model;
* ``cluster``: a client for a scheduler address, or a local cluster;
* ``cli``: ``dtcore train … --engine dask``, loaded by dtcore's CLI from the ``dtcore.engines``
  entry point only then.

Installed with dtcore's ``dask`` extra (``pip install 'dtcore[dask]'``); dtcore itself never
imports this package (it stays numpy-only).
"""

from __future__ import annotations

from dtdask.cluster import connect
from dtdask.fit import fit_dask, read_frame

__all__ = ["connect", "fit_dask", "read_frame"]
