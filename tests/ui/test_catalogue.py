"""The text catalogue's one home (ui/catalogue/): every key lives in the module named after its
prefix, is written once in the source, and reaches the assembled CATALOGUE."""

import ast
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.source_trees import parsed
from ui import catalogue, i18n

FOLDER = Path(catalogue.__file__).parent
MODULE_FILES = sorted(p for p in FOLDER.glob("*.py") if p.name != "__init__.py")


def written_keys(path: Path) -> list[str]:
    """The keys of a module's WORDS literal as written (a repeated key stays repeated: a dict
    would keep only the last)."""
    tree = parsed(path)
    literals = [
        node.value
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "WORDS"
    ]
    assert len(literals) == 1 and isinstance(literals[0], ast.Dict), path.name
    keys = []
    for key in literals[0].keys:
        assert isinstance(key, ast.Constant) and isinstance(key.value, str), (path.name, ast.dump(key))
        keys.append(key.value)
    return keys


@pytest.mark.parametrize("path", MODULE_FILES, ids=lambda p: p.stem)
def test_each_key_lives_in_the_module_of_its_prefix(path):
    keys = written_keys(path)
    assert keys, f"{path.name} holds no words"
    wrong = [key for key in keys if catalogue.prefix(key) != path.stem]
    assert not wrong, f"{path.name} holds keys of other prefixes: {wrong}"


def test_no_key_is_defined_twice_and_every_module_is_assembled():
    written = [key for path in MODULE_FILES for key in written_keys(path)]
    twice = sorted(key for key, n in Counter(written).items() if n > 1)
    assert not twice, f"defined twice: {twice}"
    assert [m.__name__ for m in catalogue.MODULES] == [f"ui.catalogue.{p.stem}" for p in MODULE_FILES]
    assert sorted(written) == sorted(catalogue.CATALOGUE)
    assert i18n.CATALOGUE is catalogue.CATALOGUE  # the lookup reads the one catalogue


def test_assembling_refuses_a_key_of_two_modules():
    first = SimpleNamespace(__name__="first", WORDS={"x.a": ("a", "甲")})
    second = SimpleNamespace(__name__="second", WORDS={"x.a": ("b", "乙")})
    assert catalogue.assembled((first,)) == {"x.a": ("a", "甲")}
    with pytest.raises(ValueError, match="'x.a' is defined twice \\(second\\)"):
        catalogue.assembled((first, second))


def test_one_word_for_node_in_chinese():
    """Issue 27: 节点 and 结点 were both used; the catalogue says 节点 (as its first pages did)."""
    zh = [z for _, z in catalogue.CATALOGUE.values()]
    assert sum("节点" in z for z in zh) > 50
    assert [z for z in zh if "结点" in z] == []


def test_one_word_for_leaf_in_chinese():
    """Issue 27: 叶子 and 叶节点 were both used; the catalogue says 叶节点 (the textbook's word,
    matching 节点), and so do the dtcore texts shown in 中文."""
    zh = [z for _, z in catalogue.CATALOGUE.values()]
    assert sum("叶节点" in z for z in zh) > 20
    assert [z for z in zh if "叶子" in z] == []
    root = Path(__file__).resolve().parents[2] / "dtcore"
    assert [str(p) for p in root.rglob("*.py") if "叶子" in p.read_text(encoding="utf-8")] == []


def test_the_splits_page_has_one_chinese_name():
    """Issue 27: the Splits page was 划分 in the menu, 划分探索 as its title, 分裂解释器 in Growth."""
    name = i18n.translate("splits.title", "zh")
    assert i18n.translate("nav.splits", "zh") == name == "划分探索"
    assert name in i18n.translate("growth.explore", "zh")
    assert f"“{name}”页" in i18n.translate("splits.forced_on_train", "zh")
    zh = [z for _, z in catalogue.CATALOGUE.values()]
    assert [z for z in zh if "分裂解释" in z or "“划分”" in z] == []
