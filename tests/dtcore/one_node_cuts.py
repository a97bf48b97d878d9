"""C4.5's cuts at one node, scored by the builder's own pass (``score_cuts_batch`` with a single
node), as per-feature arrays: what the tests compare the explorer and hand-worked figures with."""

from dataclasses import fields

import numpy as np

from dtcore.entropy.cutpoints import BatchCutScores, score_cuts_batch


def c45_node_cuts(V, Y, W, N, n_classes, **kw) -> BatchCutScores:
    """``score_cuts_batch`` on one node (columns 0..n of V, Y, W); every array (F,)."""
    b = score_cuts_batch(V, Y, W, np.array([0]), np.array([float(N)]), n_classes, **kw)
    return BatchCutScores(**{f.name: getattr(b, f.name)[:, 0] for f in fields(b)})
