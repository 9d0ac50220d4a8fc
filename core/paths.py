"""Paths into data written in an instruction: ``$.data.items[*].sku``, ``data.items[0]``,
``meta.page``.

A path is an optional ``$`` (the whole value), then steps: ``.key`` (the first may be written
without its dot when there is no ``$``), ``[n]`` (an index of an array) and ``[*]`` (every
item of an array: the rest of the path is taken from each, and the values found make one
flat array, as JSONPath gives them). Every step must exist in the data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

WILDCARD = "*"
Step = str | int  # a key, an index, or WILDCARD

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_STEP = rf"\.{_NAME}|\[(?:\d+|\*)\]"
# A path as written in text: "$" and steps, or a name and at least one step.
PATH = re.compile(rf"\$(?:{_STEP})*|{_NAME}(?:{_STEP})+")
_STEPS = re.compile(rf"\.({_NAME})|\[(\d+|\*)\]")


class PathMissing(LookupError):
    """A step of the path is not in the data."""


def parse_path(text: str) -> list[Step] | None:
    """The steps of ``text`` when it is a path, else None."""
    if not PATH.fullmatch(text):
        return None
    rest = text[1:] if text.startswith("$") else "." + text
    steps: list[Step] = []
    for m in _STEPS.finditer(rest):
        if m[1] is not None:
            steps.append(m[1])
        else:
            steps.append(WILDCARD if m[2] == WILDCARD else int(m[2]))
    return steps


def has_wildcard(steps: list[Step]) -> bool:
    return WILDCARD in steps


def walk(value: Any, steps: list[Step]) -> Any:
    """The value at ``steps`` in ``value``; a list of values for a path with ``[*]``;
    ``PathMissing`` when a step is not there (an empty array under ``[*]`` is not there)."""
    for i, step in enumerate(steps):
        if step == WILDCARD:
            if not isinstance(value, list) or not value:
                raise PathMissing(f"step {i + 1} ([*]) needs a non-empty array")
            rest = steps[i + 1 :]
            found = [walk(item, rest) for item in value]
            if has_wildcard(rest):
                return [v for part in found for v in part]
            return found
        if isinstance(step, int):
            if not isinstance(value, list) or step >= len(value):
                raise PathMissing(f"step {i + 1} ([{step}]) is not an index of an array there")
            value = value[step]
        elif isinstance(value, Mapping) and step in value:
            value = value[step]
        else:
            raise PathMissing(f"step {i + 1} ({step!r}) is not a key there")
    return value
