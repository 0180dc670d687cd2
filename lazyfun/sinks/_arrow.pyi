from typing import Any

def columns(
    records: list[Any], kind: type, names: tuple[str, ...], /
) -> list[tuple[str, int, bytes | None, bytes | None, bytes] | None] | None: ...
