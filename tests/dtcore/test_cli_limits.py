"""The command line reads data files within the same size limits as the app (docs/operators.md, "Limits")."""

import os

import pytest

from dtcore.data.limits import LIMIT_TABLE, LimitError, configured, limits_from
from dtcore.data.readers import read_table
from tests.dtcore.test_cli import MELON, assert_user_error, dtcore


def _env(**limits):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DTREE_MAX_")}
    env.update(limits)
    return env


@pytest.fixture()
def wide_csv(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("a,b,c,y\n" + "".join(f"{i},{i % 3},{i % 5},{'xy'[i % 2]}\n" for i in range(40)))
    return path


@pytest.mark.parametrize(
    ("variable", "value", "phrase"),
    [
        ("DTREE_MAX_ROWS", "10", "rows is over the limit of 10"),
        ("DTREE_MAX_COLUMNS", "3", "4 columns is over the limit of 3"),
        ("DTREE_MAX_CELLS", "50", "over the limit of 50"),
        ("DTREE_MAX_BYTES", "100", "bytes is over the limit of 100"),
    ],
)
def test_train_refuses_a_file_past_a_limit_and_names_it(wide_csv, tmp_path, variable, value, phrase):
    out = tmp_path / "m.json"
    proc = dtcore("train", wide_csv, "--target", "y", "--out", out, env=_env(**{variable: value}))
    assert_user_error(proc, phrase, variable, "--no-limits")
    assert not out.exists()
    lifted = dtcore(
        "train", wide_csv, "--target", "y", "--out", out, "--no-limits", env=_env(**{variable: value})
    )
    assert lifted.returncode == 0, lifted.stderr
    assert out.exists()


def test_predict_splits_and_prune_read_with_the_limits(wide_csv, tmp_path):
    model = tmp_path / "m.json"
    assert dtcore("train", wide_csv, "--target", "y", "--out", model, env=_env()).returncode == 0
    small = _env(DTREE_MAX_ROWS="5")
    assert_user_error(dtcore("predict", model, wide_csv, env=small), "over the limit of 5")
    assert_user_error(dtcore("splits", wide_csv, "--target", "y", env=small), "over the limit of 5")
    assert_user_error(
        dtcore("prune", model, wide_csv, "--method", "pep", "--out", tmp_path / "p.json", env=small),
        "over the limit of 5",
    )
    assert dtcore("predict", model, wide_csv, "--no-limits", env=small).returncode == 0


def test_the_size_is_checked_before_the_file_is_read(tmp_path):
    """A file over the byte limit is refused from its size: its content is never parsed."""
    path = tmp_path / "junk.csv"
    path.write_bytes(b"\xff\xfe\x00" * 400)  # undecodable: parsing would fail differently
    with pytest.raises(LimitError, match="bytes is over the limit of 100"):
        read_table(path, limits=limits_from({"DTREE_MAX_BYTES": "100"}))


def test_the_defaults_read_every_bundled_sample():
    assert read_table(MELON, limits=configured()).rows.shape[0] == 17
    assert {lim.name for lim in LIMIT_TABLE} == set(vars(configured()))
