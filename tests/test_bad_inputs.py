"""The bad-input corpus (tests/data/bad/, README there) through the command line and the app's
upload path: every file ends in a model (with a warning where something is off) or in one line
saying what is wrong — never a traceback, never a hang. Large files are built here at run time.

The committed files and the crafted models go through the CLI in this process
(``tests.cli_runner.run_cli``); the generated large files, built to expand in memory, go through a
real ``python -m dtcore`` process under an address-space cap, so that a runaway fails instead of
swapping. Time bounds are hang guards (``HANG_GUARD_SECONDS``, many times the slowest case), never
a test of speed: what keeps a case small is its size limit."""

import io
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from dtcore.schema import DataError
from tests.cli_runner import CliRun, hang_guard, run_cli
from tests.ui.test_upload_limits import parquet_one_big_value, sparse_arff, xlsx_a1_xfd1
from ui import i18n
from ui.services import roles as R
from ui.services.loading import LoadError, read_bytes
from ui.services.training import Split, TrainingError, train

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "data" / "bad"
#: a run still going after this long hangs: the slowest case (100,000 categories) takes a few seconds
HANG_GUARD_SECONDS = 300
MEMORY = 2 * 1024**3  # address-space cap of each CLI run: a runaway file fails, it does not swap

#: file → (target, what the CLI does, what the app does). "ok": trains, no warning needed;
#: "warn:<text>": trains and says <text> on stderr / in a role warning; "error:<text>": exit 2 /
#: a one-line LoadError or TrainingError containing <text>.
CASES = {
    "empty.csv": ("y", "error:is empty", "error:empty"),
    "blank_lines.csv": ("y", "error:is empty", "error:empty"),
    "header_only.csv": ("y", "error:no data rows", "error:no data rows"),
    "one_column.csv": ("y", "error:only the target column", "error:single column"),
    "one_class.csv": ("y", "error:nothing to learn", "error:only 1 distinct"),
    "target_all_missing.csv": ("y", "error:target 'y' is missing", "error:only 0 distinct"),
    "inf.csv": ("y", "error:infinite", "error:infinite"),
    "duplicate_headers.csv": ("y", "error:duplicate column", "error:duplicate column"),
    "unnamed_column.csv": ("y", "error:no name", "error:no name"),
    "ragged.csv": ("y", "error:line 3 has 3 fields", "error:line 3 has 3 fields"),
    "bom.csv": ("好瓜", "ok", "ok"),
    "utf16.csv": ("好瓜", "ok", "ok"),
    "gbk.csv": ("好瓜", "ok", "ok"),
    "semicolon.csv": ("y", "ok", "ok"),
    "tabs.csv": ("y", "ok", "ok"),
    "tabs.tsv": ("y", "ok", "ok"),
    "names_and_values_syntax.csv": ("y", "ok", "ok"),
    "payload_names.csv": ("**md**", "ok", "ok"),
    "decimal_comma.csv": ("grade", "warn:decimal commas", "warn:decimal_comma"),
    "all_missing_feature.csv": ("y", "warn:missing in every row", "warn:all_missing"),
    "tiny_dates.csv": ("y", "ok", "ok"),
    "tiny_names.csv": ("y", "ok", "ok"),
    "tiny_newline_cell.csv": ("y", "ok", "ok"),
    "unterminated_quote.csv": ("y", "error:line 3: a quoted field", "error:line 3: a quoted field"),
    "crlf_and_cr.csv": ("y", "ok", "ok"),
    "binary_junk.csv": ("y", "error:binary file, not CSV", "error:binary file, not CSV"),
    "png_renamed.csv": ("y", "error:binary file, not CSV", "error:binary file, not CSV"),
    "xlsx_renamed.csv": ("y", "error:rename it .xlsx", "error:rename it .xlsx"),
    "not_gbk_nor_utf8.csv": ("y", "error:neither UTF-8 nor GBK", "error:neither UTF-8 nor GBK"),
    # the CLI reads anything but .arff as delimited text; the app goes by the suffix
    "csv_renamed.xlsx": ("y", "ok", "error:not a readable Excel"),
    "csv_renamed.xls": ("y", "ok", "error:old Excel"),
    "csv_renamed.json": ("y", "ok", "error:not supported"),
    "no_suffix": ("y", "ok", "error:not supported"),
    "bad.arff": ("y", "error:not among the declared values", "error:not among the declared values"),
    "arff_no_data.arff": ("y", "error:no data rows", "error:no data rows"),
}

