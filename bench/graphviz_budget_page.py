"""A page that draws one generated tree with ``st.graphviz_chart`` (bench/bench_browser_budget.py
drives it): ``?leaves=L`` grows CART with at most L leaves (2L − 1 nodes) on random data."""

import numpy as np
import streamlit as st

from dtcore import export
from dtcore.cart.estimator import CARTClassifier


@st.cache_resource
def dot_for(leaves: int) -> tuple[str, int]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20_000, 4))
    y = np.array(["a", "b", "c"])[(X[:, 0] + rng.normal(size=20_000) > 0).astype(int) + (X[:, 1] > 1)]
    est = CARTClassifier(max_leaf_nodes=leaves).fit(X, y)
    return export.to_dot(est), est.tree_.node_count


dot, n = dot_for(int(st.query_params.get("leaves", "8")))
st.write(f"nodes: {n}")
st.graphviz_chart(dot, width="content")
