"""The large-data source as a user drives it (AppTest) on a real Dask ``LocalCluster``: Parquet
files under ``DTREE_LARGE_DATA_DIR`` open as a sample, the Train page fits CART on Dask on every
row (the same tree as dtcore's in-memory ``splitter="hist"`` on all rows), paths outside the
folder are refused with the previous data kept, and the pages that need rows in memory say that
they work on the sample."""

import os
import sys
import threading

import numpy as np
import pandas as pd
import pytest

from dtcore.cart.estimator import CARTClassifier
from dtdask import connect
from tests.app.apptest import start
from tests.app.frame_pictures import tree_frames
from ui.services import large_data as L
from ui.services.loading import LoadError

DATA = "pages/data.py"
TRAIN = "pages/train.py"
FEATURES = ["x0", "x1", "x2", "x3", "colour"]


def table(n=4000, seed=3):
    """≤ 255 distinct values per continuous feature (exact bins), NaN cells, a categorical column."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{i}": np.round(rng.random(n) * (20 + 30 * i)) / 4 for i in range(4)})
    df.loc[rng.random(n) < 0.05, "x1"] = np.nan
    df["colour"] = rng.choice(["red", "green", "blue", "amber"], n)
    signal = df.x0 + 0.3 * df.x1.fillna(4) + 3 * (df.colour == "red") + rng.normal(size=n)
    df["label"] = np.where(signal > signal.median(), "high", "low")
    return df


@pytest.fixture(scope="module")
def cluster():
    # threads (no process start-up) with TCP, so that a CLI subprocess can reach the scheduler
    with connect(processes=False, protocol="tcp") as c:
        yield c


@pytest.fixture(scope="module")
def root(tmp_path_factory, cluster):
    """A data folder with 4 Parquet files, a broken one, and a symlink out of it; the app pointed
    at it and at the module's cluster."""
    base = tmp_path_factory.mktemp("large")
    d = base / "data"
    (d / "parts").mkdir(parents=True)
    df = table()
    for i, idx in enumerate(np.array_split(np.arange(len(df)), 4)):
        df.iloc[idx].to_parquet(d / "parts" / f"part-{i}.parquet")
    (d / "broken").mkdir()
    (d / "broken" / "bad.parquet").write_bytes(b"not parquet at all")
    (base / "secret").mkdir()
    df.head(10).to_parquet(base / "secret" / "s.parquet")
    (d / "escape").symlink_to(base / "secret")
    (d / "mixed").mkdir()  # two files with different columns
    df.head(50).to_parquet(d / "mixed" / "a.parquet")
    df.head(50).rename(columns={"x0": "z0"}).to_parquet(d / "mixed" / "b.parquet")
    old = {k: os.environ.get(k) for k in (L.ROOT_ENV, L.SCHEDULER_ENV)}
    os.environ[L.ROOT_ENV] = str(d)
    os.environ[L.SCHEDULER_ENV] = cluster.scheduler.address
    yield d, df
    from ui.state import large_data as S

    S._client_box(cluster.scheduler.address, 2)[0].close()  # the app's cached client, before the cluster goes
    S._client_box.clear()
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def open_pattern(at, pattern):
    at.text_input(key="large_pattern").input(pattern)
    [b for b in at.button if b.label == "Open"][0].click().run()
    no_exception(at)
    return at


def test_paths_resolve_inside_the_folder_only(root):
    d, _ = root
    assert [p.name for p in L.resolve_files("parts", d)] == [f"part-{i}.parquet" for i in range(4)]
    everything = L.resolve_files("**/*.parquet", d)  # the symlink's file is skipped, never read
    assert len(everything) == 7 and all(p.is_relative_to(d) for p in everything)
    for outside in ("../secret/*.parquet", "/etc/passwd", "escape/*.parquet", "escape", "parts/../../secret"):
        with pytest.raises(LoadError) as exc:
            L.resolve_files(outside, d)
        assert exc.value.key == "large.err.outside", outside
    with pytest.raises(LoadError, match="no_files"):
        L.resolve_files("nothing-*.parquet", d)
    with pytest.raises(LoadError, match="empty"):
        L.resolve_files("  ", d)
    with pytest.raises(LoadError, match="unreadable"):
        L.open_source("broken/*.parquet", d)
    src, loaded = L.open_source("parts/*.parquet", d, sample_rows=200)
    assert (src.rows, src.n_files, src.sample_rows, len(loaded.df)) == (4000, 4, 200, 200)
    assert L.configured_root({}) is None and L.configured_root({L.ROOT_ENV: str(d / "nope")}) is None


