"""Human steps: the techniques a person uses (:mod:`~lazyfun.sudoku.steps.techniques`),
the walk that applies the easiest one at a time (:mod:`~lazyfun.sudoku.steps.deduction`)
and the rating on the Sudoku Explainer scale (:mod:`~lazyfun.sudoku.steps.rating`)."""
