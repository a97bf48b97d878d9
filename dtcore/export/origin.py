"""Where an imported tree came from (``ModelOrigin``): the library and model it was read from,
which member of an ensemble, and what its leaf values are. A boosted tree's leaves hold a raw
score (a log-odds or margin contribution), not a probability or a class count: the record says
so, the model file keeps it (its ``origin`` entry, docs/model-json.md), and trees dtcore grew
itself have none.

The importers write the ``note`` as clauses (:class:`NoteClause`, keys of :data:`NOTE_CLAUSES`):
the note is their English, and a reader in another language words each clause from its key and
fields (the app's catalogue has every key in 中文)."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from dtcore.export.words import complete_words

#: what ``ModelOrigin.leaf_values`` says for each kind of leaf
CLASS_COUNTS = "class counts"
MEAN_TARGET = "mean target"
RAW_SCORE = "raw score"
#: what ``ModelOrigin.node_weight`` says a node's weight (``Tree.weighted_n``) holds: its weighted
#: rows, or a boosting library's sum of the loss's second derivatives (XGBoost's ``sum_hessian``,
#: LightGBM's ``internal_weight``), which is no count of rows
ROWS = "rows"
HESSIAN = "hessian sum"

#: Every clause an importer's note is made of: its key, and its English with ``{fields}`` (the
#: values are the source's own words: an objective, a class label, a number)
NOTE_CLAUSES: dict[str, str] = {
    "forest_probabilities": "the forest averages its members' class probabilities",
    "forest_predictions": "the forest averages its members' predictions",
    # scikit-learn's GradientBoosting: a member's own output, before the learning rate
    "gb_log_odds": "leaves hold this tree's own output (a log-odds contribution towards class {label}, "
    "not a probability)",
    "gb_softmax": "leaves hold this tree's own output (a raw score of class {label} before the softmax, "
    "not a probability)",
    "gb_raw": "leaves hold this tree's own output (a raw score added to the prediction)",
    "gb_learning_rate": "the ensemble adds learning_rate ({rate}) times it to its initial estimate",
    # scikit-learn's HistGradientBoosting: the learning rate already in the leaves
    "hgb_log_odds": "leaves hold a log-odds contribution towards class {label}, not a probability, "
    "learning rate included",
    "hgb_softmax": "leaves hold a raw score of class {label} before the softmax, not a probability, "
    "learning rate included",
    "hgb_raw": "leaves hold a raw score added to the prediction, learning rate included",
    "hgb_baseline": "the model adds every tree's leaf to its baseline",
    "hgb_statistics": "node impurities are not kept (0), weights are row counts",
    "xgb_leaves": "objective {objective}: leaves hold a margin contribution (learning rate included), "
    "not a probability",
    "xgb_sum": "the model adds every tree's leaf to base_score {base} (in margin space)",
    "xgb_dart": "dart scales each tree by its weight_drop",
    "xgb_statistics": "weights are hessian sums, row counts and impurities are not in the file (0)",
    "lgb_leaves": "objective {objective}: leaves hold a raw score (shrinkage included), not a probability",
    "lgb_adds": "the model adds every tree's leaf",
    "lgb_averages": "the model averages every tree's leaf",
    "lgb_statistics": "node impurities are not in the file (0)",
    "pmml_missing": "missingValueStrategy {strategy}",
    "pmml_gini": "PMML keeps no impurities: the Gini impurity of each node's counts",
    "pmml_no_impurity": "PMML keeps no impurities: 0 in every node",
}


def clause_fields(key: str) -> tuple[str, ...]:
    """The ``{fields}`` of clause ``key``, in order."""
    return tuple(f for _, f, _, _ in string.Formatter().parse(NOTE_CLAUSES[key]) if f)


@dataclass(frozen=True)
class NoteClause:
    """One clause of an importer's note: a key of :data:`NOTE_CLAUSES` and its fields' values."""

    key: str
    values: tuple[tuple[str, str], ...] = ()

    def text(self, words: Mapping[str, str] | None = None) -> str:
        """The clause in English, or in ``words`` (as :func:`origin_words` takes them)."""
        return origin_words(words)[self.key].format(**dict(self.values))

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, **dict(self.values)}

    @classmethod
    def from_dict(cls, d: object) -> NoteClause:
        """A clause of a model file's ``origin.clauses``, checked against :data:`NOTE_CLAUSES`."""
        if not isinstance(d, dict) or not isinstance(d.get("key"), str) or d["key"] not in NOTE_CLAUSES:
            raise ValueError("model file: each of origin.clauses must be an object with a known key")
        names = clause_fields(d["key"])
        if set(d) - {"key"} != set(names) or not all(isinstance(d[n], str) for n in names):
            raise ValueError(
                f"model file: origin clause {d['key']!r} must give {', '.join(names) or 'no fields'} as text"
            )
        return cls(d["key"], tuple((n, d[n]) for n in names))


