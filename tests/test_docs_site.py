"""The README is the short landing page, the documentation site holds everything it used to, the
generated references name every command and public name, the built site fetches nothing from the
network, and the version is written in one place (docs/contributing.md, "Habits")."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

import dtcore
from dtcore.cli import build_parser
from scripts.cli_reference import cli_markdown, subcommands
from tests.cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"

#: Every section heading the README had before it became the landing page (42 KB, 18 sections),
#: with the page and heading that now hold its text. Listed here, not read from git history, so
#: that the test runs on any checkout.
MOVED_SECTIONS = {
    "Two commands": [("getting-started.md", "Two commands")],
    "What is in the app": [("guide/index.md", "What is in the app")],
    "What-if: ask the tree about a sample": [("guide/train.md", "What-if: ask the tree about a sample")],
    "Compare ID3, C4.5 and CART; watch a tree grow": [
        ("guide/compare.md", "Compare ID3, C4.5 and CART"),
        ("guide/growth.md", "Watch a tree grow"),
    ],
    "Limits": [("operators.md", "Limits")],
    "Heavy jobs shared by all sessions": [("operators.md", "Heavy jobs shared by all sessions")],
    "Navigating big trees": [("guide/train.md", "Navigating big trees")],
    "Using dtcore without the app": [("library/index.md", "Using dtcore without the app")],
    "How it is checked": [("algorithms.md", "How it is checked")],
    "Speed": [("speed.md", "Speed")],
    "The app at 10⁵ rows": [("speed.md", "The app at 10⁵ rows")],
    "Engines: exact, hist, Dask": [("library/engines.md", "Engines: exact, hist, Dask")],
    "Large data in the app: Parquet on the server": [
        ("operators.md", "Large data in the app: Parquet on the server")
    ],
    "Pictures for reports and screenshot tests": [
        ("guide/reports.md", "Pictures for reports and screenshot tests")
    ],
    "Snapshot tests": [("contributing.md", "Snapshot tests")],
    "Layout": [("contributing.md", "Layout")],
    "Pruning page: before and after at one scale": [
        ("guide/pruning.md", "Pruning page: before and after at one scale")
    ],
    "Thresholds as printed": [("guide/train.md", "Thresholds as printed")],
}

#: the pages the issue asks for: a guide page per page of the app, the library guide by topic
REQUIRED_PAGES = [
    "guide/data.md",
    "guide/train.md",
    "guide/splits.md",
    "guide/pruning.md",
    "guide/growth.md",
    "guide/compare.md",
    "library/estimators.md",
    "library/pruning.md",
    "library/explain.md",
    "library/exports.md",
    "library/engines.md",
    "library/sklearn.md",
    "model-json.md",
    "algorithms.md",
    "operators.md",
    "architecture.md",
    "speed.md",
    "contributing.md",
]


def headings(markdown: str) -> set[str]:
    """The text of every ATX heading outside code blocks, without an ``{#id}`` attribute."""
    out, fenced = set(), False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} +(.+?)\s*(\{#[^}]*\})?\s*$", line)):
            out.add(m.group(1))
    return out


# -- the README ----------------------------------------------------------------------------------------


def test_the_readme_is_a_landing_page_of_at_most_8_kb():
    assert README.stat().st_size <= 8 * 1024


def test_the_readme_gives_the_two_commands_ci_runs():
    readme = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", readme, flags=re.S)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    assert "make run" in commands and "make test" in commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "make test" in [line.strip() for line in ci]


def test_the_readme_links_resolve():
    readme = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "the README links into the docs"
    for target in local:
        assert (ROOT / target).exists(), f"README links to {target}, which does not exist"


#: pages whose Python examples run as they stand, from the repository's folder (the engines page
#: needs Parquet files and a Dask cluster; the estimators page shows signatures on placeholder data)
RUNNABLE_EXAMPLES = [
    "README.md",
    "docs/library/index.md",
    "docs/library/pruning.md",
    "docs/library/explain.md",
    "docs/library/exports.md",
    "docs/library/sklearn.md",
]


@pytest.mark.parametrize("page", RUNNABLE_EXAMPLES)
def test_the_python_examples_run(page, tmp_path, monkeypatch, capsys):
    """Each page's ```python blocks, in order, in one namespace, in a folder holding assets/."""
    text = (ROOT / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, f"{page} has no Python example"
    if "sklearn" in "".join(blocks):
        pytest.importorskip("sklearn")
    (tmp_path / "assets").symlink_to(ROOT / "assets")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, f"{page} example", "exec"), namespace)
    if "save_model(" in "".join(blocks):
        assert (tmp_path / "tree.json").exists()
    if "print(" in "".join(blocks):
        assert capsys.readouterr().out.strip()


# -- the site's sources ----------------------------------------------------------------------------------


@pytest.mark.parametrize("old", sorted(MOVED_SECTIONS))
def test_every_section_the_readme_had_is_in_the_docs(old):
    for page, heading in MOVED_SECTIONS[old]:
        path = DOCS / page
        assert path.exists(), f"{old!r} moved to {page}, which does not exist"
        assert heading in headings(path.read_text(encoding="utf-8")), f"{page} has no heading {heading!r}"


def test_the_site_has_the_pages_the_issue_names_and_lists_them():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in REQUIRED_PAGES:
        assert (DOCS / page).exists(), page
        assert re.search(rf"(:|-)\s+{re.escape(page)}\s*$", config, flags=re.M), f"{page} is not in the nav"
    for generated in ("reference/cli.md", "changelog.md"):
        assert generated in config and not (DOCS / generated).exists(), (
            f"{generated} is generated, not written"
        )


def test_the_guide_shows_the_snapshot_suites_pictures_and_no_copies():
    shown = set()
    for page in DOCS.rglob("*.md"):
        shown |= set(
            re.findall(r"\]\((?:\.\./)*screenshots/([^)]+\.png)\)", page.read_text(encoding="utf-8"))
        )
    stored = {p.name for d in ("browser", "report") for p in (ROOT / "tests" / "snapshots" / d).glob("*.png")}
    assert shown and shown <= stored, f"pictures not in the snapshot suite: {sorted(shown - stored)}"
    assert not (DOCS / "screenshots").exists(), "docs/screenshots/ would be a hand-made copy"


@pytest.mark.parametrize("page", ["data", "train", "splits", "pruning", "growth", "compare"])
def test_each_page_of_the_apps_guide_shows_a_snapshot_picture(page):
    text = (DOCS / "guide" / f"{page}.md").read_text(encoding="utf-8")
    assert re.search(r"!\[[^\]]+\]\(\.\./screenshots/[^)]+\.png\)", text)


def test_mkdocstrings_reads_numpy_style_docstrings_as_dtcore_writes_them():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"docstring_style:\s*numpy\b", config)
    doc = dtcore.C45Classifier.__doc__ or ""
    assert "    Parameters\n    ----------" in doc