def test_open_a_glob_train_on_dask_and_get_the_in_memory_hist_tree(root):
    d, df = root
    at = open_pattern(start(DATA), "parts/*.parquet")
    assert at.session_state["data"].source == "large"
    notes = " ".join(i.value for i in at.info)
    assert "4,000" in notes and "4 file(s)" in notes and "sample" in notes
    assert len(at.session_state["data"].df) == min(L.SAMPLE_ROWS, len(df))
    at.switch_page(TRAIN).run()
    no_exception(at)
    res = at.session_state["result"]
    est = res.estimator
    assert est.get_params()["splitter"] == "hist" and est.get_params()["max_depth"] == L.DEFAULT_DEPTH
    # by the browser, or by the server in the pan/zoom frame past the browser's node budget
    assert at.get("graphviz_chart") or tree_frames(at), "the tree is drawn"
    assert any("Dask on all 4,000 rows in 4 file(s)" in c.value for c in at.caption)
    mem = CARTClassifier(splitter="hist", max_depth=L.DEFAULT_DEPTH).fit(
        df[FEATURES].astype(object).where(df[FEATURES].notna(), None), df["label"], target_name="label"
    )
    assert est.tree_.node_count > 20
    for name in (
        "feature",
        "parent",
        "children",
        "cuts",
        "cat_branch",
        "missing_branch",
        "n_samples",
        "value",
    ):
        np.testing.assert_array_equal(getattr(est.tree_, name), getattr(mem.tree_, name), err_msg=name)
    # the pages that need rows in memory work on the sample and say so; Compare is not offered
    for page, words in (
        ("pages/growth.py", "come from the **sample**"),
        ("pages/splits.py", "scored on the **sample**"),
        ("pages/prune.py", "pruning works on the **sample**"),
        ("pages/compare.py", "Not available for large data"),
    ):
        at.switch_page(page).run()
        no_exception(at)
        assert any(words in i.value for i in at.info), page
    # Compare draws nothing but its notice: no tree, no chart
    assert not at.get("plotly_chart") and not at.get("bidi_component")
    assert not [m for m in at.markdown if m.value.startswith("<svg")]
    # another algorithm: told that Dask grows CART only
    at.switch_page(TRAIN).run()
    at.selectbox(key="algo").select("c45").run()
    no_exception(at)
    assert any("CART" in e.value and "Dask" in e.value for e in at.error)


@pytest.mark.parametrize(
    "pattern, words",
    [
        ("../secret/*.parquet", "outside the server's data folder"),
        ("escape/s.parquet", "outside the server's data folder"),
        ("/etc/*", "outside the server's data folder"),
        ("parts/*.csv", "no Parquet file"),
        ("broken", "not a readable Parquet file"),
        ("mixed/*.parquet", "all files must have the same columns"),
    ],
)
def test_refusals_keep_the_previous_data(root, pattern, words):
    at = open_pattern(start(DATA), pattern)
    assert at.session_state["data"].source == "sample"
    assert any(words in e.value and "previous data are kept" in e.value for e in at.error), [
        e.value for e in at.error
    ]


def test_the_source_is_not_offered_without_a_folder(monkeypatch):
    monkeypatch.delenv(L.ROOT_ENV, raising=False)
    at = start(DATA)
    no_exception(at)
    assert not [w for w in at.text_input if w.key == "large_pattern"]


def test_a_link_reopens_the_same_files_with_its_settings(root):
    at = start(TRAIN, large="parts", algo="cart", cart_splitter="hist", cart_max_depth="3")
    no_exception(at)
    assert at.session_state["data"].source == "large"
    est = at.session_state["result"].estimator
    assert est.get_depth() == 3 and est.get_params()["splitter"] == "hist"
    assert at.query_params["large"] == "parts"
    # a link to files outside the folder: a warning (once, as for other link values), the sample data
    at = start(large="../secret/s.parquet")
    no_exception(at)
    assert at.session_state["data"].source == "sample"
    assert any("cannot be opened here" in w.value for w in at.warning)


def test_worker_processes_do_not_run_the_app_script_again():
    """multiprocessing's spawn runs the parent's ``__main__`` again in each child; under Streamlit
    that is app.py, so the local cluster's workers start with ``__main__`` hidden."""
    from multiprocessing import spawn

    main = sys.modules["__main__"]
    outside = spawn.get_preparation_data("w")
    assert "init_main_from_path" in outside or "init_main_from_name" in outside  # pytest's own main
    with L._script_main_hidden():
        inside = spawn.get_preparation_data("w")
        assert "init_main_from_path" not in inside and "init_main_from_name" not in inside
    assert sys.modules["__main__"] is main


@pytest.mark.parametrize("page", [TRAIN, DATA])
def test_a_server_offering_large_data_starts_its_dask_client_once_in_the_background(root, cluster, page):
    """The first page drawn (the Train page a visit opens on, the Data page's box) starts the
    client in a thread; the fit takes that client; later runs start no other."""
    from ui.state import large_data as S

    key = (L.scheduler_address(), L.worker_count())
    S._client_box(*key)[0].close()  # a client made by an earlier test: the warm-up makes a new one
    S._client_box.clear()
    S._warm_started.clear()
    scheduler = cluster.cluster.scheduler
    before = set(scheduler.clients)
    no_exception(start(page, direct=True))
    assert key in S._warm_started
    for thread in [t for t in threading.enumerate() if t.name == "dtree-dask-warm-up"]:
        thread.join(60)
    made = set(scheduler.clients) - before
    assert len(made) == 1  # the warm-up connected one client
    client = S.dask_client()
    assert client.status == "running" and {client.id} == made  # the fit takes that one
    no_exception(start(DATA))  # a second visit starts no other
    assert not [t for t in threading.enumerate() if t.name == "dtree-dask-warm-up"]
    assert set(scheduler.clients) - before == made
