"""The one progress bar (rich), on stderr when it is a terminal: imported only when
a bar is drawn, so a command run in a pipe or with ``--quiet`` never loads rich."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

__all__ = ["Bar"]


class _Rate(ProgressColumn):
    """Puzzles per second, once there is a rate to show."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f}/s" if speed else "", style="progress.data.speed")


class Bar:
    """The one progress bar: on stderr when it is a terminal, never through stdout."""

    def __init__(self, label: str, total: int | None) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _Rate(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
            # results go to the real stdout (a file or a pipe), never through the bar
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.progress.start()
        self.task: TaskID = self.progress.add_task(label, total=total)

    def advance(self) -> None:
        self.progress.advance(self.task)

    def print(self, text: str) -> None:
        """One line on stderr, above the bar."""
        self.progress.console.print(text, markup=False, highlight=False)

    def stop(self) -> None:
        self.progress.stop()
