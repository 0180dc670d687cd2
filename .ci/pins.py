"""What moved between two lock files: ``python .ci/pins.py OLD NEW``.

A line a package whose pin differs, ``name: old -> new`` (``-`` where one file has none),
for this interpreter and platform: a universal lock's pins are read through their
environment markers, so a package pinned twice (once per Python range) counts once.
"""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement


def pins(path: Path) -> dict[str, str]:
    """The ``name: version`` of each pin in the requirements file ``path`` that applies here."""
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line[:1].isalnum():
            continue
        requirement = Requirement(line)
        if requirement.marker is None or Marker(str(requirement.marker)).evaluate():
            found[requirement.name.lower()] = str(requirement.specifier).removeprefix("==")
    return found


def main(old: str, new: str) -> int:
    before, after = pins(Path(old)), pins(Path(new))
    moved = [
        f"  {name}: {before.get(name, '-')} -> {after.get(name, '-')}"
        for name in sorted(before.keys() | after.keys())
        if before.get(name) != after.get(name)
    ]
    print(f"{len(moved)} pins moved" + (":" if moved else ""), *moved, sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
