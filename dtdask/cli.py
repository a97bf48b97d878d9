"""``dtcore train DATA… --engine dask [--scheduler ADDR]``: the engine dtcore's CLI loads from the
``dtcore.engines`` entry point and hands a ``TrainRun`` (the flags); roles and task by dtcore's
rules (``dtcore.data.roles``) on profiles gathered from the partitions (``dtdask.profiles``), the
fit on Dask (``fit_dask``), the output written as the in-memory engine writes it."""

from __future__ import annotations

import sys

from dtcore.cli.engines import TrainRun
from dtcore.data import roles as R
from dtcore.export import tree_summary, write_tree_file
from dtcore.export.files import refuse_input_as_output
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, check_columns
from dtdask.cluster import connect
from dtdask.fit import fit_dask, read_frame
from dtdask.profiles import profile_frame


def plan_roles(run: TrainRun, profiles: dict[str, R.ColumnProfile]) -> tuple[dict[str, str], str]:
    """(every column's role, the task) from the profiles and the flags, as ``dtcore train``
    plans them in memory: ``--ignore`` drops columns, ``--categorical``/``--continuous`` set a
    kind, ``--keep`` uses an identifier-like or constant column; a note on stderr for each
    column the rules left out."""
    names = list(profiles)
    flags = {"--target": [run.target], "--ignore": run.ignore, "--keep": run.keep}
    flags.update({"--categorical": run.categorical, "--continuous": run.continuous})
    for flag, cols in flags.items():
        check_columns(names, cols, flag)
    explicit = {n: CATEGORICAL for n in run.categorical if n not in run.ignore}
    explicit.update({n: CONTINUOUS for n in run.continuous if n not in run.ignore})
    roles = R.infer_roles(profiles, run.target, run.ignore, keep=set(run.keep) | set(explicit))
    roles.update(explicit)
    for issue in R.ignored_issues(profiles, roles, run.ignore):
        why = {"identifier": "looks like an identifier (a different value in every row)"}
        reason = why.get(issue.code, "holds no value" if issue.code == "all_missing" else "is constant")
        print(
            f"column {issue.column!r} {reason}, so it is ignored (--keep {issue.column} uses it anyway)",
            file=sys.stderr,
        )
    if not R.features_of(roles):
        raise DataError("no feature columns are left: ignore fewer columns (or --keep the ones ignored)")
    return roles, run.task or R.infer_task(profiles[run.target])


def check_value_limits(run: TrainRun, profiles: dict[str, R.ColumnProfile]) -> None:
    """The limits on one value (``name_chars`` for a column name, ``cell_chars`` for a label) on
    the Dask path, before any partition is encoded: a short file can hold a huge label many
    times over (a dictionary-encoded Parquet column). The limits on rows, cells and bytes are the
    in-memory engine's (the table in one process); Dask exists to go past them."""
    source = run.sources[0] if len(run.sources) == 1 else f"{len(run.sources)} files"
    for name, profile in profiles.items():
        run.limits.check("name_chars", len(name), source)
        run.limits.check("cell_chars", profile.longest_label, f"{source}, column {name!r}")


def cmd_train(run: TrainRun) -> int:
    """Train on Dask as ``run`` says; the exit code (errors raise ``DataError``)."""
    refuse_input_as_output(run.out, list(run.sources))
    if run.weight:
        raise DataError("--engine dask trains with unit weights: --weight is not supported there")
    if run.algorithm != "cart":
        raise DataError(f"--engine dask grows CART trees (histograms); not {run.algorithm}")
    ddf = read_frame(run.sources[0] if len(run.sources) == 1 else list(run.sources))

    def progress(depth: int) -> None:
        print(f"level {depth} done", file=sys.stderr, flush=True)

    with connect(run.scheduler) as client:
        profiles = profile_frame(ddf, [str(c) for c in ddf.columns], client)
        check_value_limits(run, profiles)
        roles, task = plan_roles(run, profiles)
        features = R.features_of(roles)
        est = fit_dask(
            ddf,
            run.target,
            task=task,
            features=features,
            categorical=[f for f in features if roles[f] == CATEGORICAL],
            continuous=[f for f in features if roles[f] == CONTINUOUS],
            client=client,
            on_level=progress,
            **run.params,
        )
    write_tree_file(est, run.out, **run.picture)
    s = tree_summary(est.tree_)
    print(
        f"trained cart on dask ({task}): {s['n_nodes']} nodes, {s['n_leaves']} leaves, "
        f"depth {s['depth']} → {run.out}",
        file=sys.stderr,
    )
    return 0
