"""Pruning views on real trained trees: before/after DOT (ghosted and bold nodes checked against
the tree's structure and rendered by real Graphviz), the metrics table against the estimator's own
scoring, the α path against scikit-learn, EBP against C4.5's own pruning, and the static SVG charts."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from dtcore import export
from dtcore.numbers import fmt_pct
from dtcore.pruning import choose_alpha_cv
from ui.figures import pruning as pf
from ui.figures.style import plain
from ui.services import pruning as pv
from ui.services import roles as R
from ui.services.loading import load_sample, raw_rows, sample_catalogue
from ui.services.training import Split, train
from ui.views import pruning as pviews

NODE = re.compile(r"^node(\d+) \[(.*)$")


def fit_sample(sample_id, algo, crit, **values):
    s = sample_catalogue()[sample_id]
    d = load_sample(sample_id)
    roles = R.infer_roles(d.df, s.target, s.ignore, d.declared_kinds)
    task = R.infer_task(d.df, s.target)
    res = train(d.df, roles, task, algo, crit, values, Split(s.valid, s.test, 0))
    return res, d.df


@pytest.fixture(scope="module")
def cancer():
    res, df = fit_sample("breast_cancer", "cart", "gini")
    return res, df, pv.encoded_sets(res, df)


@pytest.fixture(scope="module")
def vote():
    res, df = fit_sample("vote", "c45", "gain_ratio")
    return res, df, pv.encoded_sets(res, df)


def styles(dot):
    """node id → (dashed grey ghost?, bold?) for every tree node line of a DOT text."""
    out = {}
    for line in dot.splitlines():
        m = NODE.match(line)
        if m:
            attrs = m.group(2)
            out[int(m.group(1))] = ('color="#9e9e9e"' in attrs and "dashed" in attrs, "penwidth=3" in attrs)
    return out


def descendants(tree, node):
    return set(int(i) for i in tree.subtree(node)[1:])


def check_before_after(est, outcome):
    before_dot, after_dot = pviews.before_after_dot(est, outcome)
    b, a = styles(before_dot), styles(after_dot)
    tree, pruned, rep = outcome.before, outcome.after, outcome.report
    assert sorted(b) == list(range(tree.node_count)) and sorted(a) == list(range(pruned.node_count))
    ghosts = {i for i, (g, _) in b.items() if g}
    bold_before = {i for i, (_, bold) in b.items() if bold}
    # what is ghosted is exactly what lies below the nodes that became leaves (and raised-over tests)
    below = set().union(*(descendants(tree, i) for i in rep.collapsed)) if rep.collapsed else set()
    if not rep.raised:
        assert ghosts == below
    assert below <= ghosts and len(ghosts) == tree.node_count - pruned.node_count
    assert bold_before == set(rep.collapsed) and not (bold_before & ghosts)
    assert all(not tree.is_leaf[i] for i in bold_before)
    # after: bold = leaves that were tests in the grown tree, and nothing else
    bold_after = {i for i, (_, bold) in a.items() if bold}
    assert not any(g for g, _ in a.values())
    assert bold_after == {
        i for i in range(pruned.node_count) if pruned.is_leaf[i] and not tree.is_leaf[rep.kept[i]]
    }
    # real Graphviz draws both with the node ids the app hooks into
    for dot, n in ((before_dot, tree.node_count), (after_dot, pruned.node_count)):
        svg = export.render(dot, "svg").decode("utf-8")
        assert f'id="dtnode{n - 1}"' in svg and f'id="dtnode{n}"' not in svg
    return before_dot, after_dot


def pruned_estimator(est, tree):
    import copy

    out = copy.copy(est)
    out.tree_ = tree
    return out


def test_ccp_on_breast_cancer_matches_sklearn_and_ghosts_the_removed_nodes(cancer):
    res, df, sets = cancer
    est = res.estimator
    X_train = raw_rows(df, res.features)[res.rows["train"]].astype(float)
    y_train = df[res.target].to_numpy(dtype=object)[res.rows["train"]].astype(str)
    sk_path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X_train, y_train)
    values = pv.alpha_values(pv.grown_tree(est))
    np.testing.assert_allclose(values, np.unique(sk_path.ccp_alphas), rtol=1e-9, atol=1e-12)
    alpha = values[len(values) // 2]
    outcome = pv.run_prune(res, sets, "ccp", alpha=alpha)
    sk = DecisionTreeClassifier(random_state=0, ccp_alpha=alpha).fit(X_train, y_train)
    assert outcome.after.node_count == sk.tree_.node_count < outcome.before.node_count
    check_before_after(est, outcome)
    # an α between two path values prunes like the value below it
    assert pv.snap_alpha((values[2] + values[3]) / 2, values) == values[2]


def test_metrics_table_agrees_with_the_estimators_own_scores(cancer):
    res, df, sets = cancer
    est = res.estimator
    outcome = pv.run_prune(res, sets, "rep")
    table = pviews.metrics_table(outcome.report, "en")
    rows = {r[0]: r[1:] for r in table.itertuples(index=False)}
    assert rows["Nodes"][:2] == (str(est.node_count), str(outcome.after.node_count))
    assert rows["Leaves"][:2] == (str(est.get_n_leaves()), str(outcome.after.get_n_leaves()))
    assert rows["Depth"][:2] == (str(est.get_depth()), str(outcome.after.get_depth()))
    X = raw_rows(df, res.features)
    y = df[res.target].to_numpy(dtype=object)
    after = pruned_estimator(est, outcome.after)
    for split, name in (("train", "training"), ("valid", "validation"), ("test", "test")):
        idx = res.rows[split]
        before_err = 1 - est.score(X[idx], y[idx])
        after_err = 1 - after.score(X[idx], y[idx])
        assert rows[f"Error rate · {name}"][:2] == (f"{before_err:.1%}", f"{after_err:.1%}")
    # REP never raises the validation error
    assert 1 - after.score(X[res.rows["valid"]], y[res.rows["valid"]]) <= 1 - est.score(
        X[res.rows["valid"]], y[res.rows["valid"]]
    )
    zh = pviews.metrics_table(outcome.report, "zh")
    assert list(zh.columns) == ["指标", "剪枝前", "剪枝后", "变化"] and zh.iloc[0, 0] == "节点数"


def test_ebp_at_c45s_cf_gives_c45s_own_tree_on_vote(vote):
    res, df, sets = vote
    est = res.estimator
    assert pv.natural_method("c45", R.CLASSIFICATION) == "ebp"
    outcome = pv.run_prune(res, sets, "ebp", cf=est.confidence_factor)
    assert outcome.before is est.unpruned_tree_ and outcome.before.node_count > est.node_count
    assert pv.grown_tree(est, forced=True) is est.tree_  # splits forced on the Splits page
    assert outcome.after.to_dict() == est.tree_.to_dict()  # what C4.5 itself kept
    check_before_after(est, outcome)
    strong = pv.run_prune(res, sets, "ebp", cf=0.01)
    assert strong.after.node_count <= outcome.after.node_count


@pytest.mark.parametrize("method", ["pep", "ccp", "rep"])
def test_every_method_on_a_multiway_c45_tree(vote, method):
    res, df, sets = vote
    values = pv.alpha_values(pv.grown_tree(res.estimator))
    outcome = pv.run_prune(res, sets, method, alpha=values[-2])
    assert outcome.after.node_count <= outcome.before.node_count
    check_before_after(res.estimator, outcome)


def test_watermelon_without_validation_rows_cannot_run_rep():
    res, df = fit_sample("watermelon_2.0", "c45", "gain_ratio", prune=False)
    sets = pv.encoded_sets(res, df)
    with pytest.raises(ValueError, match="validation"):
        pv.run_prune(res, sets, "rep")
    outcome = pv.run_prune(res, sets, "pep")  # needs no data
    check_before_after(res.estimator, outcome)


def test_regression_tree_offers_rep_and_ccp_only():
    res, df = fit_sample("diabetes", "cart", "squared_error", max_depth=5)
    assert pv.methods_for(res.task) == ("rep", "ccp")
    assert pv.natural_method("cart", R.REGRESSION) == "ccp"
    sets = pv.encoded_sets(res, df)
    outcome = pv.run_prune(res, sets, "rep")
    assert outcome.report.metric == "mse"
    table = pviews.metrics_table(outcome.report, "en")
    X = raw_rows(df, res.features)
    y = df[res.target].to_numpy(dtype=float)
    idx = res.rows["test"]
    mse = float(np.mean((res.estimator.predict(X[idx]) - y[idx]) ** 2))
    assert table.iloc[5, 0] == "MSE · test" and table.iloc[5, 1] == export.fmt_num(mse, 4)


LABELS = {
    "train": "training",
    "valid": "validation",
    "test": "test",
    "cv": "10-fold CV",
    "band": "±1 SE",
    "rule": "CV choice",
    "alpha": "α",
    "error": "error",
    "chosen": "chosen",
    "leaves": "leaves",
    "nodes": "nodes",
    "size": "size",
    "estimate": "estimated errors",
    "cf": "CF",
}


SVG = "{http://www.w3.org/2000/svg}"


def columns(svg: str) -> list[tuple[float, float, str]]:
    """(x, width, tooltip) of each position's column, left to right."""
    root = ET.fromstring(svg)
    out = []
    for r in root.iter(SVG + "rect"):
        title = r.find(SVG + "title")
        if title is not None:  # a legend swatch's title is its group's
            out.append((float(r.get("x")), float(r.get("width")), title.text or ""))
    return out


