"""CART tree builders: level-wise (same tree as scikit-learn's depth-first builder) and best-first
(``max_leaf_nodes``), sharing one vectorised step.  (Longer than the project's ~500-line guide on
purpose: the step, its partition and its stop rules are one kernel over a whole level, read
together.)

Each continuous feature is argsorted once.  The rows of the nodes being split lie in contiguous
segments of one permutation per feature, sorted by that feature inside each segment.  A step
scores every candidate of every segment per feature (``cart.splitter.best_cuts``), keeps the best
per node, and a stable O(n) partition (ranks from a cumulative sum, no re-sort) lays the children
out in the same way for the next step.

Stop rules: scikit-learn's, in ``dtcore.cart.rules`` (their one home, which the histogram
builder and the split explorer call too).  Exact ties between features go to the lowest feature
index (scikit-learn breaks them by its random feature order).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dtcore.cart.assembly import LevelNodes, Splits, assemble
from dtcore.cart.categorical import best_categorical, category_stats, scan_categorical
from dtcore.cart.rules import GrowParams, decrease_ok, leaf_by_pretest
from dtcore.cart.splitter import (
    MISSING_ALONE,
    SCAN_CHUNK,
    best_cuts,
    prepare_scan,
    segment_ids,
    thresholds,
)
from dtcore.criteria import CLASSIFICATION_CRITERIA, EPSILON, class_impurity, impurity_improvement
from dtcore.progress import report
from dtcore.tree import Tree


@dataclass
class _Choice:
    """Best split per segment."""

    proxy: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    missing_left: np.ndarray
    # categorical winners, sparse: key s·(max_cat+1) + code (max_cat = missing) of every
    # category present at a segment split by a categorical feature, sorted, and its side
    cat_key: np.ndarray
    cat_left: np.ndarray
    n_left: np.ndarray
    n_right: np.ndarray
    # a continuous winner's neighbours in its segment's sorted values: the largest known value
    # left of the cut and the smallest right of it (+inf when the missing values go alone)
    below: np.ndarray
    above: np.ndarray


class Grower:
    """Holds the training arrays and the sorted permutations; ``grow()`` returns a ``Tree``."""

    CHUNK_ELEMENTS = 1 << 15  # rows × features per vectorised pass (larger ones fall out of cache)
    SCAN_CHUNK = SCAN_CHUNK  # candidates scored at a time (``best_cuts``; tests make it small)
    # a table up to this size is copied feature-major: a feature's gather then reads one
    # contiguous column (10⁵ × 20: 10 % of a fully grown fit); a bigger one is read in place,
    # its columns strided (10⁶ × 20: 160 MB saved, the gathers ~10 % slower)
    FEATURE_MAJOR_BYTES = 1 << 25

    def __init__(
        self,
        X: np.ndarray,
        y: np.ndarray,
        w: np.ndarray,
        n_categories: Sequence[int] | np.ndarray,
        params: GrowParams,
    ) -> None:
        self.p = params
        self.crit = params.criterion
        self.is_clf = self.crit in CLASSIFICATION_CRITERIA
        n, nf = X.shape
        self.n, self.nf = n, nf
        self.ncat = [int(c) for c in n_categories]
        self.n_cats = np.array(self.ncat, np.int64)  # the same, to read for many features at once
        # a gather of several features reads the flat buffer at row·row_step + j·col_step
        X = np.asarray(X, dtype=np.float64)
        if X.nbytes <= self.FEATURE_MAJOR_BYTES:
            X = np.asfortranarray(X)
        elif not (X.flags.c_contiguous or X.flags.f_contiguous):
            X = np.ascontiguousarray(X)
        self.X = X
        self.X_flat = X.reshape(-1) if X.flags.c_contiguous else X.T.reshape(-1)
        self.row_step: int = nf if X.flags.c_contiguous else 1
        self.col_step: int = 1 if X.flags.c_contiguous else n
        self.w = np.asarray(w, dtype=np.float64)
        self.w_total = float(self.w.sum())
        self.all_positive = bool(np.all(self.w > 0))
        self.cont = [j for j in range(nf) if self.ncat[j] == 0]
        self.has_nan = [bool(np.isnan(X[:, j]).any()) for j in range(nf)]
        self.max_cat = max([c for c in self.ncat if c > 0], default=0)
        itype = np.int32 if n < 2**31 - 1 else np.int64
        perm = np.empty((len(self.cont) + 1, n), dtype=itype)
        for r, j in enumerate(self.cont):
            perm[r] = np.argsort(X[:, j])  # NaN last; order inside ties does not matter
        perm[-1] = np.arange(n)
        self.perm0 = perm
        if self.is_clf:
            K = params.n_classes
            self.y = np.asarray(y, dtype=np.int64)
            # unit weights: the cumulative channels are integer counts, built from the class
            # codes with integer cumsums (exact, so the same proxies bit for bit)
            self.unit = bool(np.all(self.w == 1.0)) and K < 127
            self.ycode = self.y.astype(np.int8) if self.unit else None
            self.unit_reg = False
            R: np.ndarray | None = None  # read only by weighted scans and categorical features
            if not self.unit or self.max_cat > 0:
                R = np.zeros((K + 1, n))  # channel-first: gathers and cumsums run on contiguous rows
                R[0] = self.w
                R[1 + self.y, np.arange(n)] = self.w
        else:
            self.y = np.asarray(y, dtype=np.float64)
            # absolute_error scans ranks of y itself, the others cumulative Σw·y
            R = np.stack([self.w, self.y if self.crit == "absolute_error" else self.w * self.y])
            self.unit = False
            # unit weights: the cumulative weight is the position (absolute_error reads G itself)
            self.unit_reg = self.crit != "absolute_error" and bool(np.all(self.w == 1.0))
        self._R = R
        self.nodes = LevelNodes()
        self.split_order = np.empty(0, np.int64)  # pre-order ids of the tests, in split order

    @property
    def R(self) -> np.ndarray:
        """(d, n) stat channels of every row (``splitter``); unit-weight classification on
        continuous features never reads them, so then they are not made (32 MB at 10⁶ rows)."""
        assert self._R is not None, "unit-weight class counts come from the class codes"
        return self._R

    # -- statistics ------------------------------------------------------------------------------
    def stats(self, rows: np.ndarray, key: np.ndarray, n_groups: int) -> dict[str, np.ndarray]:
        """Weight, row counts, value and impurity per group of rows (key = group of each row)."""
        w = self.w[rows]
        wn = np.bincount(key, weights=w, minlength=n_groups)
        nrows = np.bincount(key, minlength=n_groups)
        if self.all_positive:  # the usual case (grow() drops zero-weight rows unless all are)
            npos = nrows
        else:
            npos = np.bincount(key, weights=(w > 0).astype(np.float64), minlength=n_groups).astype(np.int64)
        if self.is_clf:
            K = self.p.n_classes
            counts = np.bincount(key * K + self.y[rows], weights=w, minlength=n_groups * K)
            counts = counts.reshape(n_groups, K)
            imp = class_impurity(self.crit, np.concatenate([wn[:, None], counts], axis=1))
            return dict(weighted_n=wn, n_rows=nrows, n_samples=npos, value=counts, impurity=imp, wsum=wn)
        y = self.y[rows]
        s = np.bincount(key, weights=w * y, minlength=n_groups)
        safe = np.where(wn > 0, wn, 1.0)
        mean = s / safe
        if self.crit == "absolute_error":
            med = _group_medians(key, y, w, n_groups, wn)
            imp = np.bincount(key, weights=w * np.abs(y - med[key]), minlength=n_groups) / safe
            return dict(weighted_n=wn, n_rows=nrows, n_samples=npos, value=med[:, None], impurity=imp, wsum=s)
        if self.crit == "poisson":
            ratio = np.where(y > 0, y / np.where(mean[key] > 0, mean[key], 1.0), 1.0)
            with np.errstate(divide="ignore"):
                dev = np.bincount(
                    key, weights=w * np.where(y > 0, y * np.log(ratio), 0.0), minlength=n_groups
                )
            imp = np.where(s <= EPSILON, np.inf, dev / safe)
        else:
            sq = np.bincount(key, weights=w * y * y, minlength=n_groups)
            imp = sq / safe - mean * mean
        return dict(weighted_n=wn, n_rows=nrows, n_samples=npos, value=mean[:, None], impurity=imp, wsum=s)

    def leaf_by_pretest(self, st: dict[str, np.ndarray], depth: int) -> np.ndarray:
        """scikit-learn's tests made before searching a split (:func:`leaf_by_pretest`)."""
        return leaf_by_pretest(self.p, depth, st["n_rows"], st["weighted_n"], st["impurity"])

    # -- one step: best split of every segment --------------------------------------------------
    def best_splits(
        self,
        perm: np.ndarray,
        seg_start: np.ndarray,
        seg_len: np.ndarray,
        seg_id: np.ndarray,
        mean: np.ndarray | None,
    ) -> _Choice:
        n_seg = seg_start.size
        rows = perm[-1]
        if self.crit in ("squared_error", "friedman_mse"):
            # centre y per node: cumulative sums stay small, proxies rank the same (criteria)
            assert mean is not None  # evaluate() passes the node means for regression
            self.R[1, rows] = self.w[rows] * (self.y[rows] - mean[seg_id])
        ch = _Choice(
            np.full(n_seg, -np.inf),
            np.full(n_seg, -1, np.int64),
            np.full(n_seg, np.nan),
            np.zeros(n_seg, bool),
            np.zeros(0, np.int64),
            np.zeros(0, bool),
            np.zeros(n_seg, np.int64),
            np.zeros(n_seg, np.int64),
            np.full(n_seg, -np.inf),
            np.full(n_seg, np.inf),
        )
        G_rows = None
        msl, mwl = self.p.min_samples_leaf, self.p.min_weight_leaf
        m = rows.size
        # continuous features in chunks scanned together: (feature, node) pairs are segments of
        # one long array, so small data costs one pass per level, large data one per feature
        per_chunk = max(1, int(self.CHUNK_ELEMENTS // max(m, 1)))
        for c0 in range(0, len(self.cont), per_chunk):
            F = np.array(self.cont[c0 : c0 + per_chunk])
            nF = F.size
            pj = perm[c0 : c0 + nF]
            flat = pj.ravel()
            # every feature's values in its own order: one gather from the flat (feature, row) array
            if nF > 1:
                at = pj.astype(np.intp) * self.row_step + (F * self.col_step)[:, None]
                xs = self.X_flat.take(at.ravel())
                offs = np.arange(nF)[:, None]
                starts = (offs * m + seg_start).ravel()
                lens = np.repeat(seg_len[None, :], nF, axis=0).ravel()
                sid = (offs * n_seg + seg_id).ravel()
            else:
                xs, starts, lens, sid = self.X[:, F[0]].take(pj[0]), seg_start, seg_len, seg_id
            if self.unit:
                G, cum = None, self._unit_cumulative(flat)
            elif self.unit_reg:
                cum = np.empty((2, flat.size))
                cum[0] = np.arange(1, flat.size + 1)  # Σ of ones, exactly as cumsum gives it
                np.cumsum(self.R[1].take(flat), out=cum[1])
                G = None
            else:
                G, cum = np.take(self.R, flat, axis=1), None
            scan = prepare_scan(
                xs,
                G,
                starts,
                lens,
                self.crit,
                sid,
                has_missing=any(self.has_nan[j] for j in F),
                cumulative=cum,
            )
            c = best_cuts(scan, msl, mwl, chunk=self.SCAN_CHUNK)
            b_all = c.proxy.reshape(nF, n_seg)  # one winner per (feature, segment)
            fi = np.argmax(b_all, axis=0)  # lowest feature of the chunk on ties
            b = b_all[fi, np.arange(n_seg)]
            better = (b > ch.proxy).nonzero()[0]
            if better.size == 0:
                continue
            k = fi[better] * n_seg + better
            ch.proxy[better] = b[better]
            ch.feature[better] = F[fi[better]]
            ch.threshold[better] = thresholds(xs, c.index[k], c.variant[k])
            # the values beside the cut, read off the scan: what ``node_rows.cut_neighbours``
            # would find by routing every row again
            ch.below[better] = xs[c.index[k]]
            alone = c.variant[k] == MISSING_ALONE
            ch.above[better] = np.where(alone, np.inf, xs[np.minimum(c.index[k] + 1, xs.size - 1)])
            ch.missing_left[better] = c.missing_left(k)
            ch.n_left[better], ch.n_right[better] = c.n_left[k], c.n_right[k]
        won: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []  # (j, pair key, side, seg)
        for j in range(self.nf):
            if self.ncat[j] == 0:
                continue
            if G_rows is None:
                G_rows = np.take(self.R, rows, axis=1).T
            nc = self.ncat[j]
            cs = category_stats(self.X[rows, j], G_rows, seg_id, n_seg, nc)
            b, nl_all, pair_left = best_categorical(scan_categorical(cs, self.crit, msl, mwl))
            # categorical features come after the continuous ones: ties go to the lower index
            better = np.flatnonzero((b > ch.proxy) | ((b == ch.proxy) & (b > -np.inf) & (j < ch.feature)))
            if better.size == 0:
                continue
            ch.proxy[better] = b[better]
            ch.feature[better] = j
            ch.threshold[better] = np.nan
            nl = nl_all[better].astype(np.int64)
            ch.n_left[better], ch.n_right[better] = nl, seg_len[better] - nl
            # without missing rows at the node, missing goes to the side with more rows
            miss = cs.cat == nc
            has_miss = np.zeros(n_seg, bool)
            has_miss[cs.seg[miss]] = True
            miss_left = np.zeros(n_seg, bool)
            miss_left[cs.seg[miss]] = pair_left[miss]
            ch.missing_left[better] = np.where(has_miss[better], miss_left[better], nl > seg_len[better] - nl)
            code = np.where(miss, self.max_cat, cs.cat)
            won.append((j, cs.seg * (self.max_cat + 1) + code, pair_left, cs.seg))
        if won:
            keep = [(k[ch.feature[sg] == j], pl[ch.feature[sg] == j]) for j, k, pl, sg in won]
            key = np.concatenate([k for k, _ in keep])
            order = np.argsort(key, kind="stable")
            ch.cat_key, ch.cat_left = key[order], np.concatenate([pl for _, pl in keep])[order]
        return ch

    def _unit_cumulative(self, flat: np.ndarray) -> np.ndarray:
        """Running channel sums [rows, class 0 … K−1 counts] over the gathered rows (unit
        weights): integer cumsums of class indicators; the last class is what the others leave."""
        K = self.p.n_classes
        M = flat.size
        dt = np.int32 if M < 2**31 - 1 else np.int64
        C = np.empty((K + 1, M), dt)
        C[0] = np.arange(1, M + 1, dtype=dt)
        assert self.ycode is not None  # set whenever self.unit (the only caller's case)
        yl = self.ycode.take(flat)
        for c in range(K - 1):
            np.cumsum(yl == c, dtype=dt, out=C[1 + c])
        if K >= 2:
            np.subtract(C[0], C[1:K].sum(axis=0, dtype=dt), out=C[K])
        else:
            C[K] = C[0]
        return C

    def route(self, rows: np.ndarray, seg_id: np.ndarray, ch: _Choice, found: np.ndarray) -> np.ndarray:
        """True where a row goes left under its node's chosen split (rows of unsplit nodes: True).

        The branch rule is ``routing.branch_index``'s (x ≤ t left; a category by its subset; a
        missing value by the learned direction) but vectorised over every node of the level at
        once, each row under its own node's split, with the splits still held as the step's
        per-segment arrays (threshold, subset mask, missing direction), not as stored tests:
        one pass per level instead of one call per node keeps growth O(n) per level."""
        left = np.ones(rows.size, dtype=bool)
        sel = found[seg_id].nonzero()[0]
        if sel.size == 0:
            return left
        s = seg_id[sel]
        f = ch.feature[s]
        x = self.X[rows[sel], f]
        nan = np.isnan(x)
        is_cat = np.isnan(ch.threshold[s])
        with np.errstate(invalid="ignore"):
            go = x <= ch.threshold[s]
        if is_cat.any():
            code = np.where(nan | ~is_cat, self.max_cat, np.nan_to_num(x, nan=0.0)).astype(np.int64)
            code = np.where(nan, self.max_cat, code)
            key = s * (self.max_cat + 1) + np.minimum(code, self.max_cat)
            at = np.minimum(np.searchsorted(ch.cat_key, key), max(ch.cat_key.size - 1, 0))
            side = ch.cat_left[at] if ch.cat_key.size else np.zeros(key.size, bool)
            go = np.where(is_cat, side, go)
        go = np.where(nan, ch.missing_left[s], go)
        left[sel] = go
        return left

    def evaluate(
        self, perm: np.ndarray, seg_start: np.ndarray, seg_len: np.ndarray, node_stats: dict[str, np.ndarray]
    ) -> tuple[_Choice, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray], np.ndarray]:
        """Best split per segment, its children's statistics and whether to make it."""
        n_seg = seg_start.size
        seg_id = segment_ids(seg_start, seg_len)
        mean = node_stats["value"][:, 0] if not self.is_clf else None
        ch = self.best_splits(perm, seg_start, seg_len, seg_id, mean)
        found = ch.proxy > -np.inf
        rows = perm[-1]
        left = self.route(rows, seg_id, ch, found)
        kid = self.stats(rows, 2 * seg_id + (~left), 2 * n_seg)
        L = {k: v[0::2] for k, v in kid.items()}
        Rt = {k: v[1::2] for k, v in kid.items()}
        with np.errstate(divide="ignore", invalid="ignore"):
            impr = impurity_improvement(
                self.crit,
                self.w_total,
                node_stats["weighted_n"],
                node_stats["impurity"],
                L["weighted_n"],
                L["impurity"],
                Rt["weighted_n"],
                Rt["impurity"],
                L["wsum"],
                Rt["wsum"],
            )
        split = found & decrease_ok(self.p, impr)
        return ch, split, impr, left, kid, seg_id

    # -- partition ---------------------------------------------------------------------------------
    def partition(
        self,
        perm: np.ndarray,
        seg_start: np.ndarray,
        seg_len: np.ndarray,
        seg_id: np.ndarray,
        left_el: np.ndarray,
        split: np.ndarray,
        keep_left: np.ndarray,
        keep_right: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Children's segments in every permutation, each still sorted; kept children first
        (in parent order, left before right), dropped rows after them.

        In place: ``perm`` is overwritten (a block of rows goes through one scratch buffer, not
        a second copy of every permutation: 80 MB at 10⁶ rows × 20 features).  ``left_el`` is
        aligned with ``perm[-1]``.  Returns (new perm view, starts, lengths, keep), ``keep``
        flagging the kept children among the 2·n_seg in (segment, side) order."""
        n_seg = seg_start.size
        m = perm.shape[1]
        n_left = np.bincount(seg_id, weights=left_el, minlength=n_seg).astype(np.int64)
        n_right = seg_len - n_left
        keep_left = keep_left & split
        keep_right = keep_right & split
        size = np.empty(2 * n_seg, np.int64)
        size[0::2], size[1::2] = n_left, n_right
        keep = np.empty(2 * n_seg, bool)
        keep[0::2], keep[1::2] = keep_left, keep_right
        order = np.argsort(~keep, kind="stable")
        start = np.empty(2 * n_seg, np.int64)
        start[order] = np.cumsum(size[order]) - size[order]
        base_l = np.cumsum(n_left) - n_left  # left rows in earlier segments
        pos = np.arange(m, dtype=np.int64)
        PL = (start[0::2] - base_l).take(seg_id)
        PR = (start[1::2] - seg_start + base_l).take(seg_id)
        PR += pos
        left_row = np.zeros(self.n, dtype=bool)
        left_row[perm[-1]] = left_el
        step = max(1, int(self.CHUNK_ELEMENTS // max(m, 1)))
        scratch = np.empty((min(step, perm.shape[0]), m), perm.dtype)
        for r in range(0, perm.shape[0], step):  # several permutations per vectorised pass
            p = perm[r : r + step]
            lft = left_row.take(p)
            excl = np.cumsum(lft, axis=1, dtype=np.intp)  # left rows before each position
            excl -= lft
            # a right row goes after the right rows before it, a left one after the left rows
            # before it; a select is cheaper for passes that fit in cache, a masked copy for the
            # one long permutation a pass holds above CHUNK_ELEMENTS rows
            if p.size <= self.CHUNK_ELEMENTS:
                dest = np.where(lft, PL + excl, PR - excl)
            else:
                dest = PR - excl
                np.copyto(dest, PL + excl, where=lft)
            dest += (np.arange(p.shape[0], dtype=np.intp) * m)[:, None]  # flat, row by row
            out = scratch[: p.shape[0]]
            np.put(out, dest, p)
            p[...] = out
        m_keep = int(size[keep].sum())
        return perm[:, :m_keep], start[keep], size[keep], keep

    # -- builders -----------------------------------------------------------------------------------
    def _root(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        rows = self.perm0[-1]
        st = self.stats(rows, np.zeros(self.n, np.int64), 1)
        ids = self.nodes.add(-1, 0, st)
        return ids, st

    def _record_split(
        self, nodes: np.ndarray, ch: _Choice, segs: np.ndarray, left_ids: np.ndarray, right_ids: np.ndarray
    ) -> None:
        f = ch.feature[segs]
        self.nodes.splits.append(
            Splits(
                nodes,
                f,
                ch.threshold[segs],
                ch.missing_left[segs],
                left_ids,
                right_ids,
                ch.below[segs],
                ch.above[segs],
            )
        )
        M = self.max_cat + 1
        n_cats = self.n_cats[f]
        for i in n_cats.nonzero()[0]:  # the categorical tests only (a loop per test, not per node)
            s, nc = int(segs[i]), int(n_cats[i])  # categories absent from the node: -1 (follow missing)
            a, b = np.searchsorted(ch.cat_key, [s * M, s * M + nc])  # real categories of s
            codes = (ch.cat_key[a:b] - s * M).astype(np.int32)
            branch = np.where(ch.cat_left[a:b], 0, 1).astype(np.int32)
            self.nodes.add_subset(int(nodes[i]), nc, codes, branch)

    def grow_levelwise(self) -> Tree:
        ids, st = self._root()
        active = ~self.leaf_by_pretest(st, 0)
        if not active[0]:
            return self.assemble()
        perm, seg_start, seg_len = self.perm0, np.array([0]), np.array([self.n])
        node_ids, depth = ids, 0
        while seg_start.size:
            # rows still in open nodes have not reached a leaf: the rest is done
            report("grow", self.n - int(seg_len.sum()), self.n, self.nodes.count, depth)
            ch, split, _, left, kid, seg_id = self.evaluate(perm, seg_start, seg_len, st)
            segs = split.nonzero()[0]
            if segs.size == 0:
                break
            child_sel = np.empty(2 * segs.size, np.int64)
            child_sel[0::2], child_sel[1::2] = 2 * segs, 2 * segs + 1
            kid_ids = self.nodes.add(np.repeat(node_ids[segs], 2), depth + 1, kid, child_sel)
            self._record_split(node_ids[segs], ch, segs, kid_ids[0::2], kid_ids[1::2])
            kst = {k: v[child_sel] for k, v in kid.items()}
            kid_leaf = self.leaf_by_pretest(kst, depth + 1)
            kl = np.zeros(seg_start.size, bool)
            kr = np.zeros(seg_start.size, bool)
            kl[segs], kr[segs] = ~kid_leaf[0::2], ~kid_leaf[1::2]
            if not (kl.any() or kr.any()):  # every child a leaf: no rows to lay out again
                break
            perm, seg_start, seg_len, keep = self.partition(
                perm, seg_start, seg_len, seg_id, left, split, kl, kr
            )
            # keep is over 2*n_seg children in (seg, side) order; map to the created ids
            all_ids = np.full(2 * split.size, -1, np.int64)
            all_ids[child_sel] = kid_ids
            order = keep.nonzero()[0]
            node_ids = all_ids[order]
            st = {k: v[order] for k, v in kid.items()}
            depth += 1
        return self.assemble()

    def grow_best_first(self) -> Tree:
        """Expand the open node with the largest impurity decrease first (scikit-learn's
        BestFirstTreeBuilder); ties go to the node created first."""
        ids, st = self._root()
        if self.leaf_by_pretest(st, 0)[0]:
            return self.assemble()
        heap: list[tuple[float, int, dict[str, Any]]] = []
        counter = 0

        def push(
            perm: np.ndarray,
            seg_start: np.ndarray,
            seg_len: np.ndarray,
            node_ids: np.ndarray,
            st: dict[str, np.ndarray],
            depth: int,
        ) -> None:
            nonlocal counter
            ch, split, impr, left, kid, seg_id = self.evaluate(perm, seg_start, seg_len, st)
            for s in np.flatnonzero(split):
                a, b = seg_start[s], seg_start[s] + seg_len[s]
                rec = dict(
                    perm=perm[:, a:b],
                    node=int(node_ids[s]),
                    depth=depth,
                    seg=s,
                    ch=ch,
                    left=left[a:b],
                    kid={k: v[2 * s : 2 * s + 2] for k, v in kid.items()},
                )
                heapq.heappush(heap, (-float(impr[s]), counter, rec))
                counter += 1

        push(self.perm0, np.array([0]), np.array([self.n]), ids, st, 0)
        assert self.p.max_leaf_nodes is not None  # grow() calls this builder only then
        splits_left = self.p.max_leaf_nodes - 1
        while heap and splits_left > 0:
            made = self.p.max_leaf_nodes - 1 - splits_left
            report("grow", made, self.p.max_leaf_nodes - 1, self.nodes.count, 0)
            _, _, rec = heapq.heappop(heap)
            splits_left -= 1
            s, depth, perm = rec["seg"], rec["depth"], rec["perm"]
            kid = rec["kid"]
            kid_ids = self.nodes.add(np.full(2, rec["node"]), depth + 1, kid)
            self._record_split(np.array([rec["node"]]), rec["ch"], np.array([s]), kid_ids[:1], kid_ids[1:])
            kid_leaf = self.leaf_by_pretest(kid, depth + 1)
            m = perm.shape[1]
            perm2, starts, lens, keep = self.partition(
                perm,
                np.array([0]),
                np.array([m]),
                np.zeros(m, np.int64),
                rec["left"],
                np.array([True]),
                ~kid_leaf[:1],
                ~kid_leaf[1:],
            )
            if starts.size:
                kept = np.flatnonzero(keep)
                push(perm2, starts, lens, kid_ids[kept], {k: v[kept] for k, v in kid.items()}, depth + 1)
        return self.assemble()

    def grow(self) -> Tree:
        if self.p.max_leaf_nodes is not None:
            return self.grow_best_first()
        return self.grow_levelwise()

    # -- flat arrays in pre-order -----------------------------------------------------------------------
    def assemble(self) -> Tree:
        tree, self.split_order = assemble(self.nodes, self.p.n_classes if self.is_clf else 0)
        return tree


def _group_medians(
    key: np.ndarray, y: np.ndarray, w: np.ndarray, n_groups: int, wn: np.ndarray
) -> np.ndarray:
    """scikit-learn's weighted median per group (midpoint when half the weight is hit exactly)."""
    order = np.lexsort((y, key))
    k, ys, cw = key[order], y[order], np.cumsum(w[order])
    first = np.searchsorted(k, np.arange(n_groups), side="left")
    base = np.where(first > 0, cw[np.maximum(first - 1, 0)], 0.0)
    target = base + 0.5 * wn
    lo = np.minimum(np.searchsorted(cw, target, side="left"), cw.size - 1)
    hi = np.minimum(np.searchsorted(cw, target, side="right"), cw.size - 1)
    med = np.where(cw[lo] == target, (ys[lo] + ys[hi]) / 2, ys[lo])
    return np.where(wn > 0, med, 0.0)


def grow(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    n_categories: Sequence[int] | np.ndarray,
    params: GrowParams,
) -> Tree:
    """Grow a CART tree on encoded arrays (category codes as floats, NaN = missing).

    Rows of zero weight are dropped first, as scikit-learn's splitter does: they take no part in
    the split search, the row counts (``min_samples_leaf``, ``n_samples``) or the medians."""
    return grow_with_order(X, y, sample_weight, n_categories, params)[0]


def grow_with_order(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    n_categories: Sequence[int] | np.ndarray,
    params: GrowParams,
) -> tuple[Tree, np.ndarray]:
    """:func:`grow`, and the tree's test nodes in the order the builder split them (level order
    for the level-wise builder, best-first order under ``max_leaf_nodes``)."""
    w = np.asarray(sample_weight, dtype=np.float64)
    keep = w > 0
    if keep.any() and not keep.all():
        X, y, w = np.asarray(X)[keep], np.asarray(y)[keep], w[keep]
    grower = Grower(X, y, w, n_categories, params)
    tree = grower.grow()
    return tree, grower.split_order
