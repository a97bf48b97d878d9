"""CART's absolute-error scan (continuous features, no missing values, like scikit-learn): the
weighted median and absolute error of every prefix and suffix of every node, from a weighted
wavelet matrix over the ranks of y, one vectorised step per bit of n. The exact splitter
(``dtcore.cart.splitter.scan_sorted``) and the explorer's candidate lists call it."""

from __future__ import annotations

import numpy as np


class _WaveletMatrix:
    """Weighted wavelet matrix over integer ranks: k-th-weight queries on many ranges at once,
    one vectorised step per bit (a loop over ~log2(n) bits, never over rows)."""

    def __init__(self, ranks: np.ndarray, w: np.ndarray, y: np.ndarray) -> None:
        m = ranks.size
        self.bits = max(1, int(m - 1).bit_length())
        self.c0: list[np.ndarray] = []  # per bit: zeros up to each position
        self.z: list[np.ndarray] = []  # per bit: weight of the zeros up to each position
        self.zy: list[np.ndarray] = []  # per bit: Σw·y of the zeros up to each position
        self.nz: list[int] = []  # per bit: number of zeros
        cur, cw, cy = ranks, w, w * y
        for b in range(self.bits - 1, -1, -1):
            zero = ((cur >> b) & 1) == 0
            self.c0.append(np.concatenate([[0], np.cumsum(zero)]))
            self.z.append(np.concatenate([[0.0], np.cumsum(np.where(zero, cw, 0.0))]))
            self.zy.append(np.concatenate([[0.0], np.cumsum(np.where(zero, cy, 0.0))]))
            self.nz.append(int(self.c0[-1][-1]))
            order = np.concatenate([np.flatnonzero(zero), np.flatnonzero(~zero)])
            cur, cw, cy = cur[order], cw[order], cy[order]

    def quantile(
        self, a: np.ndarray, b: np.ndarray, t: np.ndarray, strict: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank of the first element of [a, b) (in value order) whose cumulative weight reaches t
        (``strict``: exceeds t), with the weight and Σw·y of the elements of smaller rank."""
        a, b = a.copy(), b.copy()
        t = t.astype(np.float64).copy()
        val = np.zeros(a.size, np.int64)
        wl = np.zeros(a.size)
        wyl = np.zeros(a.size)
        for k, bit in enumerate(range(self.bits - 1, -1, -1)):
            c0, z, zy = self.c0[k], self.z[k], self.zy[k]
            zw = z[b] - z[a]
            right = (t >= zw) if strict else (t > zw)
            t = np.where(right, t - zw, t)
            wl += np.where(right, zw, 0.0)
            wyl += np.where(right, zy[b] - zy[a], 0.0)
            val |= right.astype(np.int64) << bit
            a0, b0 = c0[a], c0[b]
            a = np.where(right, self.nz[k] + a - a0, a0)
            b = np.where(right, self.nz[k] + b - b0, b0)
        return val, wl, wyl


def range_abs_errors(
    wm: _WaveletMatrix, ys: np.ndarray, a: np.ndarray, b: np.ndarray, w_tot: np.ndarray, wy_tot: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Σ w·|y − median| over ranges [a, b), with scikit-learn's weighted median (the midpoint
    when the cumulative weight hits exactly half)."""
    half = 0.5 * w_tot
    lo, _, _ = wm.quantile(a, b, half, strict=False)
    hi, wl, wyl = wm.quantile(a, b, half, strict=True)
    med = np.where(lo == hi, ys[hi], (ys[lo] + ys[np.minimum(hi, ys.size - 1)]) / 2)
    return (wy_tot - wyl - med * (w_tot - wl)) + (med * wl - wyl), med


def prefix_suffix_abs_errors(
    y: np.ndarray, w: np.ndarray, seg_start: np.ndarray, seg_len: np.ndarray, seg_id: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Absolute error of every prefix [start, i] and every suffix [i, end) of every segment."""
    m = y.size
    if seg_id is None:  # the segment of every position (as ``splitter.segment_ids`` numbers them)
        seg_id = np.repeat(np.arange(seg_len.size, dtype=np.int64), seg_len)
    order = np.argsort(y, kind="stable")
    ranks = np.empty(m, np.int64)
    ranks[order] = np.arange(m)
    ys = y[order]
    wm = _WaveletMatrix(ranks, w, y)
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cwy = np.concatenate([[0.0], np.cumsum(w * y)])
    pos = np.arange(m)
    start = seg_start[seg_id]
    end = start + seg_len[seg_id]
    a, b = start, pos + 1
    pre, _ = range_abs_errors(wm, ys, a, b, cw[b] - cw[a], cwy[b] - cwy[a])
    a, b = pos, end
    suf, _ = range_abs_errors(wm, ys, a, b, cw[b] - cw[a], cwy[b] - cwy[a])
    return pre, np.concatenate([suf, [0.0]])
