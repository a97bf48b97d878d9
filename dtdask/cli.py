"""``dtcore train DATA… --engine dask [--scheduler ADDR]``: the flags of dtcore's ``train``,
the fit on Dask (``fit_dask``), the output written as the in-memory engine writes it."""

from __future__ import annotations

import argparse
import sys

from dtcore.cli.train import dot_options, params_from_args
from dtcore.export import tree_summary, write_tree_file
from dtcore.export.files import refuse_input_as_output
from dtcore.schema import DataError
from dtdask.cluster import connect
from dtdask.fit import fit_dask, read_frame


def cmd_train(args: argparse.Namespace) -> int:
    sources = [args.data, *getattr(args, "more_data", [])]
    refuse_input_as_output(args.out, sources)
    if args.weight:
        raise DataError("--engine dask trains with unit weights: --weight is not supported there")
    if args.algorithm != "cart":
        raise DataError(f"--engine dask grows CART trees (histograms); not {args.algorithm}")
    params = params_from_args(args)
    source = sources[0] if len(sources) == 1 else sources
    ddf = read_frame(source)
    drop = set(args.ignore) | {args.target}
    features = [c for c in ddf.columns if c not in drop]

    def progress(depth: int) -> None:
        print(f"level {depth} done", file=sys.stderr, flush=True)

    with connect(args.scheduler) as client:
        est = fit_dask(
            ddf,
            args.target,
            task=args.task,
            features=features,
            categorical=args.categorical,
            continuous=args.continuous,
            client=client,
            on_level=progress,
            **params,
        )
    write_tree_file(est, args.out, **dot_options(args))
    s = tree_summary(est.tree_)
    print(
        f"trained cart on dask ({est._task}): {s['n_nodes']} nodes, {s['n_leaves']} leaves, "
        f"depth {s['depth']} → {args.out}",
        file=sys.stderr,
    )
    return 0
