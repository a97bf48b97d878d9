"""Where an imported tree came from (``ModelOrigin``): the library and model it was read from,
which member of an ensemble, and what its leaf values are. A boosted tree's leaves hold a raw
score (a log-odds or margin contribution), not a probability or a class count: the record says
so, the model file keeps it (its ``origin`` entry, docs/model-json.md), and trees dtcore grew
itself have none."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

#: what ``ModelOrigin.leaf_values`` says for each kind of leaf
CLASS_COUNTS = "class counts"
MEAN_TARGET = "mean target"
RAW_SCORE = "raw score"
#: what ``ModelOrigin.node_weight`` says a node's weight (``Tree.weighted_n``) holds: its weighted
#: rows, or a boosting library's sum of the loss's second derivatives (XGBoost's ``sum_hessian``,
#: LightGBM's ``internal_weight``), which is no count of rows
ROWS = "rows"
HESSIAN = "hessian sum"


@dataclass(frozen=True)
class ModelOrigin:
    """``source``: the library and estimator or file format (``"scikit-learn
    GradientBoostingClassifier"``, ``"XGBoost JSON model"``); ``member``/``n_members``: which tree
    of how many (None for a single tree); ``output``: the class or output a boosted member scores;
    ``leaf_values``: :data:`CLASS_COUNTS`, :data:`MEAN_TARGET` or :data:`RAW_SCORE`; ``note``:
    how the source combines this tree with the others, and what the file did not hold;
    ``statistics_rows``: the node statistics were recomputed from this many labelled rows
    (``dtcore.importers.restate``; None: as the source holds them), ``statistics_note`` which;
    ``node_weight``: :data:`ROWS` or :data:`HESSIAN`; ``impurities``: False when the source keeps
    none (the tree holds 0, which pictures must not print as an impurity)."""

    source: str
    leaf_values: str
    member: int | None = None
    n_members: int | None = None
    output: str | None = None
    note: str = ""
    statistics_rows: int | None = None
    statistics_note: str = ""
    node_weight: str = ROWS
    impurities: bool = True

    @property
    def is_raw_score(self) -> bool:
        return self.leaf_values == RAW_SCORE

    def to_dict(self) -> dict[str, Any]:
        """Every field; the statistics fields only once restated (older files stay as they were)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.statistics_rows is None:
            del d["statistics_rows"], d["statistics_note"]
        if self.node_weight == ROWS:
            del d["node_weight"]
        if self.impurities:
            del d["impurities"]
        return d

    @classmethod
    def from_dict(cls, d: object) -> ModelOrigin:
        """The ``origin`` entry of a model file, checked field by field."""
        if not isinstance(d, dict):
            raise ValueError("model file: origin must be an object")
        for name in ("source", "leaf_values"):
            if not isinstance(d.get(name), str):
                raise ValueError(f"model file: origin.{name} must be text")
        for name in ("member", "n_members", "statistics_rows"):
            v = d.get(name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise ValueError(f"model file: origin.{name} must be a whole number ≥ 0 or null")
        for name in ("output", "note", "statistics_note"):
            v = d.get(name)
            if v is not None and not isinstance(v, str):
                raise ValueError(f"model file: origin.{name} must be text")
        if d.get("node_weight", ROWS) not in (ROWS, HESSIAN):
            raise ValueError(f"model file: origin.node_weight must be {ROWS!r} or {HESSIAN!r}")
        if not isinstance(d.get("impurities", True), bool):
            raise ValueError("model file: origin.impurities must be true or false")
        return cls(
            source=d["source"],
            leaf_values=d["leaf_values"],
            member=d.get("member"),
            n_members=d.get("n_members"),
            output=d.get("output"),
            note=d.get("note") or "",
            statistics_rows=d.get("statistics_rows"),
            statistics_note=d.get("statistics_note") or "",
            node_weight=d.get("node_weight", ROWS),
            impurities=d.get("impurities", True),
        )
