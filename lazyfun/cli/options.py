"""What every command shares on its command line: the options, written once, and the
command classes that keep ``--help`` free of type placeholders.

An option says what it takes: a switch takes nothing, a value names itself
(``FILE``, ``N``, ``ADDRESS``), and a choice lists its choices (``[line|json]``),
which the parser checks before the command runs.  An argument is named as users
write it: ``ROWS``, ``[COLS]``, ``[PUZZLE]...`` (any number), never by its type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from functools import partial
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, get_args

import typer
import typer.main
from typer.core import TyperArgument, TyperCommand, TyperGroup

from lazyfun.cli.values import quicken
from lazyfun.loading import load
from lazyfun.sudoku.board.formats import Target

__all__ = [
    "Command",
    "FileOpt",
    "Group",
    "JobsOpt",
    "LineOrJson",
    "LineOrJsonOpt",
    "PlotOpt",
    "PuzzlesArg",
    "QuietOpt",
    "SchedulerOpt",
    "choice",
    "flag",
    "group",
    "value",
]


def _bare_help(option: Any) -> Any:
    if option is not None:
        option.metavar = ""
        quicken(option)
    return option


def _one_line(error: Exception) -> Exception:
    """A usage error of the parser's (an unknown choice, a missing argument) as every
    other user error: one line on stderr, ``lazyfun: ...``, and its exit status (2)."""
    format_message = getattr(error, "format_message", None)
    exit_code = getattr(error, "exit_code", None)
    if not callable(format_message) or not isinstance(exit_code, int):
        return error  # typer's click is its own copy: its errors are known by their shape
    message = format_message()
    if message:  # none after the help that a bare group prints
        typer.echo(f"lazyfun: {message}", err=True)
    return typer.Exit(exit_code)


def _parsed(parse: Callable[[], Any]) -> Any:
    """What the parser makes of the command line, its usage errors one line each."""
    try:
        return parse()
    except Exception as error:
        raise _one_line(error) from None


class _Argument(TyperArgument):
    """A positional argument as users write it: its name (``PUZZLE``), in brackets when
    it may be left out, ``...`` after it when it takes any number; no type placeholder
    (``<list[str]>``) in the help."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")


class Command(TyperCommand):
    """A command whose ``--help`` rows show no type placeholder, whose arguments are named
    as users write them, whose usage errors are one line, and whose plain values are
    read without pydantic (:mod:`lazyfun.cli.values`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _Argument
            quicken(param)

    def get_help_option(self, ctx: Any) -> Any:
        return _bare_help(super().get_help_option(ctx))

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        return _parsed(lambda: super(Command, self).make_context(*args, **kwargs))


class Group(TyperGroup):
    """A group of commands, the same for its own options and the names of its commands.

    The commands of ``later`` (a name -> its module, the function, its help panel) are
    made when first looked up: a command's module is imported when it runs or when a
    help lists it, so ``lazyfun --version`` or one command loads only what it uses."""

    later: ClassVar[Mapping[str, tuple[str, str, str | None]]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for param in self.params:
            quicken(param)
        if self.later:
            made = {name: partial(_command, name, *where) for name, where in self.later.items()}
            self.commands = _Later(made, self.commands)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # the names, without making the commands

    def get_help_option(self, ctx: Any) -> Any:
        return _bare_help(super().get_help_option(ctx))

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        return _parsed(lambda: super(Group, self).make_context(*args, **kwargs))

    def resolve_command(self, *args: Any, **kwargs: Any) -> Any:
        return _parsed(lambda: super(Group, self).resolve_command(*args, **kwargs))


def group(later: Mapping[str, tuple[str, str, str | None]]) -> type[Group]:
    """A :class:`Group` whose commands ``later`` are made when first looked up."""
    return type("Group", (Group,), {"later": dict(later), "__module__": __name__})


def _command(name: str, module: str, function: str, panel: str | None) -> Any:
    """The command ``name``: ``function`` of ``module``, imported now."""
    single = typer.Typer(add_completion=False)
    callback = getattr(load(module), function)
    single.command(name, cls=Command, rich_help_panel=panel)(callback)
    return typer.main.get_command(single)


class _Later(MutableMapping[str, Any]):
    """A group's commands, those of ``later`` first (in their order), each made when first
    looked up; iterating or testing a name makes none."""

    def __init__(self, later: Mapping[str, Callable[[], Any]], made: Mapping[str, Any]) -> None:
        self.later, self.made = dict(later), dict(made)

    def __getitem__(self, name: str) -> Any:
        if name not in self.made and name in self.later:
            self.made[name] = self.later[name]()
        return self.made[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self.made[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self.made.pop(name, None)
        self.later.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self.made or name in self.later

    def __iter__(self) -> Iterator[str]:
        yield from self.later
        yield from (name for name in self.made if name not in self.later)

    def __len__(self) -> int:
        return len(self.later.keys() | self.made.keys())


def flag(*names: str, help: str, **more: Any) -> Any:
    """A switch: it takes no value, so none is shown (``more``: typer.Option's other keywords)."""
    return typer.Option(*names, help=help, metavar="", **more)


def value(*names: str, metavar: str, help: str) -> Any:
    """An option that takes a value, shown as ``metavar`` (``FILE``, ``N``, ...)."""
    return typer.Option(*names, help=help, metavar=metavar)


def _one_of(choices: tuple[str, ...]) -> Callable[[str | None], str | None]:
    """Refuse, as a usage error, a value that is not one of ``choices``."""

    def check(value: str | None) -> str | None:
        if value is not None and value not in choices:
            raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}")
        return value

    return check