def test_the_theme_loads_no_web_fonts_and_has_no_analytics():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["font"] is False
    assert "analytics" not in config.get("extra", {})
    assert config["strict"] is True


# -- the generated command-line reference ----------------------------------------------------------------


def test_the_cli_reference_names_every_command_and_every_flag():
    parser = build_parser()
    page = cli_markdown(parser)
    commands = subcommands(parser)
    assert {c.name for c in commands} >= {"train", "predict", "show", "export", "splits", "prune", "compare"}
    for command in commands:
        assert f"## `dtcore {command.name}` {{#{command.name}}}" in page
        for action in command.parser._actions:
            if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
                continue
            names = action.option_strings or [action.metavar or action.dest]
            for name in names:
                assert f"`{name}" in page, f"dtcore {command.name}: {name} is not in the reference"
    assert "`--version`" in page


def test_the_cli_reference_follows_the_parser_not_a_copy():
    """A flag added to the parser appears in the page, with its help."""
    parser = build_parser()
    (train,) = [c.parser for c in subcommands(parser) if c.name == "train"]
    train.add_argument("--brand-new-flag", metavar="N", help="a flag | with a pipe")
    train.add_argument("--needed-flag", required=True, help="must be given")
    page = cli_markdown(parser)
    assert "`--brand-new-flag N`" in page and "a flag \\| with a pipe" in page
    assert "| `--needed-flag NEEDED_FLAG` | required | must be given |" in page


# -- the version -----------------------------------------------------------------------------------------


def test_the_version_is_written_once_and_read_by_the_rest():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "dtcore.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", dtcore.__version__)
    run = run_cli("--version")
    assert run.returncode == 0 and run.stdout.strip() == f"dtcore {dtcore.__version__}"


