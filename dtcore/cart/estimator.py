"""CART estimators with scikit-learn's parameter names; on numeric data they grow the same trees
as ``DecisionTreeClassifier`` / ``DecisionTreeRegressor`` (splitter="best", max_features=None); ``splitter="hist"`` grows from binned features
(``dtcore.cart.hist``).

Deviations from scikit-learn, on purpose:
  * categorical features get binary subset splits (see ``cart.splitter``), scikit-learn has none;
  * X is used in float64 (scikit-learn casts to float32, which can move thresholds);
  * exact ties between features go to the lowest feature index (scikit-learn: random order);
  * ``random_state`` is stored but unused (no feature sampling here);
  * ``ccp_alpha > 0`` prunes the grown tree with ``dtcore.pruning`` (the same weakest-link code
    as the pruning page and CLI), which gives scikit-learn's pruned tree;
  * friedman_mse: as scikit-learn 1.9, which maps it to squared_error, the weighted MSE decrease
    drives ``min_impurity_decrease`` and best-first order (the proxies rank candidates
    identically, so the splits are squared_error's); Friedman's score n_L·n_R/n·(mean_L − mean_R)²
    (SPEC §3) is shown by the split explorer next to it (``criteria.friedman_score``);
  * missing values: scikit-learn ≥ 1.3's learned direction (see ``cart.splitter``); a node that saw
    no missing value in training sends them to the child with more training rows;
  * absolute_error takes continuous features without missing values only (scikit-learn's MAE
    has no missing-value support either).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from dtcore import history
from dtcore.base import BaseTreeEstimator
from dtcore.cart.grower import grow_with_order
from dtcore.cart.hist.binning import Bins
from dtcore.cart.hist.grower import grow_hist
from dtcore.cart.hist.histograms import HistogramSource
from dtcore.cart.rules import GrowParams
from dtcore.conventions import Bunch
from dtcore.criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA
from dtcore.params import GROWTH_LIMITS, Param
from dtcore.pruning.ccp import ccp_steps
from dtcore.schema import DataError, Schema
from dtcore.tree import Tree

#: "best": every threshold of the sorted values (exact); "hist": bins (``dtcore.cart.hist``)
SPLITTERS = ("best", "hist")


_CART = TypeVar("_CART", bound="CARTBase")  # fit_histograms returns the estimator itself


def _is_int(v: object) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


class CARTBase(BaseTreeEstimator):
    """What the CART classifier and regressor share: validation, limits, growth."""

    algorithm = "cart"
    criterion: str
    max_depth: int | None
    min_samples_split: int | float
    min_samples_leaf: int | float
    min_weight_fraction_leaf: float
    min_impurity_decrease: float
    max_leaf_nodes: int | None
    random_state: object
    ccp_alpha: float
    splitter: str
    max_bins: int
    _criteria: tuple[str, ...] = ()  # the criteria of the class's task, the default first
    #: the parameters the app shows, in display order (besides criterion)
    ui_params: tuple[Param, ...] = GROWTH_LIMITS + (
        Param("max_leaf_nodes", "int", 0, lo=0, hi=10_000, step=1, zero_is_none=True),
        Param("splitter", "select", "best", options=SPLITTERS),
        Param("max_bins", "int", 255, lo=2, hi=65535, step=1),
    )

    def _validate_params(self) -> None:
        name = type(self).__name__
        if self.criterion not in self._criteria:
            raise ValueError(
                f"{name}: criterion must be one of {list(self._criteria)}, not {self.criterion!r}"
            )
        if self.max_depth is not None and not (_is_int(self.max_depth) and self.max_depth >= 1):
            raise ValueError(
                f"max_depth must be None or an integer ≥ 1, not {self.max_depth!r}; "
                "use None for no depth limit"
            )
        mss = self.min_samples_split
        if not ((_is_int(mss) and mss >= 2) or (_is_real(mss) and not _is_int(mss) and 0 < mss <= 1)):
            raise ValueError(f"min_samples_split must be an integer ≥ 2 or a fraction in (0, 1], not {mss!r}")
        msl = self.min_samples_leaf
        if not ((_is_int(msl) and msl >= 1) or (_is_real(msl) and not _is_int(msl) and 0 < msl < 1)):
            raise ValueError(f"min_samples_leaf must be an integer ≥ 1 or a fraction in (0, 1), not {msl!r}")
        mwf = self.min_weight_fraction_leaf
        if not (_is_real(mwf) and 0 <= mwf <= 0.5):
            raise ValueError(f"min_weight_fraction_leaf must be in [0, 0.5], not {mwf!r}")
        mid = self.min_impurity_decrease
        if not (_is_real(mid) and mid >= 0):
            raise ValueError(f"min_impurity_decrease must be ≥ 0, not {mid!r}")
        mln = self.max_leaf_nodes
        if mln is not None and not (_is_int(mln) and mln >= 2):
            raise ValueError(f"max_leaf_nodes must be None or an integer ≥ 2, not {mln!r}")
        a = self.ccp_alpha
        if not (_is_real(a) and a >= 0):
            raise ValueError(f"ccp_alpha must be ≥ 0, not {a!r}")
        if self.splitter not in SPLITTERS:
            raise ValueError(f"splitter must be one of {list(SPLITTERS)}, not {self.splitter!r}")
        mb = self.max_bins
        if not (_is_int(mb) and 2 <= mb <= 65535):
            raise ValueError(f"max_bins must be an integer in [2, 65535], not {mb!r}")
        if self.splitter == "hist":
            from dtcore.cart.hist import check_criterion

            check_criterion(self.criterion)
            if self.max_leaf_nodes is not None:
                raise ValueError(
                    "splitter='hist' grows level by level; max_leaf_nodes (best-first growth) "
                    "needs splitter='best'"
                )

    def cost_complexity_pruning_path(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None, **fit_params: Any
    ) -> Bunch:
        """The minimal cost-complexity pruning path of the tree ``fit`` grows with ``ccp_alpha=0``
        (this estimator is left as it is), as scikit-learn's method of the same name returns it.

        Parameters
        ----------
        X, y, sample_weight
            As for ``fit``; ``fit_params`` (``feature_kinds``, ``classes``…) go to ``fit`` too.

        Returns
        -------
        Bunch
            ``ccp_alphas``: the effective alphas of the pruning steps, increasing (0 first);
            ``impurities``: the total leaf impurity of the pruned tree after each step.
            Any of the alphas, given as ``ccp_alpha``, grows that step's pruned tree.
        """
        from dtcore.pruning import cost_complexity_path

        grower = type(self)(**{**self.get_params(), "ccp_alpha": 0.0})
        grower.fit(X, y, sample_weight, **fit_params)
        path = cost_complexity_path(grower.tree_)
        return Bunch(ccp_alphas=path.ccp_alphas, impurities=path.impurities)

    def fit_histograms(
        self: _CART,
        source: HistogramSource,
        bins: Bins,
        schema: Schema,
        n_samples: int,
        on_level: Callable[[int], object] | None = None,
    ) -> _CART:
        """Fit ``splitter="hist"`` from histograms computed elsewhere (``dtdask``: over Dask
        partitions), with unit sample weights; the same growth, pruning and recorded build order
        as :meth:`fit`, which bins and sums the rows in memory instead.

        Parameters
        ----------
        source : HistogramSource
            The per-(node, feature, bin) sums of the training rows and their routing
            (``dtcore.cart.hist.histograms``), laid out for ``bins`` and for
            ``len(schema.classes)`` classes (0 for a regressor).
        bins : Bins
            The bins of every feature, in ``schema``'s feature order.
        schema : Schema
            The features, the target and, for a classifier, the classes (class ``i`` is code
            ``i`` in the source).
        n_samples : int
            The number of training rows (fractional ``min_samples_*`` are shares of it).
        on_level : callable, optional
            Called with the depth after each level is grown (progress).

        Returns
        -------
        self
            Fitted: ``tree_``, ``schema_`` and the attributes that follow from it. What needs the
            rows themselves is the caller's to record on ``tree_``: ``saw_missing`` and
            ``cut_below``/``cut_above`` (``dtcore.node_rows``).
        """
        if self.splitter != "hist":
            raise ValueError(f"fit_histograms grows with splitter='hist', not {self.splitter!r}")
        if schema.is_classifier != (self._task == "classification"):
            raise DataError(f"{type(self).__name__} needs a {self._task} schema (classes iff classification)")
        self._validate_params()
        n_classes = len(schema.classes or ())
        params = self._params_for(int(n_samples), np.array([float(n_samples)]), n_classes)
        grown = grow_hist(source, bins, params, on_level)
        self._set_schema(schema)
        self.tree_ = self._finish_growth(grown, level_split_order(grown), "level")
        return self

    def _params_for(self, n: int, w: np.ndarray, n_classes: int) -> GrowParams:
        msl = self.min_samples_leaf
        msl = int(math.ceil(msl * n)) if not _is_int(msl) else int(msl)
        mss = self.min_samples_split
        mss = int(math.ceil(mss * n)) if not _is_int(mss) else int(mss)
        mss = max(mss, 2 * msl)
        return GrowParams(
            criterion="entropy" if self.criterion == "log_loss" else self.criterion,
            n_classes=n_classes,
            max_depth=2**31 - 1 if self.max_depth is None else int(self.max_depth),
            min_samples_split=mss,
            min_samples_leaf=msl,
            min_weight_leaf=float(self.min_weight_fraction_leaf) * float(np.sum(w)),
            min_impurity_decrease=float(self.min_impurity_decrease),
            max_leaf_nodes=None if self.max_leaf_nodes is None else int(self.max_leaf_nodes),
        )

    def _grow(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> Tree:
        ncat = [len(f.categories or ()) if f.is_categorical else 0 for f in self.schema_.features]
        n_classes = len(self.schema_.classes or ()) if self._task == "classification" else 0
        if self._task == "classification":
            y = np.asarray(y, dtype=np.int64)
            if y.min() < 0 or y.max() >= n_classes:
                raise DataError(f"class codes must lie in 0..{n_classes - 1}")
        else:
            y = np.asarray(y, dtype=np.float64)
            if not np.all(np.isfinite(y)):
                raise DataError("the regression target holds NaN or infinite values")
            if self.criterion == "absolute_error" and (any(ncat) or np.isnan(X).any()):
                raise ValueError(
                    "criterion='absolute_error' supports continuous features without "
                    "missing values only; use 'squared_error' for this data"
                )
            if self.criterion == "poisson" and (np.any(y < 0) or np.sum(y) <= 0):
                raise ValueError(
                    "criterion='poisson' needs a target with no negative values "
                    "and a positive sum; use criterion='squared_error' otherwise"
                )
        # fractional limits: shares of every training row, the rows of weight 0 ``fit`` dropped
        # before they got here included, as in scikit-learn (``fit_encoded`` sets the count)
        params = self._params_for(self._n_samples_fit, sample_weight, n_classes)
        if self.splitter == "hist":
            from dtcore.cart.hist import grow_in_memory

            grown = grow_in_memory(X, y, sample_weight, ncat, params, int(self.max_bins))
            order = level_split_order(grown)
        else:
            grown, order = grow_with_order(X, y, sample_weight, ncat, params)
        return self._finish_growth(grown, order, "level" if params.max_leaf_nodes is None else "best_first")

    def _finish_growth(self, grown: Tree, order: np.ndarray, rule: str) -> Tree:
        """The fitted tree from the grown one (pruned at ``ccp_alpha`` > 0), with the build order
        and pruning steps recorded (``dtcore.history``): the one tail of every CART engine, the
        Dask engine's included."""
        tree, steps = grown, []
        if self.ccp_alpha > 0:
            from dtcore.pruning import prune_to_alpha

            tree = prune_to_alpha(grown, float(self.ccp_alpha))[0]
            steps = ccp_steps(grown, float(self.ccp_alpha))
        history.record(self, grown, order, rule, steps)
        return tree


