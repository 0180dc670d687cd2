"""lazyfun against Gecode (and CP-SAT when given) on MiniZinc Challenge instances.

The instances are models and data of the public MiniZinc benchmarks repository
(github.com/MiniZinc/minizinc-benchmarks), one a problem (a problem: a top-level
folder of the repository); none is kept here.  ``$MZN_BENCHMARKS`` names a folder
with that repository's layout (a clone, or the files of :data:`INSTANCES` copied);
without it, or without ``minizinc``, the benchmark says so in one line and skips.

The set is :data:`INSTANCES`, 39 chosen by hand across kinds, then grown by a fixed
rule over the repository, read at run time, to :data:`TARGET` instances: each other
problem in sorted order whose models (its ``.mzn`` files) include one with a
``solve`` item (``satisfy``, ``minimize`` or ``maximize``, in its own text or a file
it includes from its folder) gives one instance, drawn by ``random.Random("71:" +
problem)`` (so one problem's files do not move another's draw): the problem's pairs
(each such model alone, and with each ``.dzn`` in its folder or below), sorted, are
shuffled, and the first that minizinc accepts (its interface read without error and
no parameter left without a value; :data:`TRIES` tried at most, or the problem is
left out) is taken.  The bench prints how many it drew and from how many problems.
``$MZN_SET=39`` runs the 39 alone.  Each solver runs through
``minizinc`` with ``--time-limit`` (``$MZN_TIME_LIMIT`` seconds, 60 by default)
and ``--output-objective``, one core each, compiling included in the time (with
``$MZN_FREE_SEARCH`` set, ``-f`` too: each solver searches its own way, as in the
challenge's free search category; ``$MZN_INSTANCES``, words separated by commas,
keeps the instances of the set whose model or data path holds one of them):

- lazyfun: its solver configuration (written for the run), so its mznlib's globals
  arrive whole; ``$MZN_LAZYFUN_FLAGS`` adds flags of its own (``--clauses``: lazy clause
  generation; the run's first line names them);
- Gecode, as minizinc ships it, with its own library; Debian's Gecode 6.2 cannot
  compile some of the standard globals under minizinc 2.6 (an ``inverse`` type
  error), and those instances are run on the standard library instead (``-G
  std``), marked ``std`` in the table;
- CP-SAT when ``$MZN_CPSAT`` names its solver configuration (``.msc``) or id
  (OR-Tools' FlatZinc front end, built by hand: the ``ortools`` wheel has none).

Per instance: each solver's outcome (``solved``: satisfied, or the optimum or
unsatisfiability proved; ``found``: a solution, not proved best; ``none``;
``error``), its objective and two times: the wall time of the whole minizinc run,
and the *solver time*, what the run reports with ``-s``: minizinc's compiling
(``flatTime``) plus the solver's own reading of the FlatZinc (``initTime``) and
search (``solveTime``); the wall time where a run reports no ``solveTime``.  The
solver time leaves out starting the solver's process: for the hand-written CP-SAT
runner that is Python and the ortools import (about 0.6 s a run, which a compiled
``fzn-cp-sat`` would not pay), for lazyfun Python and its own import (about
0.2 s).  The comparison with CP-SAT is judged on the solver time; the wall ratio is
shown beside it.  Then the MiniZinc Challenge's scoring (Borda, "complete" form),
on the solver time: each pair of solvers on each instance shares one point, to the
better objective (or to the one that found a solution at all); at equal quality to
the faster where both proved it, half each otherwise.  Beside each instance,
lazyfun's nodes per second (its ``nodes`` over its ``solveTime``, which counts
compiling the constraints) and learnt clauses per second (the ``nogoods`` statistic,
MiniZinc's name for them; ``—`` where the run reports none).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from benchmarks.common import verdict
from lazyfun.csp.flatzinc.solver_config import install

# (model, data) in the benchmarks repository's layout; data None: the model alone.
Instance = tuple[str, str | None]
INSTANCES: list[Instance] = [
    ("amaze/amaze.mzn", "amaze/2012-07-19.dzn"),
    ("bibd/bibd.mzn", "bibd/07_03_02.dzn"),
    ("black-hole/black-hole.mzn", "black-hole/0.dzn"),
    ("cars/cars.mzn", "cars/cars1.dzn"),
    ("celar/celar.mzn", "celar/CELAR6-SUB2.dzn"),
    ("costas-array/CostasArray.mzn", "costas-array/14.dzn"),
    ("cutstock/cutstock.mzn", "cutstock/type07_TEST8.dzn"),
    ("cvrp/cvrp.mzn", "cvrp/P-n16-k8.vrp.dzn"),
    ("debruijn_binary/debruijn_binary.mzn", "debruijn_binary/02_09.dzn"),
    ("fillomino/fillomino.mzn", "fillomino/08.dzn"),
    ("ghoulomb/ghoulomb.mzn", "ghoulomb/3-3-3.dzn"),
    ("golfers/golfers1.mzn", "golfers/golfers_5_3_6.dzn"),
    ("golomb/golomb.mzn", "golomb/08.dzn"),
    ("grid-colouring/GridColoring.mzn", "grid-colouring/4_8.dzn"),
    ("jobshop/jobshop.mzn", "jobshop/jobshop_ft06.dzn"),
    ("kakuro/kakuro.mzn", "kakuro/kakuro_6_6_easy.dzn"),
    ("knights/knights.mzn", "knights/08_14.dzn"),
    ("langford/langford.mzn", "langford/l_2_08.dzn"),
    ("latin-squares/latin-squares-fd.mzn", "latin-squares/07.dzn"),
    ("magicseq/magicseq.mzn", "magicseq/030.dzn"),
    ("mario/mario.mzn", "mario/mario_easy_4.dzn"),
    ("mqueens/mqueens2.mzn", "mqueens/n11.dzn"),
    ("multi-knapsack/mknapsack.mzn", "multi-knapsack/mknap2-20.dzn"),
    ("nonogram/non.mzn", "nonogram/dom_06.dzn"),
    ("open_stacks/open_stacks_01.mzn", "open_stacks/wbop_10_10_1.dzn"),
    ("openshop/openshop.mzn", "openshop/j8per0-2.dzn"),
    ("opd/opd.mzn", "opd/flener_et_al_10_350_100.dzn"),
    ("p1f/p1f.mzn", "p1f/8.dzn"),
    ("photo/photo.mzn", "photo/photo2.dzn"),
    ("project-planning/ProjectPlannertest_12_6.mzn", None),
    ("quasigroup7/quasigroup7.mzn", "quasigroup7/09.dzn"),
    ("queens/queens.mzn", "queens/008.dzn"),
    ("rcpsp/rcpsp.mzn", "rcpsp/data_pack_d/pack007.dzn"),
    ("schur_numbers/schur.mzn", "schur_numbers/7-3.dzn"),
    ("solbat/sb.mzn", "solbat/sb_12_12_5_1.dzn"),
    ("steiner-triples/steiner-triples.mzn", "steiner-triples/07.dzn"),
    ("still_life/still_life.mzn", "still_life/2x4.dzn"),
    ("talent_scheduling/talent_scheduling.mzn", "talent_scheduling/easy/tiny.dzn"),
    ("tc-graph-color/tcgc2.mzn", "tc-graph-color/k1_02.dzn"),
]
SEED = 71  # the draw of each grown problem's instance
TARGET = 60  # instances in the grown set (or as many as the problems give)
TRIES = 5  # a problem's drawn pairs tried before it is left out
SOLVE = re.compile(r"(?:^|;)\s*solve\b[^;]*\b(?:satisfy|minimize|maximize)\b", re.MULTILINE)
INCLUDE = re.compile(r'\binclude\s+"([^"]+)"\s*;')
COMMENT = re.compile(r"/\*.*?\*/|%[^\n]*", re.DOTALL)
SOLVED, FOUND, NONE, ERROR = "solved", "found", "none", "error"
OBJECTIVE = re.compile(r"^_objective = (-?\d+);$", re.MULTILINE)
STATISTIC = re.compile(r"^%%%mzn-stat: (\w+)=(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)$", re.MULTILINE)


@dataclass
class Grown:
    """The bench's set and how it was grown."""

    instances: list[Instance]
    drawn: int  # instances the rule added to INSTANCES
    problems: int  # problems the rule looked at: those with a model that solves
    refused: list[str] = field(default_factory=list)  # looked at, no pair accepted

    def told(self) -> str:
        """One line: how many were drawn, from how many problems."""
        refused = f"; no pair accepted: {', '.join(self.refused)}" if self.refused else ""
        return (
            f"{len(INSTANCES)} chosen by hand, {self.drawn} drawn (seed {SEED}) from the "
            f"{self.problems} problems looked at{refused}"
        )