def test_the_changelog_keeps_unreleased_on_top_and_its_latest_release_is_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.M)
    assert versions[0] == "Unreleased"
    assert versions[1] == dtcore.__version__
    assert "Keep a Changelog" in changelog


# -- the built site --------------------------------------------------------------------------------------

#: an attribute or CSS rule that makes the browser fetch something (not a link one may click)
FETCHING = [
    re.compile(r"<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\bsrc=[\"']?(?:https?:)?//", re.I),
    re.compile(r"<link\b[^>]*\bhref=[\"']?(?:https?:)?//", re.I),
    re.compile(r"url\(\s*[\"']?(?:https?:)?//", re.I),
    re.compile(r"@import\s+(?:url\()?\s*[\"']?(?:https?:)?//", re.I),
]


def test_the_fetch_patterns_catch_what_material_would_load():
    fetches = [
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">',
        '<link rel="preconnect" href="//fonts.gstatic.com">',
        '<script src="https://unpkg.com/mermaid/dist/mermaid.min.js"></script>',
        "<img src='http://example.org/a.png'>",
        "body { background: url(https://example.org/a.png) }",
        '@import url("https://fonts.googleapis.com/css")',
    ]
    for html in fetches:
        assert any(p.search(html) for p in FETCHING), html
    links = ['<a href="https://keepachangelog.com/en/1.1.0/">', '<img src="screenshots/a.png">']
    for html in links:
        assert not any(p.search(html) for p in FETCHING), html


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """``mkdocs build --strict`` of this checkout, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    assert "WARNING" not in run.stderr, run.stderr[-4000:]
    return out


@pytest.mark.slow
def test_the_built_reference_has_every_command_and_public_name(site):
    cli = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for command in subcommands(build_parser()):
        assert f'id="{command.name}"' in cli and f"dtcore {command.name}" in cli
    api = "".join(p.read_text(encoding="utf-8") for p in (site / "reference" / "api").glob("*.html"))
    for name in dtcore.__all__:
        assert f'id="dtcore.{name}"' in api, f"dtcore.{name} is not in the API reference"
    for estimator in ("CARTClassifier", "CARTRegressor", "C45Classifier", "ID3Classifier"):
        assert f'id="dtcore.{estimator}.fit"' in api


def api_blocks(page: str) -> list[tuple[str, list[str]]]:
    """The ``::: name`` blocks of an API page, each with its ``members:`` list (empty: all)."""
    out: list[tuple[str, list[str]]] = []
    lines = page.splitlines()
    for i, line in enumerate(lines):
        if m := re.match(r"::: (\S+)", line):
            members: list[str] = []
            for following in lines[i + 1 :]:
                if not following.startswith(" "):
                    break
                if item := re.match(r"\s+- (\w+)\s*$", following):
                    members.append(item.group(1))
            out.append((m.group(1), members))
    return out


@pytest.mark.slow
def test_every_name_an_api_page_asks_for_is_rendered(site):
    """mkdocstrings skips a listed member silently when a submodule shares its name
    (``dtcore.export.render``); the page must name such a function by its full path."""
    pages = sorted((DOCS / "reference" / "api").glob("*.md"))
    assert pages
    for page in pages:
        html = (site / "reference" / "api" / page.with_suffix(".html").name).read_text(encoding="utf-8")
        for target, members in api_blocks(page.read_text(encoding="utf-8")):
            names = [f"{target}.{m}" for m in members] or [target]
            for name in names:
                assert f'id="{name}"' in html, f"{page.name}: {name} is not rendered"


@pytest.mark.slow
def test_the_built_site_fetches_nothing_from_the_network(site):
    pages = [*site.rglob("*.html"), *site.rglob("*.css")]
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8", errors="replace")
        for pattern in FETCHING:
            hit = pattern.search(text)
            assert hit is None, f"{page.relative_to(site)} fetches {hit.group(0)!r}"
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis" not in index and "fonts.gstatic" not in index


@pytest.mark.slow
def test_the_built_site_carries_the_snapshot_pictures_the_changelog_and_the_version(site):
    for folder in ("browser", "report"):
        for png in (ROOT / "tests" / "snapshots" / folder).glob("*.png"):
            assert (site / "screenshots" / png.name).read_bytes() == png.read_bytes()
    changelog = (site / "changelog.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog and dtcore.__version__ in changelog
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f"<title>Decision-tree explorer and dtcore {dtcore.__version__}</title>" in index