#: built at run time (too big to commit): name → (bytes, target, CLI outcome or None = app only, app)
GENERATED = {
    "wide_5000_columns.csv": (
        lambda: (
            ",".join(f"c{i}" for i in range(5000))
            + ",y\n"
            + "".join(
                ",".join(str((r * i) % 7) for i in range(5000)) + f",{'ab'[r % 2]}\n" for r in range(20)
            )
        ).encode(),
        "y",
        "error:5001 columns is over the limit of 1000 (set DTREE_MAX_COLUMNS",
        "error:more than 1,000 columns",
    ),
    "categories_1e5.csv": (
        lambda: (
            "c,x,y\n" + "".join(f"cat{i % 100_000},{i % 13},{'ab'[i % 3 % 2]}\n" for i in range(101_000))
        ).encode(),
        "y",
        "ok",
        "warn:many_categories",
    ),
    "expanding.parquet": (parquet_one_big_value, "y", None, "error:too large"),
    "expanding.xlsx": (xlsx_a1_xfd1, "y", None, "error:too large"),
    "expanding.arff": (sparse_arff, "a1", "error:columns is over the limit of 1000", "error:too large"),
}


def data_files():
    return sorted(p.name for p in BAD.iterdir() if p.is_file() and p.name != "README.md")


def test_every_committed_file_has_a_case_and_the_folder_stays_small():
    assert sorted(CASES) == data_files()
    size = sum(p.stat().st_size for p in BAD.rglob("*") if p.is_file())
    assert size < 2 * 1024**2
    readme = (BAD / "README.md").read_text(encoding="utf-8")
    for name in [*CASES, *GENERATED, *(p.name for p in (BAD / "models").glob("*.json"))]:
        assert f"`{name}`" in readme, f"{name} is not listed in tests/data/bad/README.md"


def _cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def cli(*args, cwd=None) -> CliRun:
    """The CLI in this process, for the small committed files."""
    return run_cli(*args, cwd=cwd or ROOT, hang_seconds=HANG_GUARD_SECONDS)


