"""The versioned JSON model (format ``dtcore-model``, docs/model-json.md): models are JSON, never
pickle; the ``tree`` arrays are the truth, ``nodes`` and ``summary`` are for readers."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dtcore.export.files import write_atomic
from dtcore.export.json_text import dumps_indented
from dtcore.export.labels import (
    branches,
    condition_text,
    is_empty,
    node_prediction_indices,
    unassigned_categories,
    unwrap_model,
)
from dtcore.export.origin import ModelOrigin
from dtcore.export.tree_check import check_tree, read_neighbours
from dtcore.schema import KINDS, Schema
from dtcore.tree import MODEL_TREE_ARRAYS, Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

FORMAT = "dtcore-model"
VERSION = 1


#: the categories with no branch named in a node's readable record; past it, also their count
NO_BRANCH_LISTED = 100


def tree_summary(tree: Tree) -> dict:
    return {"n_nodes": tree.node_count, "n_leaves": tree.get_n_leaves(), "depth": tree.get_depth()}


def describe_nodes(tree: Tree, schema: Schema) -> list[dict]:
    """The readable node list of the JSON model (derived from the arrays; ignored when loading)."""
    classes = schema.classes
    predicted = node_prediction_indices(tree)
    out = []
    for i in range(tree.node_count):
        rec: dict[str, object] = {
            "id": i,
            "parent": int(tree.parent[i]),
            "depth": int(tree.depth[i]),
            "leaf": bool(tree.feature[i] < 0),
        }
        if tree.feature[i] >= 0:
            j = int(tree.feature[i])
            feat = schema.features[j]
            rec["feature"] = feat.name
            rec["feature_index"] = j
            bs = branches(tree, schema, i)
            if tree.is_categorical_test(i):
                # the missing branch carries them already (CART); C4.5's shared-out tests do not
                orphans = next((b.also for b in bs if b.missing), None)
                orphans = unassigned_categories(tree, schema, i) if orphans is None else orphans
                test: dict[str, object] = {
                    "kind": "categorical",
                    "branches": [list(b.values) for b in bs],
                    "no_branch": list(orphans[:NO_BRANCH_LISTED]),
                }
                if len(orphans) > NO_BRANCH_LISTED:  # the rest are counted, not named
                    test["no_branch_count"] = len(orphans)
                rec["test"] = test
            else:
                rec["test"] = {
                    "kind": "continuous",
                    "cuts": _finite_json([float(c) for c in tree.cuts_of(i)]),
                }
            mb = int(tree.missing_branch[i])
            rec["missing"] = "distribute" if mb < 0 else {"branch": mb}
            rec["children"] = [
                {"node": b.child, "branch": b.index, "condition": f"{feat.name} {condition_text(b)}"}
                for b in bs
            ]
        rec["weighted_n"] = float(tree.weighted_n[i])
        rec["n_samples"] = int(tree.n_samples[i])
        rec["impurity"] = _finite_json(float(tree.impurity[i]))
        if classes is not None:
            rec["distribution"] = {c: float(v) for c, v in zip(classes, tree.value[i])}
            rec["prediction"] = classes[predicted[i]]
            if is_empty(tree, i):
                rec["empty"] = True
        else:
            rec["value"] = [float(v) for v in tree.value[i]]
            rec["prediction"] = float(tree.value[i, 0])
        out.append(rec)
    return out


def _jsonable_param(name: str, value: object) -> object:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (list, tuple)):
        return [_jsonable_param(name, v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable_param(name, v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"parameter {name}={value!r} is not finite and cannot be saved as JSON")
        return value
    raise ValueError(f"parameter {name}={value!r} ({type(value).__name__}) cannot be saved as JSON")


_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def _finite_json(values: object) -> object:
    """Float lists with ±inf/NaN written as the strings "Infinity", "-Infinity", "NaN" (strict
    JSON has no such numbers; CART's "missing values alone" test stores the cut +inf)."""
    if isinstance(values, list):
        try:  # a list of finite numbers as it is: one C-level pass (a tree array has 10⁵ of them)
            if all(map(math.isfinite, values)):
                return values
        except TypeError:  # strings, lists, None: item by item
            pass
        return [_finite_json(v) for v in values]
    if isinstance(values, float) and not math.isfinite(values):
        return "NaN" if math.isnan(values) else ("Infinity" if values > 0 else "-Infinity")
    return values


def _from_finite_json(values: object) -> object:
    if isinstance(values, list):
        return [_from_finite_json(v) for v in values]
    if isinstance(values, str):
        try:
            return _NONFINITE[values]
        except KeyError:
            raise ValueError(f"model file holds {values!r} where a number belongs") from None
    return values


#: a category table longer than this is written as runs (``{"values", "lengths"}``): a CART
#: test on a feature of 10⁵ labels holds a branch for every label, most of them -1 (not seen at
#: that node), so a thousand such tests would otherwise write 10⁸ numbers
RUNS_FROM = 4096
#: the longest table a file's runs may decode to per node, when the schema does not say
MAX_TABLE = 1 << 16


def _tree_json(tree: Tree) -> dict:
    if int(tree.cat_size.sum()) <= RUNS_FROM:
        return {k: _finite_json(v) for k, v in tree.to_dict().items()}
    d = {k: _finite_json(v) for k, v in tree.to_dict(skip=("cat_branch",)).items()}
    d["cat_branch"] = _dense_runs(tree)
    return d


def _dense_runs(tree: Tree) -> dict:
    """The runs of equal entries in the dense tables (``Tree.dense_cat_tables``), found from
    the sparse ones without laying the dense tables out: between two listed codes the dense
    table holds -1."""
    offsets, pos = tree.cat_positions()
    gaps = np.diff(np.r_[-1, pos]) - 1  # the -1 entries before each listed one
    vals = np.empty(2 * pos.size + 1, dtype=np.int64)
    lens = np.empty(2 * pos.size + 1, dtype=np.int64)
    vals[0:-1:2], lens[0:-1:2] = -1, gaps
    vals[1::2], lens[1::2] = tree.cat_branch, 1
    vals[-1], lens[-1] = -1, offsets[-1] - (pos[-1] + 1 if pos.size else 0)
    keep = lens > 0
    vals, lens = vals[keep], lens[keep]
    starts = np.flatnonzero(np.r_[True, vals[1:] != vals[:-1]])
    return {"values": vals[starts].tolist(), "lengths": np.add.reduceat(lens, starts).tolist()}


def _runs_listed(runs: dict, d: dict, max_table: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``cat_branch`` written as runs: (position in the dense tables, branch) of every entry
    that is not -1, never the dense tables themselves; refused before anything is allocated
    when the runs are malformed or would decode to more entries than the nodes' tables hold."""
    values, lengths = runs.get("values"), runs.get("lengths")
    if not (
        isinstance(values, list)
        and isinstance(lengths, list)
        and len(values) == len(lengths)
        and all(type(v) is int for v in values)
        and all(type(n) is int and n > 0 for n in lengths)
    ):
        raise ValueError("model tree.cat_branch: runs must be lists of whole numbers (values, lengths > 0)")
    total = sum(lengths)
    ptr, feature = d.get("cat_ptr"), d.get("feature")
    n_nodes = len(feature) if isinstance(feature, list) else 0
    if not (isinstance(ptr, list) and ptr and ptr[-1] == total) or total > n_nodes * (max_table or MAX_TABLE):
        raise ValueError("model tree.cat_branch: runs do not decode to the category tables of tree.cat_ptr")
    v, n = np.asarray(values, dtype=np.int64), np.asarray(lengths, dtype=np.int64)
    if np.any(v < -1) or np.any(v > np.iinfo(np.int32).max):
        raise ValueError(
            "model tree.cat_branch: a category's branch must be -1 or one of the node's branches"
        )
    start = np.cumsum(n) - n
    listed = v >= 0
    v, n, start = v[listed], n[listed], start[listed]
    pos = np.repeat(start - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
    return pos, np.repeat(v, n)


def _sparse_tables(d: dict, max_table: int | None) -> dict[str, np.ndarray]:
    """A model file's dense category tables (a list or runs, packed by ``cat_ptr``) as the
    Tree's sparse arrays, the offsets checked first (the names ``check_tree`` would give)."""
    n = len(d["feature"]) if isinstance(d.get("feature"), list) else -1
    try:
        offsets = np.asarray(d["cat_ptr"], dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("model tree.cat_ptr: not a list of numbers") from None
    cb = d["cat_branch"]
    if isinstance(cb, dict):
        pos, branch = _runs_listed(cb, d, max_table)
        total = int(offsets[-1]) if offsets.ndim == 1 and offsets.size else -1
    else:
        try:
            dense = np.asarray(cb, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError("model tree.cat_branch: not a list of numbers") from None
        if dense.ndim != 1:
            raise ValueError("model tree.cat_branch: not a flat list of numbers")
        if np.any(dense < -1) or np.any(dense > np.iinfo(np.int32).max):
            raise ValueError(
                "model tree.cat_branch: a category's branch must be -1 or one of the node's branches"
            )
        pos = np.flatnonzero(dense >= 0)
        branch, total = dense[pos], dense.size
    if (
        offsets.ndim != 1
        or offsets.size != n + 1
        or offsets[0] != 0
        or offsets[-1] != total
        or np.any(np.diff(offsets) < 0)
    ):
        raise ValueError(
            f"model tree.cat_ptr: not {n + 1} non-decreasing offsets from 0 to the length of cat_branch"
        )
    return sparse_cat_tables(offsets, pos, branch)


def sparse_cat_tables(offsets: np.ndarray, pos: np.ndarray, branch: np.ndarray) -> dict[str, np.ndarray]:
    """A Tree's sparse category arrays (``cat_size``, ``cat_ptr``, ``cat_code``, ``cat_branch``)
    from dense tables packed by ``offsets`` (a model file's layout), given as the positions
    (ascending) and branches of their entries that are not -1."""
    offsets = np.asarray(offsets, dtype=np.int64)
    owner = np.searchsorted(offsets, pos, side="right") - 1
    ptr = np.zeros(offsets.size, dtype=np.int64)
    ptr[1:] = np.cumsum(np.bincount(owner, minlength=offsets.size - 1))
    return dict(
        cat_size=np.diff(offsets),
        cat_ptr=ptr,
        cat_code=(pos - offsets[owner]).astype(np.int32),
        cat_branch=np.asarray(branch).astype(np.int32),
    )


def tree_from_dict(d: object, max_table: int | None = None) -> Tree:
    """The tree of ``Tree.to_dict`` output, checked (``tree_check.check_tree``): a damaged or
    crafted model file is refused with a ValueError naming the field, before anything walks it.
    ``cat_branch`` may be written as runs (``_tree_json``); ``max_table``: the most categories
    of any feature (bounds what runs may decode to)."""
    if not isinstance(d, dict):
        raise ValueError("model tree: expected an object of arrays")
    kw = {}
    for name, dtype in MODEL_TREE_ARRAYS.items():
        if name not in d:
            raise ValueError(f"model tree lacks {name!r}")
        if name in ("cat_ptr", "cat_branch"):
            continue
        try:
            arr = np.asarray(d[name], dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"model tree.{name}: not a list of numbers") from None
        if name == "value":
            n = len(d["feature"]) if isinstance(d.get("feature"), list) else -1
            if n <= 0 or arr.ndim not in (1, 2) or arr.size % n or (arr.ndim == 2 and arr.shape[0] != n):
                raise ValueError("model tree.value: not one row of numbers per node")
            arr = arr.reshape(n, -1)
        elif arr.ndim != 1:
            raise ValueError(f"model tree.{name}: not a flat list of numbers")
        kw[name] = arr
    kw.update(_sparse_tables(d, max_table))
    n_classes = d.get("n_classes", 0)
    if not isinstance(n_classes, int) or isinstance(n_classes, bool) or n_classes < 0:
        raise ValueError("model tree.n_classes: not a whole number ≥ 0")
    saw = d.get("saw_missing")
    if saw is not None and (
        not isinstance(saw, list)
        or len(saw) != len(kw["feature"])
        or not all(isinstance(v, bool) for v in saw)
    ):
        raise ValueError("model tree.saw_missing: not one true/false per node")
    tree = Tree(n_classes=n_classes, saw_missing=None if saw is None else np.array(saw, dtype=bool), **kw)
    tree.cut_below, tree.cut_above = read_neighbours(d)
    check_tree(tree)
    return tree


def model_to_dict(estimator: BaseTreeEstimator) -> dict:
    """A fitted estimator as plain JSON data (format ``dtcore-model`` version 1, docs/model-json.md)."""
    tree, schema, _ = unwrap_model(estimator, None)
    return {
        "format": FORMAT,
        "version": VERSION,
        "algorithm": getattr(estimator, "algorithm", "?"),
        "task": estimator._task,
        "estimator": type(estimator).__name__,
        "params": {k: _jsonable_param(k, v) for k, v in estimator.get_params().items()},
        "schema": schema.to_dict(),
        "summary": tree_summary(tree),
        "tree": _tree_json(tree),
        "nodes": describe_nodes(tree, schema),
        **_growth_entry(estimator),
        **_origin_entry(estimator),
    }


def _origin_entry(estimator: BaseTreeEstimator) -> dict:
    """``{"origin": …}`` for a tree imported from another library (``dtcore.export.origin``)."""
    origin = getattr(estimator, "origin_", None)
    return {} if origin is None else {"origin": origin.to_dict()}


def _growth_entry(estimator: BaseTreeEstimator) -> dict:
    """``{"growth": …}`` when the model holds its build and pruning order (``dtcore.export.growth_json``)."""
    from dtcore.export.growth_json import growth_to_dict

    g = growth_to_dict(estimator, _tree_json)
    return {} if g is None else {"growth": g}


def model_from_dict(d: dict, estimator_class: type[BaseTreeEstimator] | None = None) -> BaseTreeEstimator:
    """Rebuild a fitted estimator from ``model_to_dict`` output (the ``tree`` arrays are the truth;
    ``nodes`` and ``summary`` are for readers and ignored). ``estimator_class`` overrides the
    class looked up from ``algorithm`` and ``task``."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ValueError('not a dtcore model: the JSON has no "format": "dtcore-model"')
    version = d.get("version")
    if not isinstance(version, int) or version < 1:
        raise ValueError(f"model file has an invalid version {version!r}")
    if version > VERSION:
        raise ValueError(
            f"model file has version {version}; this dtcore reads up to version {VERSION}: upgrade dtcore"
        )
    for key in ("algorithm", "task", "params", "schema", "tree"):
        if key not in d:
            raise ValueError(f"model file lacks the {key!r} entry")
    if d["task"] not in ("classification", "regression"):
        raise ValueError(f"model file: task must be classification or regression, not {d['task']!r}")
    if not isinstance(d["params"], dict):
        raise ValueError("model file: params must be an object")
    if estimator_class is None:
        from dtcore.estimators import estimator_class as lookup

        estimator_class = lookup(d["algorithm"], d["task"])
    est = estimator_class()
    params = dict(d["params"])
    if d["algorithm"] == "c45" and params.get("threshold") == "c45":
        params["threshold"] = "r8"  # files written before the option was split into "r8" / "j48"
    est.set_params(**params)
    est._validate_params()
    schema = _schema_from_dict(d["schema"], d["task"])
    if not isinstance(d["tree"], dict):
        raise ValueError("model file: tree must be an object of arrays")
    tree = tree_from_dict({k: _from_finite_json(v) for k, v in d["tree"].items()}, _max_table(schema))
    _check_tree_fits_schema(tree, schema)
    est._set_schema(schema)
    est.tree_ = tree
    if d.get("growth") is not None:  # optional: files written before it lack it
        from dtcore.export.growth_json import growth_from_dict

        growth_from_dict(est, d["growth"], lambda g: _checked_tree(g, schema))
    if d.get("origin") is not None:  # optional: only imported trees have it
        est.origin_ = ModelOrigin.from_dict(d["origin"])
    return est


def _checked_tree(d: object, schema: Schema) -> Tree:
    """A tree entry (the grown tree of ``growth``) read and checked against the schema."""
    if not isinstance(d, dict):
        raise ValueError("model file: growth.grown_tree must be an object of arrays")
    tree = tree_from_dict({k: _from_finite_json(v) for k, v in d.items()}, _max_table(schema))
    _check_tree_fits_schema(tree, schema)
    return tree


def _max_table(schema: Schema) -> int:
    return max([1, *(len(f.categories or ()) for f in schema.features)])


def _schema_from_dict(d: object, task: str) -> Schema:
    """The schema entry, checked: features with a name and a known kind, category and class
    labels as text, classes exactly for a classification model."""
    if not isinstance(d, dict) or not isinstance(d.get("features"), list) or not d["features"]:
        raise ValueError("model file: schema.features must be a non-empty list")
    for f in d["features"]:
        if not isinstance(f, dict) or not isinstance(f.get("name"), str) or f.get("kind") not in KINDS:
            raise ValueError(f"model file: schema.features holds {f!r}, not a feature with a name and a kind")
        cats = f.get("categories", [])
        if not isinstance(cats, list) or not all(isinstance(c, str) for c in cats):
            raise ValueError(
                f"model file: schema.features[{f['name']!r}].categories must be a list of labels"
            )
    classes = d.get("classes")
    if task == "classification" and not (
        isinstance(classes, list) and classes and all(isinstance(c, str) for c in classes)
    ):
        raise ValueError(
            "model file: schema.classes must be the list of class labels of a classification model"
        )
    if task == "regression" and classes is not None:
        raise ValueError("model file: schema.classes must be null for a regression model")
    return Schema.from_dict(d)


def _check_tree_fits_schema(tree: Tree, schema: Schema) -> None:
    """The tree's tests name the schema's features with tests of their kind, and its value rows
    have one column per class (one value for regression)."""
    inner = np.nonzero(tree.feature >= 0)[0]
    if inner.size and int(tree.feature[inner].max()) >= len(schema.features):
        raise ValueError("model file is inconsistent: tree.feature tests a feature the schema lacks")
    feats = tree.feature[inner]
    is_cat = np.array([f.is_categorical for f in schema.features], dtype=bool)[feats]
    n_cats = np.array([len(f.categories or ()) for f in schema.features])[feats]
    table = tree.cat_size[inner]  # category-table length of each test
    if np.any((table > 0) != is_cat) or np.any(table > np.maximum(n_cats, 1)):
        raise ValueError(
            "model file is inconsistent: tree.cat_ptr does not match the features' kinds and categories"
        )
    width = len(schema.classes) if schema.classes is not None else 1
    if tree.value.shape[1] != width or tree.n_classes != (width if schema.classes is not None else 0):
        raise ValueError(
            f"model file is inconsistent: tree.value / tree.n_classes do not hold {width} column(s)"
        )


def dumps_model(estimator: BaseTreeEstimator) -> str:
    """The JSON text of a model (UTF-8, labels kept readable, strict JSON: no NaN): what
    ``json.dumps(..., indent=1)`` writes, by ``json_text.dumps_indented`` (faster)."""
    return dumps_indented(model_to_dict(estimator)) + "\n"


def save_model(estimator: BaseTreeEstimator, path: str | Path) -> None:
    """The model's JSON to ``path``, serialised first and written atomically (``write_atomic``)."""
    write_atomic(path, dumps_model(estimator))


def load_model(path: str | Path, estimator_class: type[BaseTreeEstimator] | None = None) -> BaseTreeEstimator:
    with open(path, encoding="utf-8") as f:
        try:
            d = json.load(f)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise ValueError(
                f"{path} is not a dtcore model: not UTF-8 text (models are UTF-8 JSON)"
            ) from None
        except RecursionError:
            raise ValueError(f"{path} is not a dtcore model: nested too deeply") from None
    return model_from_dict(d, estimator_class)