def chosen_xs(svg: str) -> set[float]:
    """x of the dashed chosen line (one per panel)."""
    root = ET.fromstring(svg)
    return {
        float(line.get("x1")) for line in root.iter(SVG + "line") if line.get("stroke-dasharray") == "5 4"
    }


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(SVG + "text")]


def test_alpha_charts_show_the_path_the_cv_band_and_the_chosen_alpha(cancer):
    res, df, sets = cancer
    curves = pv.alpha_curves(res, sets, cv_folds=10, one_se=True)
    tree = pv.grown_tree(res.estimator)
    X, y = sets.get("train")
    direct = choose_alpha_cv(pv.grower(res.estimator), X, y, k=10, one_se=True, tree=tree)
    assert curves.cv.alpha == direct.alpha and curves.cv.errors.tolist() == direct.errors.tolist()
    chosen = curves.alphas[3]
    labels = {**LABELS, "train": "<training & co>"}  # user-visible words are escaped
    svg = pf.alpha_error_svg(curves, chosen, labels)
    assert svg == pf.alpha_error_svg(curves, chosen, labels)  # deterministic
    assert "<training & co>" not in svg and "&lt;training &amp; co&gt;" in svg
    cols = columns(svg)
    assert len(cols) == len(curves.alphas)  # x = path step, one column (tooltip) per step
    for i, (_, _, tip) in enumerate(cols):
        lines = tip.split("\n")
        assert lines[0] == f"α = {curves.alphas[i]:.4g} · {curves.n_leaves[i]} leaves"
        # the CV error with its ±1 SE, as dtcore's own choose_alpha_cv computes them
        assert f"10-fold CV: {fmt_pct(direct.errors[i])} ± {fmt_pct(direct.ses[i])}" in lines
        assert f"<training & co>: {fmt_pct(curves.errors['train'][i])}" in lines
        assert any(line.startswith("validation: ") for line in lines)
        assert any(line.startswith("test: ") for line in lines)
    # the unpruned tree (α = 0) fits the training rows; the root alone errs on the minority share
    _, counts = np.unique(y, return_counts=True)
    assert "<training & co>: 0.0%" in cols[0][2].split("\n")
    assert f"<training & co>: {fmt_pct(1 - counts.max() / counts.sum())}" in cols[-1][2].split("\n")
    # the CV rule's choice: a star in the plot, at its step's x
    star_step = next(i for i, a in enumerate(curves.alphas) if a == pytest.approx(direct.alpha))
    assert cols[star_step][2].endswith("\nCV choice") and sum(c[2].endswith("CV choice") for c in cols) == 1
    stars = [p for p in ET.fromstring(svg).iter(SVG + "polygon") if p.get("fill") == pf.RULE]
    xs = [float(v.split(",")[0]) for v in stars[-1].get("points").split()]
    assert min(xs) < cols[star_step][0] < max(xs)
    # the chosen α (step 3) dashed at its step; an α between path values at the step it prunes to
    assert chosen_xs(svg) == {cols[3][0]}
    between = pf.alpha_error_svg(curves, (curves.alphas[4] + curves.alphas[5]) / 2, LABELS)
    assert chosen_xs(between) == {columns(between)[4][0]}
    # the ticks: path steps labelled with their α
    ticks = pf.alpha_ticks(curves.alphas)
    assert [t for _, t in ticks] == [plain(curves.alphas[int(i)], 3) for i, _ in ticks]
    assert set(t for _, t in ticks) <= set(texts(svg))
    leaves = pf.leaves_alpha_svg(curves, chosen, LABELS)
    tips = [c[2] for c in columns(leaves)]
    assert tips == [f"α = {a:.4g}: {k} leaves" for a, k in zip(curves.alphas, curves.n_leaves)]
    assert curves.n_leaves[-1] == 1 and curves.n_leaves[0] == res.estimator.get_n_leaves()
    assert all(a >= b for a, b in zip(curves.n_leaves, curves.n_leaves[1:]))
    assert chosen_xs(leaves) == {columns(leaves)[3][0]}


