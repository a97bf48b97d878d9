"""MkDocs hooks (mkdocs.yml ``hooks:``): the pages and pictures the site takes from the code.

- the site's name carries ``dtcore.__version__`` (the one place the version is written);
- ``reference/cli.md`` is generated from the argparse definitions (scripts/cli_reference.py);
- ``changelog.md`` is the repository's CHANGELOG.md;
- ``screenshots/<name>.png`` are the snapshot suite's pictures (tests/snapshots/browser and
  tests/snapshots/report), so the guide shows what the tests last accepted and nobody copies a
  PNG by hand.

None of them is written into docs/: the site is built from the code as it is.
"""

from __future__ import annotations

from pathlib import Path

from cli_reference import cli_markdown
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from dtcore import __version__

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT_PICTURES = (ROOT / "tests" / "snapshots" / "browser", ROOT / "tests" / "snapshots" / "report")


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Name the version the site documents."""
    config.site_name = f"{config.site_name} {__version__}"
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages and the snapshot pictures to the site's files."""
    files.append(File.generated(config, "reference/cli.md", content=cli_markdown()))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "changelog.md", content=changelog))
    for folder in SNAPSHOT_PICTURES:
        for png in sorted(folder.glob("*.png")):
            files.append(File.generated(config, f"screenshots/{png.name}", abs_src_path=str(png)))
    return files
