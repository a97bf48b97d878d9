"""Subtree raising inside a raised subtree: a step raises a node's grandchild in the grown tree,
which is its child once an earlier step raised the grandchild into its parent's place. The model
file's growth entry is checked against the tree as the earlier steps left it (the replay's rules,
``dtcore.analysis.growth_steps.PrunedShape``), so such a model loads again."""

import gzip
import json
from pathlib import Path

import pytest

from dtcore.analysis import growth_steps as gs
from tests.cli_runner import run_cli

EXAMPLES = Path("/usr/share/doc/weka/examples")


def soybean(tmp_path):
    """Weka's soybean.arff (Debian's weka, installed by ``make test``), unpacked if gzipped."""
    plain = EXAMPLES / "soybean.arff"
    if plain.exists():
        return plain
    packed = EXAMPLES / "soybean.arff.gz"
    if not packed.exists():
        pytest.skip(f"{plain} is not installed")
    out = tmp_path / "soybean.arff"
    out.write_bytes(gzip.decompress(packed.read_bytes()))
    return out


@pytest.mark.parametrize("options", [[], ["--option", "min_cases=1"], ["--option", "confidence_factor=0.1"]])
def test_a_saved_c45_soybean_model_opens_again(tmp_path, options):
    data = soybean(tmp_path)
    model = tmp_path / "m.json"
    train = run_cli("train", data, "--target", "class", "--algorithm", "c45", *options, "--out", model)
    assert train.returncode == 0, train.stderr
    show = run_cli("show", model)
    assert show.returncode == 0, show.stderr
    assert "Traceback" not in show.stderr and "error" not in show.stderr


def nested_model():
    """A C4.5 fit (defaults) whose pruning raises a branch raised once already: a mixed data set
    with missing values from scripts/compare_j48.py's generator (seed 24)."""
    from dtcore.c45 import C45Classifier
    from tests.dtcore.test_j48 import cj

    X, y, kw = cj.random_dataset(24, n=120, missing=0.05)
    est = C45Classifier().fit(X, y, **kw)
    grown = est.grown_tree_
    nested = [
        k
        for k, s in enumerate(est.prune_steps_)
        if s.kind == "raise" and s.branch not in grown.children_of(s.node).tolist()
    ]
    assert nested, "the data no longer makes a nested raise: pick another seed"
    return est, nested[0]


def test_a_nested_raise_survives_save_and_load():
    from dtcore.export.model_json import dumps_model, model_from_dict

    est, _ = nested_model()
    text = dumps_model(est)
    back = model_from_dict(json.loads(text))
    assert gs.same_structure(back.tree_, est.tree_)
    assert [s.to_dict() for s in back.prune_steps_] == [s.to_dict() for s in est.prune_steps_]
    for k in range(gs.n_steps(est) + 1):
        assert gs.same_structure(gs.step_tree(back, k).tree, gs.step_tree(est, k).tree)
    assert dumps_model(back) == text


def test_a_raise_before_the_raise_it_needs_is_refused():
    """The nested raise moved before the step that made its branch a child of its node: the
    branch is a grandchild there, so the crafted history is refused on load."""
    from dtcore.export.model_json import dumps_model, model_from_dict

    est, k = nested_model()
    d = json.loads(dumps_model(est))
    steps = d["growth"]["prune_steps"]
    target = steps[k]["branch"]
    earlier = next(j for j in range(k) if steps[j]["kind"] == "raise" and steps[j]["branch"] == target)
    steps.insert(earlier, steps.pop(k))
    with pytest.raises(ValueError, match="a raised branch must be a child of its node"):
        model_from_dict(d)
