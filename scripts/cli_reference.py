"""The ``dtcore`` command's reference as Markdown, read from its argparse definitions.

The documentation site's CLI page is this function's output (scripts/mkdocs_hooks.py adds it at
build time), so a flag added to ``dtcore.cli`` is documented without anyone writing it down, and
a flag removed from the code cannot linger in the docs. ``python scripts/cli_reference.py``
prints the page.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from dtcore.cli import build_parser


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help and its parser."""

    name: str
    summary: str
    parser: argparse.ArgumentParser


def subcommands(parser: argparse.ArgumentParser) -> list[Command]:
    """The parser's subcommands in the order ``dtcore --help`` lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {a.dest: a.help or "" for a in action._choices_actions}
            return [Command(name, summaries.get(name, ""), p) for name, p in action.choices.items()]
    return []


def md_cell(text: str) -> str:
    """Text for one Markdown table cell: pipes escaped, line breaks joined."""
    return " ".join(text.split()).replace("|", "\\|")


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    metavar = ""
    if action.nargs != 0:
        if action.choices is not None and action.metavar is None:
            metavar = "{" + ",".join(str(c) for c in action.choices) + "}"
        else:
            metavar = str(action.metavar or action.dest.upper())
        if action.nargs in ("*", "+"):
            metavar += " …"
    return ", ".join(f"`{flag}{' ' + metavar if metavar else ''}`" for flag in action.option_strings)


def _default(action: argparse.Action) -> str:
    if action.required and action.option_strings:
        return "required"
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS) or not action.option_strings:
        return ""
    return f"`{action.default}`"


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if action.help in (None, argparse.SUPPRESS):
        return ""
    return parser._get_formatter()._expand_help(action)


def _arguments_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = [
        "| argument | default | what it does |",
        "| --- | --- | --- |",
    ]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        rows.append(f"| {_flags(action)} | {md_cell(_default(action))} | {md_cell(_help(parser, action))} |")
    return rows


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=100)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return formatter.format_help().strip()


def cli_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """The whole reference page: the program's options, then each subcommand's usage and flags."""
    parser = parser or build_parser()
    commands = subcommands(parser)
    lines = [
        "# Command line reference",
        "",
        "<!-- generated from dtcore.cli.build_parser() by scripts/cli_reference.py; do not edit -->",
        "",
        f"{parser.description or ''} `python -m {parser.prog}` is the same command. Every user error "
        "ends with one line on stderr and exit status 2. This page is generated from the argparse "
        "definitions when the site is built.",
        "",
        "```text",
        _usage(parser),
        "```",
        "",
        "| command | what it does |",
        "| --- | --- |",
    ]
    lines += [f"| [`{c.name}`](#{c.name}) | {md_cell(c.summary)} |" for c in commands]
    lines += ["", "Options of `dtcore` itself:", "", *_arguments_table(parser)]
    for command in commands:
        lines += ["", f"## `{parser.prog} {command.name}` {{#{command.name}}}", ""]
        description = command.parser.description or command.summary
        if description:
            lines += [" ".join(description.split()), ""]
        lines += ["```text", _usage(command.parser), "```", "", *_arguments_table(command.parser)]
        if command.parser.epilog:
            lines += ["", " ".join(command.parser.epilog.split())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(cli_markdown(), end="")