def test_catalogue_has_every_dynamic_pruning_key():
    from ui import i18n

    keys = [f"prune.{kind}.{m}" for m in pv.METHODS for kind in ("method", "about")]
    keys += ["prune.rule.min", "prune.rule.1-SE"] + [f"prune.label.{k}" for k in LABELS if k not in pv.SETS]
    for key in keys:
        en, zh = i18n.CATALOGUE[key]
        assert en and zh and (en != zh or key in ("prune.label.alpha",)), key


def test_cf_figure_on_vote_meets_c45_at_its_default_cf(vote):
    res, df, sets = vote
    curves = pv.cf_curves(res, sets)
    i = curves.cfs.index(0.25)
    assert curves.nodes[i] == res.estimator.node_count  # C4.5 trained with CF 0.25
    assert curves.leaves[i] == res.estimator.get_n_leaves()
    assert curves.estimated_errors[i] == pytest.approx(
        res.estimator.pruning_report_.after["estimated_errors"]
    )
    svg = pf.cf_svg(curves, 0.25, LABELS)
    assert svg == pf.cf_svg(curves, 0.25, LABELS)
    cols = columns(svg)
    assert len(cols) == 2 * len(pv.CF_GRID)  # a column per CF in each of the two panels
    tips = [c[2] for c in cols[: len(pv.CF_GRID)]]
    assert tips[i] == (
        f"CF 0.25\nnodes: {res.estimator.node_count}\nleaves: {res.estimator.get_n_leaves()}\n"
        f"estimated errors: {curves.estimated_errors[i]:.4g}"
    )
    assert [t.split("\n")[0] for t in tips] == [f"CF {plain(c)}" for c in pv.CF_GRID]
    # the chosen CF dashed in both panels, inside its column (columns are centred on their CF)
    (x,) = chosen_xs(svg)
    assert cols[i][0] < x < cols[i][0] + cols[i][1]
    assert {"nodes", "leaves", "estimated errors"} <= set(texts(svg))