def capped_cli(*args) -> subprocess.CompletedProcess:
    """The CLI in a real process with its address space capped, for files built to expand."""
    return subprocess.run(
        [sys.executable, "-m", "dtcore", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
        cwd=ROOT,
        preexec_fn=_cap_memory,
    )


def assert_cli(run: CliRun | subprocess.CompletedProcess, expect: str):
    assert "Traceback" not in run.stderr, run.stderr
    if expect.startswith("error:"):
        assert run.returncode == 2, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dtcore: error: "), run.stderr
        assert expect[len("error:") :] in lines[0], run.stderr
    else:
        assert run.returncode == 0, run.stderr
        if expect.startswith("warn:"):
            assert expect[len("warn:") :] in run.stderr, run.stderr


def app_outcome(data: bytes, name: str, target: str) -> tuple[str, str]:
    """("error", the one-line message) or ("ok", the role-warning codes, space-separated);
    a run past the hang guard fails the test (``Hung``)."""
    with hang_guard(HANG_GUARD_SECONDS):
        return _app_outcome(data, name, target)


def _app_outcome(data: bytes, name: str, target: str) -> tuple[str, str]:
    try:
        loaded = read_bytes(data, name)
    except LoadError as exc:
        return "error", i18n.translate(exc.key, "en", **exc.params)
    df = loaded.df
    roles = R.infer_roles(df, target)
    task = R.infer_task(df, target)
    codes = " ".join(sorted({w.code for w in R.warnings(df, roles)}))
    try:
        train(df, roles, task, "cart", "gini" if task == R.CLASSIFICATION else "squared_error", {}, Split())
    except TrainingError as exc:
        return "error", i18n.translate(exc.key, "en", **exc.params)
    return "ok", codes


def assert_app(outcome: tuple[str, str], expect: str):
    kind, text = outcome
    if expect.startswith("error:"):
        assert kind == "error", text
        assert "\n" not in text and "Traceback" not in text, text
        assert expect[len("error:") :] in text, text
    else:
        assert kind == "ok", text
        if expect.startswith("warn:"):
            assert expect[len("warn:") :] in text.split(), text


@pytest.mark.parametrize("name", sorted(CASES))
def test_cli_trains_with_a_warning_or_refuses_in_one_line(name, tmp_path):
    target, expect, _ = CASES[name]
    assert_cli(cli("train", BAD / name, "--target", target, "--out", tmp_path / "m.json"), expect)


@pytest.mark.parametrize("name", sorted(CASES))
def test_app_upload_loads_with_warnings_or_says_one_line(name):
    target, _, expect = CASES[name]
    assert_app(app_outcome((BAD / name).read_bytes(), name, target), expect)


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_large_files(name, tmp_path):
    build, target, cli_expect, app_expect = GENERATED[name]
    data = build()
    assert_app(app_outcome(data, name, target), app_expect)
    if cli_expect is not None:
        path = tmp_path / name
        path.write_bytes(data)
        assert_cli(capped_cli("train", path, "--target", target, "--out", tmp_path / "m.json"), cli_expect)


@pytest.mark.parametrize("name", sorted(p.name for p in (BAD / "models").glob("*.json")))
def test_crafted_model_is_refused_in_one_line(name, tmp_path):
    model = BAD / "models" / name
    for args in (("show", model), ("predict", model, BAD / "models" / "data.csv")):
        run = cli(*args)
        assert_cli(run, "error:")
        assert json.dumps(str(model)) not in run.stdout


def two_rows_per_label(n_labels: int) -> bytes:
    """A categorical column (not an ID) with ``n_labels`` labels, each on two rows whose class
    the label decides: C4.5 and ID3 split it into ``n_labels`` branches."""
    return (
        "c,y\n"
        + "".join(f"lab{i % n_labels},{'ab'[i % n_labels * 7 % 3 % 2]}\n" for i in range(2 * n_labels))
    ).encode()


def test_routing_rows_into_many_branches_is_not_quadratic():
    """distribute_rows once scanned every row for every branch (O(V·n): C4.5 ran 865 s on 10⁵
    labels); grouped by one sort it is O(n log n). Same rows and weights either way."""
    from dtcore.routing import distribute_rows

    n_branches = 30_000
    branch = np.tile(np.arange(n_branches), 2)
    w = np.ones(branch.size)
    start = time.process_time()
    parts, bw = distribute_rows(branch, w, n_branches)
    assert time.process_time() - start < 3.0  # was about 20 s of CPU
    assert bw.tolist() == [2.0] * n_branches
    assert [p.tolist() for p, _ in parts[:2]] == [[0, n_branches], [1, n_branches + 1]]
    branch[[0, 5]] = -1  # unknown rows go to every branch, in row order, with K_v/K shares
    parts, bw = distribute_rows(branch, w, n_branches)
    assert parts[0][0].tolist() == [0, 5, n_branches] and parts[0][1][0] == pytest.approx(
        1 / (2 * n_branches - 2)
    )
    assert parts[5][0].tolist() == [0, 5, n_branches + 5]


@pytest.mark.parametrize("algorithm", ["c45", "id3"])
def test_100000_labels_on_two_rows_each_train_within_a_minute(algorithm, tmp_path):
    """The issue's file: 10⁵ labels × 2 rows. C4.5 ran 865 s, ID3 366 s (quadratic routing)."""
    path = tmp_path / "labels_1e5_twice.csv"
    path.write_bytes(two_rows_per_label(100_000))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = capped_cli("train", path, "--target", "y", "--algorithm", algorithm, "--out", tmp_path / "m.json")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert_cli(run, "ok")
    assert after.ru_utime - before.ru_utime < 120  # CPU seconds; a hang guard, not a benchmark


# ---------------------------------------------------------------------------------------------
# long names: a 5 MB column name once made every `dtcore train` exit 1 with a traceback (csv's
# field limit, hit while sniffing the delimiter); in ARFF it trained a 5 MB name into the model

LONG = "n" * 5_000_000
ROWS_3 = "".join(f"{i},{i % 3},{'ab'[i % 2]}\n" for i in range(20))
ARFF_HEAD = "@relation r\n@attribute {} numeric\n@attribute x numeric\n@attribute y {{a,b{}}}\n@data\n"

#: built at run time (5 MB each): name → bytes
LONG_NAMES = {
    "name_5mb.csv": lambda: (LONG + ",x,y\n" + ROWS_3).encode(),
    "name_2000.tsv": lambda: ("n" * 2_000 + "\tx\ty\n" + ROWS_3.replace(",", "\t")).encode(),
    "name_5mb.arff": lambda: (ARFF_HEAD.format(LONG, "") + ROWS_3).encode(),
    "quoted_name_5mb.arff": lambda: (ARFF_HEAD.format(f"'{LONG}'", "") + ROWS_3).encode(),
    "label_5mb.arff": lambda: (ARFF_HEAD.format("z", f",'{LONG}'") + ROWS_3).encode(),
}


@pytest.mark.parametrize("name", sorted(LONG_NAMES))
def test_a_long_column_name_or_label_is_refused_in_one_line(name, tmp_path):
    data = LONG_NAMES[name]()
    path = tmp_path / name
    path.write_bytes(data)
    out = tmp_path / "m.json"
    run = cli("train", path, "--target", "y", "--out", out)
    assert_cli(run, "error:name_chars is over the limit of 1000 (set DTREE_MAX_NAME_CHARS")
    assert not out.exists()
    kind, text = app_outcome(data, name, "y")
    assert kind == "error" and "\n" not in text, text
    assert "more than 1,000 characters" in text and "DTREE_MAX_NAME_CHARS" in text, text


def test_a_long_name_within_a_raised_limit_or_without_limits_trains(tmp_path):
    path = tmp_path / "name_2000.tsv"
    path.write_bytes(LONG_NAMES["name_2000.tsv"]())
    for extra, env in (((), {"DTREE_MAX_NAME_CHARS": "2000"}), (("--no-limits",), {})):
        args = ("train", path, "--target", "y", "--out", tmp_path / "m.json", *extra)
        clean = {k: v for k, v in os.environ.items() if not k.startswith("DTREE_MAX_")}
        assert_cli(run_cli(*args, env={**clean, **env}), "ok")


def test_the_app_checks_parquet_column_names_too():
    import pyarrow as pa
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(pa.table({"n" * 2_000: [1, 2, 3], "y": ["a", "b", "a"]}), buf)
    kind, text = app_outcome(buf.getvalue(), "long.parquet", "y")
    assert kind == "error" and "DTREE_MAX_NAME_CHARS" in text, text


def test_a_sparse_arff_of_empty_rows_at_the_cell_limit_is_refused_at_once(tmp_path):
    """1 000 attributes × 20 000 rows ``{}`` (84 KB) sit exactly at the column and cell limits:
    every row was built and every column profiled (15 s of CPU) before "no feature columns are
    left". The empty sparse rows are counted, not built."""
    data = sparse_arff(n_attributes=1_000, n_rows=20_000)
    assert len(data) < 90_000
    path = tmp_path / "empty_rows.arff"
    path.write_bytes(data)
    start = time.process_time()
    run = cli("train", path, "--target", "a999", "--out", tmp_path / "m.json")
    assert time.process_time() - start < 2.0  # was about 15 s of CPU
    assert_cli(run, "error:every data row is an empty sparse row {}")
    start = time.process_time()
    kind, text = app_outcome(data, "empty_rows.arff", "a999")
    assert time.process_time() - start < 2.0
    assert kind == "error" and "\n" not in text and "every data row is an empty sparse row" in text, text


def test_sparse_rows_keep_their_defaults_and_refuse_an_index_out_of_range():
    from dtcore.data import arff

    head = "@relation r\n@attribute a numeric\n@attribute b {u,v}\n@attribute c string\n@data\n"
    rows = arff.read_arff(head + "{1 v}\n1,u,x\n{}\n{2 'w z', 0 ?}\n").rows.tolist()
    assert rows == [[0.0, "v", None], [1.0, "u", "x"], [0.0, "u", None], [None, "u", "w z"]]
    for entry in ("-1 v", "3 v", "x v"):  # "-1" once set the last attribute
        with pytest.raises(DataError, match="bad sparse entry"):
            arff.read_arff(head + f"{{{entry}}}\n")
