"""A tree 2 000 levels deep goes through every walk: each pruning method, each export, the Tree
methods, the split explorer, forcing, the CLI and the Pruning page. Every walk over a tree is
iterative or vectorised, so no depth reaches Python's recursion limit (~1 000 frames; EBP once
failed past ~490 levels).

The data: ``x = i``, ``y = "ab"[i % 2]``: CART separates one row per level, a chain of depth n−1."""

import json

import numpy as np
import pytest

from dtcore import explain, export
from dtcore.analysis import forcing
from dtcore.cart.estimator import CARTClassifier
from dtcore.export.j48 import to_j48_text, tree_to_j48_lines
from dtcore.pruning import prune
from dtcore.pruning.alpha_selection import estimator_grower
from tests.app.apptest import start
from tests.cli_runner import run_cli

N = 2000

pytestmark = pytest.mark.slow


def chain_data(n=N):
    X = np.arange(n, dtype=np.float64).reshape(-1, 1)
    y = np.array(["ab"[i % 2] for i in range(n)], dtype=object)
    return X, y


def chain_csv(n=N) -> str:
    return "x0,y\n" + "".join(f"{i},{'ab'[i % 2]}\n" for i in range(n))


@pytest.fixture(scope="module")
def deep():
    X, y = chain_data()
    est = CARTClassifier().fit(X, y)
    assert est.tree_.get_depth() >= N - 1
    Xe = est.encode(X)
    ye = np.array([est.schema_.classes.index(v) for v in y])
    return est, Xe, ye


def deepest_test(tree) -> int:
    internal = np.flatnonzero(~tree.is_leaf)
    return int(internal[np.argmax(tree.depth[internal])])


@pytest.mark.parametrize("method", ["rep", "pep", "ebp", "ccp_alpha", "ccp_cv"])
def test_every_pruning_method(deep, method):
    est, X, y = deep
    tree = est.tree_
    kw: dict = {}
    if method == "rep":
        kw = dict(X_valid=X[::2], y_valid=y[::2])
    elif method == "ebp":
        kw = dict(X_train=X, y_train=y, impurity="gini")
    elif method == "ccp_alpha":
        kw = dict(alpha=1e-4)
    elif method == "ccp_cv":
        kw = dict(X_train=X, y_train=y, cv=3, grow=estimator_grower(est, est.schema_))
    pruned, report = prune(tree, method.split("_")[0], **kw)
    assert 1 <= pruned.node_count <= tree.node_count
    assert len(report.kept) == pruned.node_count
    if method == "ebp":
        # decisions come in post-order: on the chain, from the deepest test up to the root
        depths = [int(tree.depth[e["node"]]) for e in report.events]
        assert len(depths) > N // 3 and depths == sorted(depths, reverse=True)


def test_exports(deep):
    est, X, y = deep
    tree = est.tree_
    dot = export.to_dot(est)
    assert dot.count("->") == tree.node_count - 1
    text = export.to_text(est, max_depth=N + 10)
    assert "truncated" not in text and text.count("class: ") == tree.get_n_leaves()
    assert "truncated branch of depth" in export.to_text(est, max_depth=10)
    again = export.model_from_dict(json.loads(export.dumps_model(est)))
    assert np.array_equal(again.tree_.feature, tree.feature)
    lines = tree_to_j48_lines(tree, est.schema_)
    assert len(lines) == tree.node_count - 1 and lines[-1].startswith("|   " * (N - 2))
    assert "\n".join(lines) in to_j48_text(est)


def test_tree_methods(deep):
    est, X, y = deep
    tree = est.tree_
    assert np.array_equal(est.predict(X[:, :1].astype(object)), np.array(["ab"[i % 2] for i in range(N)]))
    leaves = tree.apply(X)
    assert tree.is_leaf[leaves].all()
    indptr, indices = tree.decision_path(X)
    assert indptr[-1] == (tree.depth[leaves] + 1).sum() and indices[0] == 0
    last = tree.node_count - 1
    assert len(tree.path_to(last)) == tree.depth[last] + 1
    rows, _ = tree.reach(X, last)
    assert rows.size == 1
    assert tree.subtree(0).size == tree.node_count
    assert tree.feature_importances(1).tolist() == [1.0]


def test_split_explorer_and_forcing(deep):
    est, X, y = deep
    tree = est.tree_
    for node in (0, deepest_test(tree)):
        rep = explain.split_report(est, X, y, None, node)
        assert rep.to_dict()
    # force the root's test at the deepest test node: the tree keeps its 2 000 levels
    node = deepest_test(tree)
    test = explain.tree_test(tree, node)
    new = forcing.force_split(est, X, y, None, node, test)
    assert new.node_count == tree.node_count and new.get_depth() == tree.get_depth()
    _, forced = forcing.replay(est, X, y, None, [(node, test)])
    assert forced == [node]


def test_cli_prunes_with_ebp(deep, tmp_path):
    est, X, y = deep
    data = tmp_path / "chain.csv"
    data.write_text(chain_csv(), encoding="utf-8")
    model = tmp_path / "model.json"
    export.save_model(est, model)
    proc = run_cli("prune", model, data, "--method", "ebp", "--out", tmp_path / "p.json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "RecursionError" not in proc.stderr and (tmp_path / "p.json").exists()


def test_pages_and_ebp_on_the_pruning_page():
    at = start()
    at.switch_page("pages/data.py").run()
    at.file_uploader(key="upload").set_value(("chain.csv", chain_csv().encode(), "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    # an upload this size holds out 15 % + 15 % by default: train on every row of the chain
    at.slider(key="valid").set_value(0).run()
    at.slider(key="test").set_value(0).run()
    at.switch_page("pages/train.py").run()
    at.selectbox(key="algo").select("cart").run()
    assert not at.exception, [e.value for e in at.exception]
    # an upload this size starts at depth 8 (ui.services.split.upload_defaults): grow it fully
    at.number_input(key="cart_max_depth").set_value(0)
    next(b for b in at.button if b.label == "Train").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["result"].estimator.tree_.get_depth() > 1000
    # straight to EBP: CCP, the page's default for CART, draws its α curves from one pruned
    # tree per α (a thousand here), slow on this tree for reasons that are not its depth
    at.session_state["prune_method"] = "ebp"  # as chosen by the user (url.mark_chosen)
    at.session_state["_chosen"] = {"prune_method"}
    at.switch_page("pages/prune.py").run()
    assert at.selectbox(key="prune_method").value == "ebp"
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.get("bidi_component")) == 2  # before and after, server-drawn at one scale
    at.switch_page("pages/splits.py").run()  # the split explorer's page, at the root
    assert not at.exception, [e.value for e in at.exception]