def test_a_long_path_is_drawn_by_groups_of_steps_with_true_ranges():
    """Thousands of path steps (a 10⁴-node tree) are drawn as at most MAX_COLUMNS groups: each
    group's tooltip gives the range of every curve over its steps, the CV rule's star is in its
    group's tooltip, and the picture stays small."""
    from dtcore.pruning.alpha_selection import AlphaChoice

    rng = np.random.default_rng(0)
    n = 3000
    alphas = np.concatenate([[0.0], np.sort(rng.uniform(1e-5, 0.3, n - 1))])
    leaves = np.linspace(2000, 1, n).round().astype(int)
    train = np.linspace(0.0, 0.4, n)
    cv_err = 0.2 + 0.05 * np.sin(np.arange(n) / 50)
    ses = np.full(n, 0.01)
    star = 1234
    cv = AlphaChoice(float(alphas[star]), alphas, alphas, cv_err, ses, leaves, star, star, "1-SE", "cv(10)")
    curves = pv.AlphaCurves(list(alphas), leaves.tolist(), {"train": train.tolist()}, cv, None, "error_rate")
    svg = pf.alpha_error_svg(curves, float(alphas[10]), LABELS)
    cols = columns(svg)
    groups = pf.step_groups(n)
    assert len(cols) == len(groups) <= pf.MAX_COLUMNS and groups[-1][1] == n
    assert len(svg) < 80_000, len(svg)
    for (a, b), (_, _, tip) in zip(groups, cols):
        lines = tip.split("\n")
        assert lines[0] == (
            f"α = {alphas[a]:.4g} – {alphas[b - 1]:.4g} · {leaves[a:b].min()} – {leaves[a:b].max()} leaves"
        )
        assert f"training: {fmt_pct(train[a:b].min())} – {fmt_pct(train[a:b].max())}" in lines
        lo, hi = fmt_pct(cv_err[a:b].min()), fmt_pct(cv_err[a:b].max())
        assert f"10-fold CV: {lo}" + ("" if lo == hi else f" – {hi}") in lines
        assert (lines[-1] == "CV choice") == (a <= star < b)
    # the chosen α: dashed at its own step's x, inside its group's column
    (x,) = chosen_xs(svg)
    g = next(k for k, (a, b) in enumerate(groups) if a <= 10 < b)
    assert cols[g][0] <= x < cols[g][0] + cols[g][1]
    leaves_svg = pf.leaves_alpha_svg(curves, float(alphas[10]), LABELS)
    assert len(columns(leaves_svg)) == len(groups) and len(leaves_svg) < 40_000


def test_the_pages_fold_trees_are_grown_unpruned_as_the_tree_it_prunes():
    """The Pruning page prunes C4.5's tree as grown (``grown_tree``: ``unpruned_tree_``), so its
    cross-validation folds grow that tree too, EBP off (``estimator_grower(unpruned=True)``)."""
    from dtcore import C45Classifier
    from tests.dtcore.test_pruning import grown, read_numeric

    X, y = read_numeric("breast_cancer.csv")
    est = C45Classifier().fit(X, y)
    assert est.unpruned_tree_.node_count > est.tree_.node_count  # EBP pruned something
    assert pv.grown_tree(est) is est.unpruned_tree_
    assert grown(pv.grower(est)(X, y, None)) == grown(est.unpruned_tree_)
