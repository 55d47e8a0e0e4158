"""Plan documents and files in any accepted form: ours, the paper's list, or a task file.

>>> plan_from_document({"plan": [{"Is the window open?": {"YES": "Close it.", "NO": "No."}}],
...                     "description": "Close the window.", "rooms": ["Bedroom"]}).rooms
('Bedroom',)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path as FilePath
from typing import Any

from pytest_logicenv.bounded import load_json_text, read_bounded
from pytest_logicenv.errors import PlanError, Violation
from pytest_logicenv.logic.plan.paper import plan_from_paper
from pytest_logicenv.logic.plan.plan_json import PLAN_FORMAT, plan_from_json
from pytest_logicenv.logic.plan.plan_model import Plan


def plan_from_document(data: Any, source: str = "plan") -> Plan:
    """Read any accepted plan document: ours, the paper's list, or a task file with ``plan``."""
    if isinstance(data, Mapping) and "format" in data:
        return plan_from_json(data, source)
    if isinstance(data, Mapping) and "plan" in data:
        rooms = data.get("rooms") or ()
        return plan_from_paper(
            data["plan"],
            task=str(data.get("description", "")),
            rooms=tuple(rooms) if isinstance(rooms, list) else (),
            source=source,
        )
    if isinstance(data, list):
        return plan_from_paper(data, source=source)
    raise PlanError(
        source,
        [
            Violation(
                "syntax",
                "plan",
                f'not a plan: expected our format (with "format": "{PLAN_FORMAT}"), '
                "the paper's list of question trees, or a task file with a 'plan' key",
            )
        ],
    )


def load_plan(path: str | FilePath) -> Plan:
    """Read a plan file in any accepted form; errors name the file."""
    path = FilePath(path)
    return plan_from_document(_read_json(path), str(path))


def plan_type_file(path: str | FilePath | None) -> FilePath | None:
    """The type file the plan at ``path`` names (its ``types``, relative to the plan file), or
    ``None``: no plan, none named, or a plan that cannot be read (reading it says why)."""
    if path is None:
        return None
    try:
        plan = load_plan(path)
    except PlanError:
        return None
    return FilePath(path).parent / plan.types if plan.types else None


def _read_json(path: FilePath) -> Any:
    def fail(reason: str) -> PlanError:
        return PlanError(str(path), [Violation("syntax", "file", reason.split(": ", 1)[-1])])

    def invalid(error: json.JSONDecodeError) -> PlanError:
        where = f"line {error.lineno} column {error.colno}"
        return PlanError(str(path), [Violation("syntax", where, f"not valid JSON: {error.msg}")])

    try:
        text = read_bounded(path)
    except FileNotFoundError:
        raise PlanError(str(path), [Violation("syntax", "file", "no such file")]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise PlanError(str(path), [Violation("syntax", "file", str(error))]) from None
    return load_json_text(text, str(path), fail, invalid)