def _solves(model: Path, seen: frozenset[Path] = frozenset()) -> bool:
    """Whether ``model`` has a solve item that satisfies, minimizes or maximizes, in
    its own text (comments left out) or in a file it includes from its folder."""
    text = COMMENT.sub("", model.read_text(errors="replace"))
    if SOLVE.search(text):
        return True
    included = (model.parent / name for name in INCLUDE.findall(text))
    return any(
        _solves(f, seen | {model}) for f in included if f.is_file() and f not in seen | {model}
    )


def _pairs(root: Path, problem: Path) -> list[Instance]:
    """``problem``'s instances, sorted, paths from ``root``: each model that solves, alone
    and with each data file in its folder or below."""
    pairs: list[Instance] = []
    for model in sorted(problem.rglob("*.mzn")):
        if not _solves(model):
            continue
        name = model.relative_to(root).as_posix()
        pairs.append((name, None))
        data = sorted(model.parent.rglob("*.dzn"))
        pairs += [(name, d.relative_to(root).as_posix()) for d in data]
    return sorted(pairs, key=lambda pair: (pair[0], pair[1] or ""))


def _interface(model: Path, data: Path | None) -> dict[str, object] | None:
    """The model's interface as minizinc reads it with the standard library (Debian's
    Gecode library fails on some); None where it refuses the model or its data."""
    command = ["minizinc", "--solver", "org.minizinc.mzn-fzn", "--model-interface-only"]
    command += [str(model), *([str(data)] if data else [])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
        said = json.loads(done.stdout)
    except (ValueError, subprocess.TimeoutExpired):
        return None
    return said if done.returncode == 0 and isinstance(said, dict) else None


def _accepts(model: Path, data: Path | None) -> bool:
    """Whether minizinc reads the model with the data and needs no other parameter."""
    said = _interface(model, data)
    return said is not None and not said.get("input")


def grown(
    root: Path, accepts: Callable[[Path, Path | None], bool] = _accepts, target: int = TARGET
) -> Grown:
    """:data:`INSTANCES`, then for each other problem of ``root`` in sorted order with a
    model that solves, until ``target``: its pairs shuffled by ``Random("71:<problem>")``
    (a problem's draw does not hang on the others' files), the first of :data:`TRIES`
    that ``accepts`` takes."""
    instances = list(INSTANCES)
    kept = {model.split("/")[0] for model, _ in INSTANCES}
    found = root.iterdir() if root.is_dir() else iter(())
    folders = sorted(p for p in found if p.is_dir() and not p.name.startswith("."))
    problems, refused = 0, []
    for problem in (p for p in folders if p.name not in kept):
        if len(instances) >= target:
            break
        pairs = _pairs(root, problem)
        if not pairs:
            continue
        problems += 1
        random.Random(f"{SEED}:{problem.name}").shuffle(pairs)
        tried = (p for p in pairs[:TRIES] if accepts(root / p[0], root / p[1] if p[1] else None))
        taken = next(tried, None)
        if taken is None:
            refused.append(problem.name)
        else:
            instances.append(taken)
    return Grown(instances, len(instances) - len(INSTANCES), problems, refused)


@dataclass
class Outcome:
    """One solver's run on one instance."""

    status: str
    objective: int | None
    wall: float
    note: str = ""
    solver: float | None = None  # flatTime + initTime + solveTime, as the run reports them
    statistics: dict[str, float] = field(default_factory=dict)  # the run's -s figures

    @property
    def seconds(self) -> float:
        """The solver time where the run reports it, else the wall time."""
        return self.wall if self.solver is None else self.solver

    def shown(self) -> str:
        value = "" if self.objective is None else f" {self.objective}"
        note = f" ({self.note})" if self.note else ""
        return f"{self.status}{value} {self.seconds:.2f}s/{self.wall:.1f}s{note}"


def _statistics(out: str) -> dict[str, float]:
    """A run's numeric ``-s`` statistics, the last of each."""
    return {key: float(value) for key, value in STATISTIC.findall(out)}


def _solver_time(out: str) -> float | None:
    """``flatTime + initTime + solveTime`` from a run's ``-s`` lines (the last of each);
    None without a ``solveTime``."""
    said = _statistics(out)
    if "solveTime" not in said:
        return None
    return sum(said.get(key, 0.0) for key in ("flatTime", "initTime", "solveTime"))


def _per_second(outcome: Outcome, statistic: str) -> str:
    """``statistic`` over the run's ``solveTime``; ``—`` where the run reports either
    not (or no time)."""
    count = outcome.statistics.get(statistic)
    seconds = outcome.statistics.get("solveTime", 0.0)
    return "—" if count is None or seconds <= 0 else f"{count / seconds:,.0f}"


def _method(model: Path, data: Path | None) -> str:
    """``sat``, ``min`` or ``max``: what the model asks, as minizinc reads it."""
    said = _interface(model, data)
    return str(said.get("method", "sat")) if said is not None else "sat"


def _outcome(out: str, err: str, code: int, seconds: float, method: str) -> Outcome:
    """What a minizinc run's output says."""
    if "=====UNSATISFIABLE=====" in out:
        return Outcome(SOLVED, None, seconds, "unsatisfiable", _solver_time(out), _statistics(out))
    found = "----------" in out
    if code != 0 and not found:
        lines = [x.strip() for x in err.splitlines() if x.strip() and "Warning" not in x]
        said = [x for x in lines if "rror" in x] or lines or [f"exit {code}"]
        return Outcome(ERROR, None, seconds, said[0][:60])
    values = [int(v) for v in OBJECTIVE.findall(out)]
    objective = values[-1] if values else None
    proved = "==========" in out or (method == "sat" and found)
    status = SOLVED if proved else FOUND if found else NONE
    return Outcome(
        status, objective, seconds, solver=_solver_time(out), statistics=_statistics(out)
    )


def _run(solver: list[str], model: Path, data: Path | None, limit: float, method: str) -> Outcome:
    """One solver on one instance, through minizinc, wall time included compiling."""
    free = ["-f"] if os.environ.get("MZN_FREE_SEARCH") else []
    command = [
        "minizinc",
        *solver,
        *free,
        "-s",
        "--time-limit",
        str(int(limit * 1000)),
        "--output-mode",
        "dzn",
        "--output-objective",
        str(model),
        *([str(data)] if data else []),
    ]
    started = time.perf_counter()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as running:
        try:
            out, err = running.communicate(timeout=limit + 30)
        except subprocess.TimeoutExpired:  # building the model outlasted the limit
            os.killpg(running.pid, signal.SIGKILL)
            out, err = running.communicate()
            err = err or "killed: over the time limit"
    seconds = time.perf_counter() - started
    return _outcome(out, err, running.returncode, seconds, method)


def _gecode(model: Path, data: Path | None, limit: float, method: str) -> Outcome:
    """Gecode with its own library, or the standard one where its own fails to compile."""
    first = _run(["--solver", "gecode"], model, data, limit, method)
    if first.status != ERROR or "rror" not in first.note:
        return first
    again = _run(["--solver", "gecode", "-G", "std"], model, data, limit, method)
    again.note = again.note or "std"
    return again


def _better(a: Outcome, b: Outcome, method: str) -> float:
    """The Borda point ``a`` takes from ``b`` (the challenge's complete scoring)."""
    rank = {SOLVED: 2, FOUND: 1, NONE: 0, ERROR: 0}
    if rank[a.status] == 0 or rank[b.status] == 0:
        return float(rank[a.status] > rank[b.status])
    differ = a.objective is not None and b.objective is not None and a.objective != b.objective
    if method != "sat" and differ:
        lower = (a.objective or 0) < (b.objective or 0)
        return float(lower if method == "min" else not lower)
    if a.status == SOLVED and b.status == SOLVED:
        total = a.seconds + b.seconds
        return b.seconds / total if total else 0.5
    if a.status != b.status:
        return float(a.status == SOLVED)
    return 0.5


def _solvers(config: Path) -> dict[str, list[str] | None]:
    """Each solver's name and its minizinc flags (Gecode's: None, see :func:`_gecode`)."""
    flags = os.environ.get("MZN_LAZYFUN_FLAGS", "").split()
    solvers: dict[str, list[str] | None] = {"lazyfun": ["--solver", str(config), *flags]}
    solvers["Gecode"] = None
    cpsat = os.environ.get("MZN_CPSAT")
    if cpsat:
        solvers["CP-SAT"] = ["--solver", cpsat, "-p", "1"]
    return solvers


def _table(
    folder: Path, limit: float, solvers: dict[str, list[str] | None], chosen: list[Instance]
) -> list[tuple[str, str, dict[str, Outcome]]]:
    rows = []
    names = list(solvers)
    print(
        f"  {'instance':38} {'kind':4} "
        + " ".join(f"{n:28}" for n in names)
        + f" {'lazyfun nodes/s':>15} {'learnt/s':>8}"
    )
    for model_name, data_name in chosen:
        model = folder / model_name
        data = folder / data_name if data_name else None
        if not model.exists() or (data is not None and not data.exists()):
            print(f"  {model_name}: not in $MZN_BENCHMARKS, left out")
            continue
        method = _method(model, data)
        outcomes = {
            name: _gecode(model, data, limit, method)
            if flags is None
            else _run(flags, model, data, limit, method)
            for name, flags in solvers.items()
        }
        label = Path(data_name or model_name).stem
        shown = " ".join(f"{outcomes[n].shown():28}" for n in names)
        ours = outcomes["lazyfun"]
        rates = f"{_per_second(ours, 'nodes'):>15} {_per_second(ours, 'nogoods'):>8}"
        problem = model_name.split("/")[0]
        print(f"  {problem + '/' + label:38} {method:4} {shown} {rates}", flush=True)
        rows.append((model_name, method, outcomes))
    return rows


def _chosen(
    folder: Path, accepts: Callable[[Path, Path | None], bool] = _accepts
) -> list[Instance]:
    """The set (:data:`INSTANCES` alone with ``$MZN_SET=39``, else grown over ``folder``,
    told in one line), the instances ``$MZN_INSTANCES`` keeps of it (all without it)."""
    if os.environ.get("MZN_SET", "").strip() == str(len(INSTANCES)):
        instances = INSTANCES
        print(f"  the {len(INSTANCES)} chosen by hand ($MZN_SET={len(INSTANCES)})")
    else:
        found = grown(folder, accepts)
        instances = found.instances
        print(f"  {len(instances)} instances: {found.told()}")
    words = [w.strip() for w in os.environ.get("MZN_INSTANCES", "").split(",") if w.strip()]
    if not words:
        return instances
    return [(m, d) for m, d in instances if any(w in f"{m} {d or ''}" for w in words)]


def _ratios(rows: list[tuple[str, str, dict[str, Outcome]]]) -> list[str]:
    """lazyfun's time over CP-SAT's where both solved, by solver time and by wall time,
    worst first; the verdict on the solver time."""
    both = [
        (m, o["lazyfun"], o["CP-SAT"])
        for m, _, o in rows
        if o["lazyfun"].status == o["CP-SAT"].status == SOLVED
    ]
    ratios = sorted(((a.seconds / b.seconds, a.wall / b.wall, m) for m, a, b in both), reverse=True)
    print("  lazyfun / CP-SAT where both solved (solver time, wall):")
    for solver, wall, model in ratios[:6]:
        print(f"    {Path(model).parent.name:24} {solver:6.1f}x {wall:6.1f}x")
    worst = ratios[0] if ratios else (0.0, 0.0, "none")
    wall = max((r[1] for r in ratios), default=0.0)
    return [
        verdict(
            "within 10x of CP-SAT's solver time where both prove",
            worst[0] <= 10,
            f"worst {worst[0]:.1f}x ({Path(worst[2]).parent.name}); by wall time worst {wall:.1f}x",
        )
    ]


def _borda(rows: list[tuple[str, str, dict[str, Outcome]]], names: list[str]) -> dict[str, float]:
    score = dict.fromkeys(names, 0.0)
    for _, method, outcomes in rows:
        for a, b in combinations(names, 2):
            score[a] += _better(outcomes[a], outcomes[b], method)
            score[b] += _better(outcomes[b], outcomes[a], method)
    return score


def main() -> list[str]:
    folder = os.environ.get("MZN_BENCHMARKS")
    if not folder or shutil.which("minizinc") is None:
        print("  skipped: set MZN_BENCHMARKS to the MiniZinc benchmarks (and install minizinc)")
        return []
    limit = float(os.environ.get("MZN_TIME_LIMIT", "60"))
    chosen = _chosen(Path(folder))
    with tempfile.TemporaryDirectory(prefix="lazyfun-mznc-") as configs:
        solvers = _solvers(install(Path(configs)))
        free = ", free search (-f)" if os.environ.get("MZN_FREE_SEARCH") else ""
        if os.environ.get("MZN_LAZYFUN_FLAGS", "").split():
            free += f", lazyfun with {os.environ['MZN_LAZYFUN_FLAGS'].strip()}"
        print(
            f"  {len(chosen)} instances run, {limit:g} s each, compiling included{free}; "
            "times: solver (flatTime + initTime + solveTime) / wall"
        )
        rows = _table(Path(folder), limit, solvers, chosen)
    names = list(solvers)
    found = {n: sum(o[n].status in (SOLVED, FOUND) for _, _, o in rows) for n in names}
    solved = {n: sum(o[n].status == SOLVED for _, _, o in rows) for n in names}
    scores = _borda(rows, names)
    for n in names:
        print(f"  {n:8} a solution on {found[n]}, solved {solved[n]}, Borda {scores[n]:.1f}")
    lines = [
        verdict(
            "a solution on at least as many instances as Gecode",
            found["lazyfun"] >= found["Gecode"],
            f"{found['lazyfun']} against {found['Gecode']} of {len(rows)}",
        ),
        verdict(
            "solved on at least as many instances as Gecode",
            solved["lazyfun"] >= solved["Gecode"],
            f"{solved['lazyfun']} against {solved['Gecode']} of {len(rows)}",
        ),
    ]
    refused = [m for m, _, o in rows if o["lazyfun"].status == ERROR]
    lines.append(
        verdict(
            "no instance refused",
            not refused,
            ", ".join(refused) or "none",
        )
    )
    if "CP-SAT" in names:
        lines += _ratios(rows)
    return lines


if __name__ == "__main__":
    main()
