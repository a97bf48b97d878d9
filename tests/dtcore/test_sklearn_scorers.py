"""Every scorer string of scikit-learn that applies to a classifier or a regressor gives finite
scores in ``cross_validate`` with every dtcore estimator. Binary ``roc_auc`` and
``average_precision`` (and ``roc_auc_ovr`` on two classes) used to be NaN: ``predict_proba`` was a
property returning another method, and scikit-learn picks the positive class's column only when
the method's ``__name__`` is ``predict_proba``."""

import numpy as np
import pytest
from sklearn.metrics import get_scorer, get_scorer_names
from sklearn.model_selection import StratifiedKFold, cross_validate

from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.id3.estimator import ID3Classifier

CLASSIFIERS = [CARTClassifier, C45Classifier, ID3Classifier]

#: scorers that apply to neither task here, one line of reason each
NOT_APPLICABLE = {
    name: "averages over the labels of each sample: multilabel targets only, which dtcore does not fit"
    for name in get_scorer_names()
    if name.endswith("_samples")
}
#: scorers defined for two classes only (scikit-learn raises on three): run on binary data only
BINARY_ONLY = {"f1", "precision", "recall", "jaccard", "roc_auc"}
BINARY_ONLY |= {"positive_likelihood_ratio", "neg_negative_likelihood_ratio"}
#: the modules of the metrics that score class labels or class probabilities
CLASSIFICATION_MODULES = ("_classification", "_ranking", "_supervised")


def _module(name):
    return get_scorer(name)._score_func.__module__.rsplit(".", 1)[-1]


def classifier_scorers(binary):
    names = [
        n
        for n in get_scorer_names()
        if n not in NOT_APPLICABLE
        and (_module(n) in CLASSIFICATION_MODULES or n.endswith("likelihood_ratio"))
    ]
    return names if binary else [n for n in names if n not in BINARY_ONLY]


def regressor_scorers():
    return [n for n in get_scorer_names() if n not in NOT_APPLICABLE and _module(n) == "_regression"]


def noisy_classes(n_classes, seed=0):
    """Two numeric features whose class depends on them, with 20 % of the labels flipped at
    random: every test fold then holds both right and wrong predictions of every class (the
    likelihood ratios and MCC are undefined on a perfect or constant fold)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(240, 2))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1], np.linspace(-1, 1, n_classes + 1)[1:-1])
    flip = rng.random(240) < 0.2
    y[flip] = rng.integers(0, n_classes, flip.sum())
    return X, y


def finite_scores(est, X, y, scorers, cv):
    result = cross_validate(est, X, y, scoring=scorers, cv=cv, error_score="raise")
    return {n: result[f"test_{n}"] for n in scorers}


def test_every_scorer_is_sorted_into_a_task():
    """No scorer of this scikit-learn slips through both lists unnoticed."""
    sorted_ = set(classifier_scorers(binary=True)) | set(regressor_scorers()) | set(NOT_APPLICABLE)
    assert sorted_ == set(get_scorer_names())
    assert {"roc_auc", "average_precision", "neg_log_loss", "top_k_accuracy"} <= set(
        classifier_scorers(binary=True)
    )


@pytest.mark.parametrize("name", sorted(BINARY_ONLY))
def test_binary_only_scorers_are_refused_by_sklearn_on_three_classes(name):
    """The exclusion is scikit-learn's, not ours: its own tree gets a ValueError too."""
    from sklearn.tree import DecisionTreeClassifier

    X, y = noisy_classes(3)
    with pytest.raises(ValueError):
        get_scorer(name)(DecisionTreeClassifier(max_depth=3).fit(X, y), X, y)


@pytest.mark.parametrize("n_classes", [2, 3], ids=["binary", "multiclass"])
@pytest.mark.parametrize("cls", CLASSIFIERS, ids=lambda c: c.__name__)
def test_every_classifier_scorer_is_finite(cls, n_classes):
    X, y = noisy_classes(n_classes)
    est = cls(max_depth=3) if cls is CARTClassifier else cls()
    scorers = classifier_scorers(binary=n_classes == 2)
    scores = finite_scores(est, X, y, scorers, StratifiedKFold(3, shuffle=True, random_state=0))
    bad = {n: s.tolist() for n, s in scores.items() if not np.all(np.isfinite(s))}
    assert not bad, bad


def test_binary_ranking_scores_are_the_positive_columns():
    """The binary ``roc_auc`` of ``cross_validate`` is the AUC of ``predict_proba[:, 1]``."""
    from sklearn.metrics import roc_auc_score

    X, y = noisy_classes(2)
    est = CARTClassifier(max_depth=3)
    fold = next(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    est.fit(X[fold[0]], y[fold[0]])
    expected = roc_auc_score(y[fold[1]], est.predict_proba(X[fold[1]])[:, 1])
    assert get_scorer("roc_auc")(est, X[fold[1]], y[fold[1]]) == pytest.approx(expected)
    assert est.predict_proba.__name__ == "predict_proba"


def test_every_regressor_scorer_is_finite():
    """A positive target, so that the Poisson and gamma deviances, the squared log error and the
    percentage error are defined (they refuse targets ≤ 0 or < 0)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(240, 3))
    y = np.exp(X[:, 0] + 0.3 * rng.normal(size=240))
    scorers = regressor_scorers()
    scores = finite_scores(CARTRegressor(max_depth=4), X, y, scorers, 3)
    bad = {n: s.tolist() for n, s in scores.items() if not np.all(np.isfinite(s))}
    assert not bad, bad


def test_a_regressor_still_has_no_predict_proba_and_the_class_shows_the_method():
    assert not hasattr(CARTRegressor(), "predict_proba")
    assert not hasattr(CARTRegressor().fit([[0.0], [1.0]], [0.0, 1.0]), "predict_proba")
    assert hasattr(CARTClassifier(), "predict_proba")
    assert "Class probabilities" in (CARTClassifier.predict_proba.__doc__ or "")
