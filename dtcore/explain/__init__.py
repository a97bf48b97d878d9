"""Split reports: at one node, every candidate test of every feature with the scores the builder
gave it, which one won and why, and the worked arithmetic of a test (SPEC §2, §4-§6, §9).

The scores come from the builders' own kernels, not from a re-derivation:

* CART: ``cart.continuous_candidates`` / ``categorical_candidates`` (the builder's scan);
  the builder takes the first maximum of ``proxy``; features tie to the lowest index.
* ID3 / C4.5 multiway tests: ``multiway.score_multiway``; C4.5's stop rule, selection rule
  (average gain, ratio) and stored threshold are ``c45.rules``' (the functions the builder
  calls); ID3's stop, positive-gain and tie rules are ``id3``'s (``leaf_reason``,
  ``is_positive``, ``better``, ``branches_ok``), its feature plan the estimator's ``plan_``.
* ID3 / C4.5 continuous cuts: :func:`cut_gains` shows the gain of *every* cut from
  ``cutpoints.cut_gain_arrays`` (same candidate rules: C4.5's 1e-5 distinct-value tolerance
  and MinSplit, or the textbook's every midpoint; C4.5's MDL penalty is
  ``cutpoints.mdl_penalty``); the tests check that its best cut and gain equal the builders'
  (``score_cuts_batch``, ``score_textbook_cuts``).

A report is computed on the rows that reach the node in the *final* tree (``Tree.reach``, with
the fractional weights of C4.5's missing-value spreading). For an unpruned tree these are the
training rows of the node; below a C4.5 subtree raising they are the rows the raised tree routes
there, which is what a user inspecting that tree sees.

Reports are typed records (``records``: :class:`SplitReport`, :class:`FeatureSplits`,
:class:`Candidates`, :class:`Arithmetic`, :class:`ChildSummary`, :class:`CutGains`) holding
numpy arrays and numbers; ``to_dict`` gives their plain-dict form and :func:`jsonable` makes a
record (or that dict) JSON-safe. Tests are :class:`dtcore.routing.SplitTest` records (what
``dtcore.analysis.forcing`` grafts); their ``to_dict`` is their JSON form.

Modules: ``node_data`` (the rows reaching a node), ``entropy`` (ID3/C4.5 cuts and multiway
tests), ``cart`` (CART's candidates), ``report`` (selection, leaf reason, the report),
``arithmetic`` (children, branch labels, worked arithmetic, a candidate's test), ``records``;
``prediction`` explains one sample's prediction instead (path, C4.5 fractions, mixing,
counterfactuals).
"""

from __future__ import annotations

from dtcore.entropy.cutpoints import pick_j48
from dtcore.explain.arithmetic import (
    Arithmetic,
    ChildSummary,
    arithmetic,
    branch_labels,
    candidate_test,
    children_rows,
    children_summary,
    route_test,
)
from dtcore.explain.cart import cart_features, cart_test
from dtcore.explain.entropy import c45_features, cut_gains, entropy_continuous, entropy_multiway, id3_features
from dtcore.explain.node_data import NodeData, feats_impurity
from dtcore.explain.prediction import PredictionExplanation, explain_prediction, explanation_text
from dtcore.explain.records import (
    Candidates,
    CutGains,
    FeatureSplits,
    Selection,
    SplitReport,
    jsonable,
)
from dtcore.explain.report import explainer_data, report_for, same_test, split_report, tree_test

__all__ = [
    "Arithmetic",
    "Candidates",
    "ChildSummary",
    "CutGains",
    "FeatureSplits",
    "NodeData",
    "PredictionExplanation",
    "Selection",
    "SplitReport",
    "arithmetic",
    "branch_labels",
    "c45_features",
    "candidate_test",
    "cart_features",
    "cart_test",
    "children_rows",
    "children_summary",
    "cut_gains",
    "entropy_continuous",
    "entropy_multiway",
    "explain_prediction",
    "explainer_data",
    "explanation_text",
    "feats_impurity",
    "id3_features",
    "jsonable",
    "pick_j48",
    "report_for",
    "route_test",
    "same_test",
    "split_report",
    "tree_test",
]
