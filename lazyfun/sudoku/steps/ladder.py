"""The ladder: the techniques in the order Sudoku Explainer tries them (mostly that of
their ratings), one declared table, :data:`LADDER`.  Each :class:`Technique` has its
name, its SE rating, its family, what it says and the function that finds it;
:data:`TECHNIQUES`, :data:`RATINGS` and :data:`SINGLES` are read off it, and so is the
table in the docs (:func:`ladder_table`).  A variant's ladder (:func:`variant_ladder`)
is the singles, the rules' own techniques (:func:`rule_ladder`), the steps across rules
and units, the rest short of SE's forcing chains, and the variant's forcing chains.
:mod:`lazyfun.sudoku.steps.deduction` walks a puzzle with them (and names all of these
too).

>>> LADDER[0].name, LADDER[0].rating
('full house', 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lazyfun.sudoku.steps import chaining, forcing, rule_techniques, variant_techniques
from lazyfun.sudoku.steps.aligned import aligned_pair_exclusion, aligned_triple_exclusion
from lazyfun.sudoku.steps.chaining import chains_and_cycles
from lazyfun.sudoku.steps.forcing import (
    dynamic_forcing_chains,
    dynamic_forcing_chains_plus,
    multiple_forcing_chains,
    nested_forcing_chains,
    nested_multiple_forcing_chains,
    nishio_forcing_chains,
)
from lazyfun.sudoku.steps.state import Finder
from lazyfun.sudoku.steps.strong_links import strong_links as linked
from lazyfun.sudoku.steps.techniques import (
    claiming,
    direct_claiming,
    direct_hidden_subset,
    direct_pointing,
    fish,
    full_house,
    hidden_single_box,
    hidden_single_line,
    hidden_subset,
    naked_single,
    naked_subset,
    pointing,
)
from lazyfun.sudoku.steps.uniqueness import bug, unique_loops
from lazyfun.sudoku.steps.wings import wing, wxyz_wing, xy_wing, xyz_wing

__all__ = [
    "LADDER",
    "RATINGS",
    "SE_FORCING",
    "SINGLES",
    "TECHNIQUES",
    "VARIANT_CHAINS",
    "VARIANT_TECHNIQUES",
    "Family",
    "Ladder",
    "Technique",
    "ladder_table",
    "rule_ladder",
    "variant_ladder",
]

Family = Literal["single", "rule", "intersection", "subset", "fish", "wing", "uniqueness", "chain"]


@dataclass(frozen=True, slots=True)
class Technique:
    """One rung of the ladder: a technique's name, its Sudoku Explainer rating (None
    for a variant rule's technique: the SE scale has none), its family, what it says,
    and the function that finds it in a state."""

    name: str
    rating: float | None
    family: Family
    says: str
    find: Finder


LADDER: tuple[Technique, ...] = (
    Technique(
        "full house", 1.0, "single", "a unit has one empty cell: its missing value", full_house
    ),
    Technique(
        "hidden single (box)",
        1.2,
        "single",
        "a value has one place left in a box",
        hidden_single_box,
    ),
    Technique(
        "hidden single (line)",
        1.5,
        "single",
        "a value has one place left in a row or column",
        hidden_single_line,
    ),
    Technique(
        "direct pointing",
        1.7,
        "intersection",
        "a box's value confined to one line leaves a hidden single in another box on it",
        direct_pointing,
    ),
    Technique(
        "direct claiming",
        1.9,
        "intersection",
        "a line's value confined to one box leaves a hidden single in a parallel line",
        direct_claiming,
    ),
    Technique(
        "direct hidden pair",
        2.0,
        "subset",
        "two values of a unit fit only two cells: another value of the unit has one place",
        direct_hidden_subset(2),
    ),
    Technique("naked single", 2.3, "single", "a cell has one candidate left", naked_single),
    Technique(
        "direct hidden triple",
        2.5,
        "subset",
        "three values of a unit fit only three cells: another value of the unit has one place",
        direct_hidden_subset(3),
    ),
    Technique(
        "pointing",
        2.6,
        "intersection",
        "a box's value is confined to one line: not elsewhere on that line",
        pointing,
    ),
    Technique(
        "claiming",
        2.8,
        "intersection",
        "a line's value is confined to one box: not elsewhere in that box",
        claiming,
    ),
    Technique(
        "naked pair", 3.0, "subset", "two cells of a unit hold the same two values", naked_subset(2)
    ),
    Technique(
        "X-wing",
        3.2,
        "fish",
        "a value in two rows sits in the same two columns (or the other way round)",
        fish(2),
    ),
    Technique(
        "hidden pair", 3.4, "subset", "two values of a unit fit only two cells", hidden_subset(2)
    ),
    Technique(
        "naked triple",
        3.6,
        "subset",
        "three cells of a unit hold only three values",
        naked_subset(3),
    ),
    Technique("swordfish", 3.8, "fish", "the X-wing on three lines", fish(3)),
    Technique(
        "hidden triple",
        4.0,
        "subset",
        "three values of a unit fit only three cells",
        hidden_subset(3),
    ),
    Technique(
        "strong links (2)",
        4.0,  # 4.0 to 4.3 by the links' kinds: see lazyfun.sudoku.steps.strong_links
        "chain",
        "two strong links of a value (two places, or groups of places, in a unit) joined by"
        " a weak link: the ends cannot both lack it (skyscraper, 2-string kite, turbot fish)",
        linked(2),
    ),
    Technique(
        "XY-wing",
        4.2,
        "wing",
        "a pivot {a,b} sees {a,c} and {b,c}: c goes from the cells that see both pincers",
        xy_wing,
    ),
    Technique(
        "XYZ-wing",
        4.4,
        "wing",
        "a pivot {a,b,c} sees {a,c} and {b,c}: c goes from the cells that see all three",
        xyz_wing,
    ),
    Technique(
        "unique loops",
        4.5,  # 4.5 to 5.0 by the loop's length and type: see lazyfun.sudoku.steps.uniqueness
        "uniqueness",
        "two values in a ring of cells would swap into a second solution: what breaks the"
        " ring (a cell's other values, ...) must hold",
        unique_loops,
    ),
    Technique(
        "naked quad", 5.0, "subset", "four cells of a unit hold only four values", naked_subset(4)
    ),
    Technique("jellyfish", 5.2, "fish", "the X-wing on four lines", fish(4)),
    Technique(
        "hidden quad", 5.4, "subset", "four values of a unit fit only four cells", hidden_subset(4)
    ),
    Technique(
        "strong links (3)",
        5.4,  # 5.4 to 5.7
        "chain",
        "three strong links of a value joined end to end: the ends cannot both lack it",
        linked(3),
    ),
    Technique(
        "WXYZ-wing",
        5.5,
        "wing",
        "three cells that see one another hold four values, a cell {x,z} sees all that hold"
        " x: z goes from the cells that see all that hold it",
        wxyz_wing(False),
    ),
    Technique(
        "WXYZ-wing (3)",
        5.6,
        "wing",
        "the WXYZ-wing whose biggest cell of the four holds three values",
        wxyz_wing(True),
    ),
    Technique(
        "BUG",
        5.6,
        "uniqueness",
        "every cell but one has two candidates and every value two places in each unit:"
        " the odd cell holds the value with three (type 1, 5.6); with more odd cells, their"
        " one extra value leaves what sees them all (2), a value they share in a unit is"
        " theirs (4), or their extra values and a naked set leave the unit (3, 5.8-6.2)",
        bug,
    ),
    Technique(
        "strong links (4)",
        5.8,  # 5.8 to 6.1
        "chain",
        "four strong links of a value joined end to end: the ends cannot both lack it",
        linked(4),
    ),
    Technique(
        "VWXYZ-wing",
        6.2,  # 6.2 to 6.4 by the set's biggest cell
        "wing",
        "four cells that see one another hold five values, a cell {x,z} sees all that hold"
        " x: z goes from the cells that see all that hold it",
        wing(4),
    ),
    Technique(
        "aligned pair exclusion",
        6.2,
        "wing",
        "two cells and two or more cells of two candidates that see both: a candidate that"
        " no pair of values leaving every such cell a value (and no peers alike) gives its"
        " cell goes",
        aligned_pair_exclusion,
    ),
    Technique(
        "UVWXYZ-wing",
        6.6,
        "wing",
        "five cells that see one another hold six values, a cell {x,z} sees all that hold"
        " x: z goes from the cells that see all that hold it",
        wing(5),
    ),
    Technique(
        "chains and cycles",
        6.5,  # each step rated by its kind and length: see lazyfun.sudoku.steps.chaining
        "chain",
        "candidates turned on and off along links: a loop (X-, Y- or XY-cycle) strikes what"
        " sees both its states; a forcing chain that turns a candidate into its opposite"
        " decides it",
        chains_and_cycles,
    ),
    Technique(
        "TUVWXYZ-wing",
        7.5,
        "wing",
        "six cells that see one another hold seven values, a cell {x,z} sees all that hold"
        " x: z goes from the cells that see all that hold it (tried where no chain of one"
        " line is found)",
        wing(6),
    ),
    Technique(
        "aligned triple exclusion",
        7.5,
        "wing",
        "three cells and two or more cells of two or three candidates that see them all: a"
        " candidate that no triple of values leaving every such cell a value gives its cell"
        " goes",
        aligned_triple_exclusion,
    ),
    Technique(
        "nishio forcing chains",
        7.5,
        "chain",
        "a candidate whose being on (or off), followed as far as it goes striking what it"
        " turns off, turns some candidate both on and off: it is off (on)",
        nishio_forcing_chains,
    ),
    Technique(
        "multiple forcing chains",
        8.0,
        "chain",
        "every candidate of a cell, or every place of a value in a unit, followed through"
        " its links, turns the same candidate on (or off): it is",
        multiple_forcing_chains,
    ),
    Technique(
        "dynamic forcing chains",
        8.5,
        "chain",
        "the forcing chains again, each striking what it turns off as it goes (so new"
        " singles turn on); and a candidate that leads to a contradiction, or whose being"
        " on and off lead to the same, decides it",
        dynamic_forcing_chains,
    ),
    Technique(
        "dynamic forcing chains (+)",
        9.0,
        "chain",
        "the dynamic forcing chains, which, where their links run dry, look on their grid"
        " for a pointing, claiming, hidden or naked pair or X-wing that rests on what they"
        " struck, and go on from what it strikes",
        dynamic_forcing_chains_plus,
    ),
    Technique(
        "nested forcing chains",
        9.5,
        "chain",
        "the dynamic forcing chains (+), which, where those rules find nothing either, look"
        " on their grid for the cycles and forcing chains of one line that rest on what"
        " they struck, and go on from what those strike",
        nested_forcing_chains,
    ),
    Technique(
        "nested multiple forcing chains",
        10.0,
        "chain",
        "the nested forcing chains, which, where the chains of one line find nothing either,"
        " look on their grid for the cell and region forcing chains that rest on what they"
        " struck, and go on from what those strike",
        nested_multiple_forcing_chains,
    ),
)


# Sudoku Explainer's forcing chains from many starts (lazyfun.sudoku.steps.forcing):
# the classic grid's; a variant has its own, which follow its rules too.
SE_FORCING = (
    "nishio forcing chains",
    "multiple forcing chains",
    "dynamic forcing chains",
    "dynamic forcing chains (+)",
    "nested forcing chains",
    "nested multiple forcing chains",
)


def rule_ladder() -> Ladder:
    """The variants' own techniques, tried after the singles (a rule read alone): one
    for each registered kind of rule that names a technique, in their order."""
    return tuple(
        Technique(technique.name, None, "rule", technique.says, rule_techniques.finder(kind))
        for technique, kind in rule_techniques.techniques()
    )


TECHNIQUES: tuple[str, ...] = tuple(t.name for t in LADDER)
RATINGS: dict[str, float] = (
    {t.name: t.rating for t in LADDER if t.rating is not None} | chaining.BASES | forcing.BASES
)
SINGLES: tuple[str, ...] = tuple(t.name for t in LADDER if t.family == "single")


def ladder_table(ladder: tuple[Technique, ...] = LADDER) -> str:
    """The ladder as a Markdown table: technique, SE rating, family, what it says
    (``ladder_table(variant_ladder())`` for a variant's)."""
    rows = ["| technique | SE | family | what it says |", "|---|---|---|---|"]
    rows += [f"| {t.name} | {t.rating or '-'} | {t.family} | {t.says} |" for t in ladder]
    rows.append(
        "| bifurcation | - | guess | none applies: a labelled guess, checked by the engine |"
    )
    return "\n".join(rows)


Ladder = tuple[Technique, ...]


VARIANT_TECHNIQUES: Ladder = (
    Technique(
        "innie",
        None,
        "rule",
        "45 rule: the cells of whole units outside the cages inside them make what the"
        " cages leave of 45 a unit",
        variant_techniques.innie,
    ),
    Technique(
        "outie",
        None,
        "rule",
        "45 rule: the cells of the cages sticking out of whole units make what the"
        " cages exceed 45 a unit by",
        variant_techniques.outie,
    ),
    Technique(
        "45 rule",
        None,
        "rule",
        "the innies of whole units less their outies make a known difference",
        variant_techniques.rule_45,
    ),
    Technique(
        "cage pointing",
        None,
        "rule",
        "a value every open combination of a cage holds is in the cage: not in the cells"
        " that see all its places there",
        variant_techniques.cage_pointing,
    ),
)

VARIANT_CHAINS: Ladder = (
    Technique(
        "nishio",
        None,
        "chain",
        "a value whose singles run into a contradiction (a cell or a unit left empty) goes",
        variant_techniques.nishio,
    ),
    Technique(
        "cell forcing chain",
        None,
        "chain",
        "every value of a cell, followed through its singles, places the same value"
        " elsewhere (or strikes the same candidate)",
        variant_techniques.cell_forcing_chain,
    ),
    Technique(
        "unit forcing chain",
        None,
        "chain",
        "every place of a value in a unit, followed through what it forces, places the"
        " same value elsewhere (or strikes the same candidate)",
        variant_techniques.unit_forcing_chain,
    ),
)


def variant_ladder() -> Ladder:
    """The ladder of a variant's steps: the singles, then the rules' own techniques
    (:func:`rule_ladder`) and the steps across rules and units
    (:data:`VARIANT_TECHNIQUES`: the 45 rule, cage pointing), then the rest of
    :data:`LADDER` short of Sudoku Explainer's forcing chains from many starts, then
    the forcing chains over the variant's units, peers and rules
    (:data:`VARIANT_CHAINS`) before a guess."""
    singles = tuple(t for t in LADDER if t.family == "single")
    rest = tuple(
        t for t in LADDER if t.family not in ("single", "uniqueness") and t.name not in SE_FORCING
    )
    return singles + rule_ladder() + VARIANT_TECHNIQUES + rest + VARIANT_CHAINS
