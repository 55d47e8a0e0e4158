"""The policies of a task, found in POLICIES_DIR by the layout the package docstring gives."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_logicenv.sim.outcome import FAULTS
from pytest_logicenv.sim.policy_file import import_policy_file

#: The policies a task may have: its correct one and one per fault class.
POLICY_KINDS = ("correct", *FAULTS)

PolicyFactory = Any  # a py_trees factory or an XML path; run_policy accepts both


def load_policies(
    policies_dir: Path, task_id: str
) -> tuple[dict[str, PolicyFactory], list[str], list[str]]:
    """The policies of one task, by kind, notes on what is missing, and errors (policies
    that exist but cannot be loaded)."""
    module_path = policies_dir / f"{task_id}.py"
    folder = policies_dir / task_id
    if module_path.is_file():
        policies, errors = _from_module(module_path)
        if errors:
            return {}, [], errors
    elif folder.is_dir():
        policies, errors = _from_folder(folder)
    else:
        return {}, [f"no policies: expected {module_path} or {folder}/"], []
    notes = [f"no {kind} policy" for kind in POLICY_KINDS if kind not in policies]
    return policies, notes, errors


def _from_module(path: Path) -> tuple[dict[str, PolicyFactory], list[str]]:
    """``POLICIES = {"correct": factory, ...}`` of a Python module."""
    try:
        module = import_policy_file(path)
    except Exception as error:  # user code: report, never crash the evaluation
        return {}, [f"{path}: cannot be imported ({type(error).__name__}: {error})"]
    found = getattr(module, "POLICIES", None)
    if not isinstance(found, Mapping):
        return {}, [f"{path}: defines no POLICIES mapping (kind -> factory)"]
    return {str(k): v for k, v in found.items() if k in POLICY_KINDS}, []


def _from_folder(folder: Path) -> tuple[dict[str, PolicyFactory], list[str]]:
    """``<kind>.xml`` (BehaviorTree.CPP) or ``<kind>.py`` with ``policy()``, per kind."""
    policies: dict[str, PolicyFactory] = {}
    errors: list[str] = []
    for kind in POLICY_KINDS:
        xml, script = folder / f"{kind}.xml", folder / f"{kind}.py"
        if xml.is_file():
            policies[kind] = xml
        elif script.is_file():
            try:
                policies[kind] = import_policy_file(script).policy
            except Exception as error:
                errors.append(f"{script}: no usable policy() ({type(error).__name__}: {error})")
    return policies, errors


def unknown_task_notes(policies_dir: Path, task_ids: set[str]) -> list[str]:
    """A note per set of policies in ``policies_dir`` whose task has no task file."""
    notes = []
    for candidate in sorted(policies_dir.iterdir()) if policies_dir.is_dir() else []:
        name = candidate.stem if candidate.suffix == ".py" else candidate.name
        if _holds_policies(candidate) and name not in task_ids:
            notes.append(f"{candidate}: policies for an unknown task {name!r} (no {name}.json)")
    return notes


def _holds_policies(path: Path) -> bool:
    if path.is_dir():
        return any((path / f"{kind}.xml").exists() for kind in POLICY_KINDS)
    if path.suffix != ".py" or path.name.startswith(("test_", "_", "conftest")):
        return False
    try:
        return "POLICIES" in path.read_text(encoding="utf-8")
    except OSError:
        return False