def clause(key: str, **values: object) -> NoteClause:
    """The clause ``key`` with its fields (each written with ``str``); a missing or unknown field
    is refused."""
    if set(values) != set(clause_fields(key)):
        raise ValueError(f"note clause {key!r} takes {clause_fields(key)}, not {tuple(values)}")
    return NoteClause(key, tuple((n, str(values[n])) for n in clause_fields(key)))


#: How an origin is said besides its note's clauses, English; :meth:`ModelOrigin.title`,
#: :meth:`ModelOrigin.note_text` and :meth:`ModelOrigin.sentences` take ``words=`` for another
#: language (these keys and every key of :data:`NOTE_CLAUSES`)
ORIGIN_WORDS = {
    "member": "tree {member} of {n}",
    "raw_score": "Its leaves hold a raw score (a log-odds or margin contribution), not a probability.",
    "output": "It scores class {output}.",
    "note": "Source: {note}.",
    "join": "; ",  # between the note's clauses
}


def origin_words(words: Mapping[str, str] | None) -> dict[str, str]:
    """ORIGIN_WORDS and NOTE_CLAUSES, or the caller's words for every one of their keys."""
    return complete_words({**ORIGIN_WORDS, **NOTE_CLAUSES}, words)


@dataclass(frozen=True)
class ModelOrigin:
    """``source``: the library and estimator or file format (``"scikit-learn
    GradientBoostingClassifier"``, ``"XGBoost JSON model"``); ``member``/``n_members``: which tree
    of how many (None for a single tree); ``output``: the class or output a boosted member scores;
    ``leaf_values``: :data:`CLASS_COUNTS`, :data:`MEAN_TARGET` or :data:`RAW_SCORE`; ``note``:
    how the source combines this tree with the others, and what the file did not hold, in
    English (from ``clauses`` when given: ``note`` is then their text);
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
    clauses: tuple[NoteClause, ...] = ()

    def __post_init__(self) -> None:
        if self.clauses and not self.note:  # frozen: the note is set once, from its clauses
            object.__setattr__(self, "note", self.note_text())

    @property
    def is_raw_score(self) -> bool:
        return self.leaf_values == RAW_SCORE

    def title(self, words: Mapping[str, str] | None = None) -> str:
        """``XGBoost JSON model, tree 4 of 6``: the source, and which member of an ensemble."""
        if self.member is None or self.n_members is None:
            return self.source
        return f"{self.source}, " + origin_words(words)["member"].format(member=self.member, n=self.n_members)

    def note_text(self, words: Mapping[str, str] | None = None) -> str:
        """The note, its clauses in English or in ``words``; a file written before notes had
        clauses gives its English note."""
        if not self.clauses:
            return self.note
        w = origin_words(words)
        return w["join"].join(c.text(w) for c in self.clauses)

    def sentences(self, words: Mapping[str, str] | None = None) -> list[str]:
        """What a picture of the tree outside the app says of it: what its leaves hold (a raw
        score is no probability), the class it scores, and the note."""
        w = origin_words(words)
        out = []
        if self.is_raw_score:
            out.append(w["raw_score"])
        if self.output is not None:
            out.append(w["output"].format(output=self.output))
        if self.note:
            out.append(w["note"].format(note=self.note_text(w)))
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every field; the statistics fields only once restated (older files stay as they were)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["clauses"] = [c.to_dict() for c in self.clauses]
        if not self.clauses:
            del d["clauses"]
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
            clauses=_clauses_from(d.get("clauses", [])),
        )


def _clauses_from(items: object) -> tuple[NoteClause, ...]:
    if not isinstance(items, list):
        raise ValueError("model file: origin.clauses must be a list")
    return tuple(NoteClause.from_dict(c) for c in items)
