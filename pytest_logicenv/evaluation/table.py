"""The evaluation as text: the paper's Table 2 columns (and the class accuracy), what each
fault was revealed as, then every task's errors and notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_logicenv.evaluation.eval_results import Evaluation

#: (header, metric key), in the paper's column order.
COLUMNS = (
    ("Floor", "PhyPR_floor_plan"),
    ("Entity", "PhyPR_entity"),
    ("Relat.", "PhyPR_relation"),
    ("PhyPR", "PhyPR"),
    ("LogCov", "LogCov"),
    ("SceVR", "SceVR"),
    ("W.SceVR", "SceVR_witness"),
    ("CFact.", "FauDR_counterfactual"),
    ("Unreach", "FauDR_unreachable"),
    ("LBranch", "FauDR_lackbranch"),
    ("FauDR", "FauDR"),
    ("Class", "ClassAcc"),
    ("ST(s)", "ST"),
    ("JI", "JI"),
)
#: Shown for plans by the LLM only: ground-truth types no scene has (``type_stand_ins``).
LLM_COLUMNS = (("TypeMis", "TypeMis"),)


def format_table(evaluation: Evaluation) -> list[str]:
    """Table 2's columns, one row per task and an overall row."""
    width = max([len("overall"), *(len(t.task_id) for t in evaluation.tasks)])
    columns = (*COLUMNS, *LLM_COLUMNS) if evaluation.planner == "llm" else COLUMNS
    head = f"{'task':<{width}} {'scenes':>6} " + " ".join(f"{name:>7}" for name, _ in columns)
    source = ", plans by the LLM, judged against PLANS_DIR" if evaluation.planner == "llm" else ""
    title = f"LogicEnvEval ({evaluation.strategy} strategy{source})"
    lines = [title, head, "-" * len(head)]
    for task in evaluation.tasks:
        lines.append(_row(task.task_id, width, str(task.scenes), task.metrics, columns))
    lines.append("-" * len(head))
    total = sum(t.scenes for t in evaluation.tasks)
    lines.append(_row("overall", width, str(total), evaluation.overall, columns))
    if evaluation.overall_note:
        lines.append(evaluation.overall_note)
    lines += _findings(evaluation)
    for task in evaluation.tasks:
        lines += [f"{task.task_id}: error: {error}" for error in task.errors]
        lines += [f"{task.task_id}: {note}" for note in task.notes]
    return lines + list(evaluation.notes)


def _row(
    name: str,
    width: int,
    scenes: str,
    metrics: Mapping[str, float | None],
    columns: Sequence[tuple[str, str]],
) -> str:
    cells = [f"{_cell(metrics.get(key), 4 if key == 'ST' else 2):>7}" for _, key in columns]
    return f"{name:<{width}} {scenes:>6} " + " ".join(cells)


def _cell(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _findings(evaluation: Evaluation) -> list[str]:
    """Per task, each declared fault and the class that revealed it, in how many scenes."""
    tasks = [task for task in evaluation.tasks if task.findings]
    if not tasks:
        return []
    width = max(len(task.task_id) for task in tasks)
    lines = ["", "faults: declared -> revealed as (valid scenes revealing it)"]
    for task in tasks:
        valid = sum(kind == "pass" for kind in task.runs.get("correct", ()))
        cells = []
        for finding in task.findings:
            shown = finding.revealed_as or "not revealed"
            mark = "" if finding.matches or not finding.revealed else " MISMATCH"
            cells.append(f"{finding.fault} -> {shown}{mark} ({len(finding.scenes)}/{valid})")
        lines.append(f"{task.task_id:<{width}}  " + "; ".join(cells))
    return lines
