"""CART's histogram splitter on the Train page: the choice (exact / histogram) and the bins travel
in the URL like every other setting, and the tree drawn is dtcore's ``splitter="hist"`` tree,
its thresholds bin edges."""

import numpy as np

from dtcore.cart.estimator import CARTClassifier
from dtcore.cart.hist.binning import fit_bins
from tests.app.apptest import start
from tests.app.frame_pictures import tree_svgs
from ui.services.loading import load_sample

TRAIN = "pages/train.py"


def test_choosing_histogram_trains_a_hist_tree_split_at_bin_edges():
    at = start(TRAIN, sample="breast_cancer", algo="cart")
    assert at.selectbox(key="cart_splitter").options == ["exact (sorted values)", "histogram (binned)"]
    at.selectbox(key="cart_splitter").select("hist")  # inside the form: sent with the Train button
    at.number_input(key="cart_max_bins").set_value(8)
    [b for b in at.button if b.label == "Train"][0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    res = at.session_state["result"]
    est = res.estimator
    assert est.get_params()["splitter"] == "hist" and est.get_params()["max_bins"] == 8
    # the same tree as dtcore's own hist fit on the training rows the app chose
    df = load_sample("breast_cancer").df
    feats = [c for c in df.columns if c != "class"]
    X = df[feats].to_numpy(dtype=np.float64)[res.rows["train"]]
    y = df["class"].to_numpy(dtype=object)[res.rows["train"]]
    mem = CARTClassifier(splitter="hist", max_bins=8).fit(X, y, feature_names=feats, target_name="class")
    for name in ("feature", "children", "cuts", "n_samples", "value"):
        np.testing.assert_array_equal(getattr(mem.tree_, name), getattr(est.tree_, name), err_msg=name)
    assert tree_svgs(at), "the tree is drawn"
    # every threshold is an edge of its feature's bins (30 features with hundreds of values each)
    bins = fit_bins(X, [0] * len(feats), 8)
    tree = est.tree_
    inner = np.nonzero(tree.feature >= 0)[0]
    assert inner.size >= 3
    for node in inner:
        edges = bins.features[tree.feature[node]].edges
        assert set(tree.cuts_of(node).tolist()) <= set(edges.tolist()), node
    assert at.query_params["cart_splitter"] == "hist" and at.query_params["cart_max_bins"] == "8"


def test_a_link_opens_the_histogram_setting():
    at = start(TRAIN, sample="iris", algo="cart", cart_splitter="hist", cart_max_bins="16")
    assert not at.exception
    assert at.session_state["result"].estimator.get_params()["splitter"] == "hist"
    assert at.selectbox(key="cart_splitter").value == "hist"