def choice(*names: str, choices: Any, help: str) -> Any:
    """An option that takes one of ``choices`` (a ``Literal`` type, or a tuple of names
    read from a registry), listed in the help."""
    if isinstance(choices, tuple):
        metavar = f"[{'|'.join(choices)}]"
        return typer.Option(*names, help=help, metavar=metavar, callback=_one_of(choices))
    return typer.Option(*names, help=help, metavar=f"[{'|'.join(get_args(choices))}]")


LineOrJson = Literal["line", "json"]

PuzzlesArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="Puzzles, any number (one-line form, a pencil-mark line or a link); '-' reads stdin.",
        show_default=False,
        metavar="PUZZLE",
    ),
]
FileOpt = Annotated[
    str | None,
    value(
        "--file",
        "-f",
        metavar="FILE",
        help="Read puzzles from FILE ('-': stdin): lines, grids, .sdk, .ss, pencil marks, links.",
    ),
]
LineOrJsonOpt = Annotated[
    LineOrJson,
    choice("--format", choices=LineOrJson, help="One line per result, or JSON Lines."),
]
QuietOpt = Annotated[bool, flag("--quiet", "-q", help="No progress bar and no summary on stderr.")]
JobsOpt = Annotated[
    int | None,
    value("--jobs", "-j", metavar="N", help="Run on dask with N local worker processes."),
]
SchedulerOpt = Annotated[
    str | None,
    value(
        "--scheduler",
        metavar="ADDRESS",
        help="Run on this dask scheduler (tcp://HOST:PORT, or sync); "
        "default: $LAZYFUN_DASK_SCHEDULER, else local workers.",
    ),
]
PlotOpt = Annotated[
    Path | None,
    value("--plot", metavar="PNG", help="Also draw a log-scale chart to this PNG file."),
]

SvgOpt = Annotated[
    Path | None,
    value("--svg", metavar="FILE", help="Draw it as SVG to FILE ('-': stdout)."),
]
OutputOpt = Annotated[
    Path | None,
    value("--output", "-o", metavar="FILE", help="Write the page to FILE (default: stdout)."),
]
Paper = Literal["a4", "letter"]
BookletOpt = Annotated[
    Path | None,
    value("--booklet", metavar="FILE", help="Also write the puzzles as a printable HTML page."),
]
PER_PAGE = (1, 2, 4, 6)
PerPageOpt = Annotated[
    int, value("--per-page", metavar="N", help="Puzzles per printed page: 1, 2, 4 or 6.")
]
PaperOpt = Annotated[Paper, choice("--paper", choices=Paper, help="Paper size of the booklet.")]
ToOpt = Annotated[
    Target | None,
    choice(
        "--to",
        choices=Target,
        help="Write each puzzle in this format: 81 (one line), 729 (pencil marks), .sdk, .ss,"
        " or an f-puzzles link.",
    ),
]