def level_split_order(tree: Tree) -> np.ndarray:
    """The split order of a level-wise, left-to-right builder (the histogram grower): the test
    nodes by depth, then by position (pre-order id) within a level."""
    inner = np.flatnonzero(~tree.is_leaf)
    return inner[np.argsort(tree.depth[inner], kind="stable")]


class CARTClassifier(CARTBase):
    """Binary CART classification tree (Gini or entropy), grown as scikit-learn's
    ``DecisionTreeClassifier`` grows it, with binary subset splits for categorical features.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        Impurity of a node's class distribution; "log_loss" is "entropy".
    max_depth : int or None, default=None
        Deepest level a node may sit at (the root is depth 0); None grows until the leaves are
        pure or the other limits stop.
    min_samples_split : int or float, default=2
        Fewest rows a node needs to be split (a float is a fraction of the training rows).
    min_samples_leaf : int or float, default=1
        Fewest rows each child must keep (a float is a fraction of the training rows).
    min_weight_fraction_leaf : float, default=0.0
        Fewest share of the total sample weight each child must keep.
    min_impurity_decrease : float, default=0.0
        A split must decrease the weighted impurity N_t/N·(I(t) − Σ N_c/N_t·I(c)) by at least this.
    max_leaf_nodes : int or None, default=None
        Grow best-first (largest impurity decrease first) up to this many leaves.
    random_state : object, default=None
        Stored for scikit-learn compatibility; unused (no feature sampling).
    ccp_alpha : float, default=0.0
        Cost-complexity pruning of the grown tree: the subtree of the weakest-link path at α.
    splitter : {"best", "hist"}, default="best"
        "best" scans every threshold of the sorted values; "hist" bins each feature once into
        at most ``max_bins`` bins (plus one for missing values) and grows level by level from
        per-bin sums (``dtcore.cart.hist``): the same tree when every feature has at most
        ``max_bins`` distinct values, else thresholds at bin edges. gini, entropy/log_loss,
        squared_error and friedman_mse only; no ``max_leaf_nodes``.
    max_bins : int, default=255
        Bins per feature for ``splitter="hist"`` (categorical features: one per category).

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as flat arrays (children, features, thresholds or category branches,
        class counts or values, impurity, weights).
    grown_tree_, build_order_, build_rule_, prune_steps_
        The tree before ``ccp_alpha`` pruning, its splits in the builder's order (level order,
        or best-first under ``max_leaf_nodes``) and the weakest-link steps to ``tree_``
        (``dtcore.history``).
    schema_ : Schema
        Feature names and kinds, category labels and class labels, the missing-value tokens.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of str
        Feature names seen during fit.
    classes_ : ndarray
        Class labels in y's own dtype (int, bool, float, str, object), sorted as ``np.unique``
        sorts them; the order of ``predict_proba``'s columns. ``predict`` returns these values.
        A declared order (``classes=``, ARFF) stays in ``schema_.classes`` (as text, for display
        and ties); a model loaded from JSON has the text labels.
    n_classes_ : int
        Number of classes.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Normalised total weighted impurity decrease per feature.

    Examples
    --------
    >>> from dtcore.cart.estimator import CARTClassifier
    >>> X = [[0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [3.0, 0.0]]
    >>> clf = CARTClassifier(max_depth=2).fit(X, ["no", "no", "yes", "yes"])
    >>> clf.predict([[2.5, 0.0]]).tolist(), clf.get_n_leaves()
    (['yes'], 2)
    """

    _task = "classification"
    _criteria = CLASSIFICATION_CRITERIA

    def __init__(
        self,
        criterion: str = "gini",
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_weight_fraction_leaf: float = 0.0,
        min_impurity_decrease: float = 0.0,
        max_leaf_nodes: int | None = None,
        random_state: object = None,
        ccp_alpha: float = 0.0,
        splitter: str = "best",
        max_bins: int = 255,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state
        self.ccp_alpha = ccp_alpha
        self.splitter = splitter
        self.max_bins = max_bins


class CARTRegressor(CARTBase):
    """Binary CART regression tree, grown as scikit-learn's ``DecisionTreeRegressor`` grows it;
    a leaf predicts the mean of its rows (the median for absolute_error).

    Parameters
    ----------
    criterion : {"squared_error", "friedman_mse", "absolute_error", "poisson"}, default="squared_error"
        Impurity of a node's target values: variance, Friedman's improvement, mean absolute
        deviation from the median, or half the Poisson deviance.
    max_depth : int or None, default=None
        Deepest level a node may sit at (the root is depth 0); None grows until the leaves are
        pure or the other limits stop.
    min_samples_split : int or float, default=2
        Fewest rows a node needs to be split (a float is a fraction of the training rows).
    min_samples_leaf : int or float, default=1
        Fewest rows each child must keep (a float is a fraction of the training rows).
    min_weight_fraction_leaf : float, default=0.0
        Fewest share of the total sample weight each child must keep.
    min_impurity_decrease : float, default=0.0
        A split must decrease the weighted impurity N_t/N·(I(t) − Σ N_c/N_t·I(c)) by at least this.
    max_leaf_nodes : int or None, default=None
        Grow best-first (largest impurity decrease first) up to this many leaves.
    random_state : object, default=None
        Stored for scikit-learn compatibility; unused (no feature sampling).
    ccp_alpha : float, default=0.0
        Cost-complexity pruning of the grown tree: the subtree of the weakest-link path at α.
    splitter : {"best", "hist"}, default="best"
        "best" scans every threshold of the sorted values; "hist" bins each feature once into
        at most ``max_bins`` bins (plus one for missing values) and grows level by level from
        per-bin sums (``dtcore.cart.hist``): the same tree when every feature has at most
        ``max_bins`` distinct values, else thresholds at bin edges. gini, entropy/log_loss,
        squared_error and friedman_mse only; no ``max_leaf_nodes``.
    max_bins : int, default=255
        Bins per feature for ``splitter="hist"`` (categorical features: one per category).

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as flat arrays (children, features, thresholds or category branches,
        class counts or values, impurity, weights).
    grown_tree_, build_order_, build_rule_, prune_steps_
        The tree before ``ccp_alpha`` pruning, its splits in the builder's order (level order,
        or best-first under ``max_leaf_nodes``) and the weakest-link steps to ``tree_``
        (``dtcore.history``).
    schema_ : Schema
        Feature names and kinds, category labels and the missing-value tokens.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of str
        Feature names seen during fit.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Normalised total weighted impurity decrease per feature.

    Examples
    --------
    >>> from dtcore.cart.estimator import CARTRegressor
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> reg = CARTRegressor(max_depth=1).fit(X, [1.0, 1.0, 5.0, 7.0])
    >>> reg.predict([[0.5], [2.5]]).tolist()
    [1.0, 6.0]
    """

    _task = "regression"
    _criteria = REGRESSION_CRITERIA

    def __init__(
        self,
        criterion: str = "squared_error",
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_weight_fraction_leaf: float = 0.0,
        min_impurity_decrease: float = 0.0,
        max_leaf_nodes: int | None = None,
        random_state: object = None,
        ccp_alpha: float = 0.0,
        splitter: str = "best",
        max_bins: int = 255,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state
        self.ccp_alpha = ccp_alpha
        self.splitter = splitter
        self.max_bins = max_bins
