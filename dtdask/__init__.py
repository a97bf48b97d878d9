"""The Dask engine of dtcore's histogram CART (``dtcore.cart.hist``): fit on data that do not fit in
one machine's memory, from a Dask DataFrame or a folder of Parquet files.

* ``summary``: the schema and the bins from one pass of per-partition summaries;
* ``source``: ``DaskHistograms``, the histogram source over persisted partitions (only
  histograms travel to the client);
* ``fit``: ``fit_dask``, which returns an ordinary dtcore model;
* ``cluster``: a client for a scheduler address, or a local cluster;
* ``cli``: ``dtcore train … --engine dask`` (dtcore's CLI imports it only then).

dtcore itself never imports this package (it stays numpy-only).
"""

from __future__ import annotations

from dtdask.cluster import connect
from dtdask.fit import fit_dask, read_frame

__all__ = ["connect", "fit_dask", "read_frame"]
