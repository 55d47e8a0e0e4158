"""LogicEnvEval on our own environments: the paper's Table 2 columns, computed by the product.

For every task the harness prepares the environments exactly as the plugin does (same cache,
same keys, so a committed cache is reused), then runs the task's correct policy and its three
faulty ones in every scene and reports, per task and overall (the mean over every task):

* **PhyPR** per Table 1 dimension and on average: the share of scenes the independent checker
  passes (:mod:`pytest_logicenv.scenes.physics`);
* **LogCov**: the share of decision paths covered, from facts evaluated on the scenes;
* **SceVR**: the share of scenes where the correct policy passes (valid scenes); W.SceVR the
  share where the scene's witness passes (no correct policy needed);
* **FauDR** per fault class and on average: a faulty policy is detected when it does not pass
  in some *valid* scene (the paper excludes invalid scenes, where every policy would fail);
* **ST**: seconds to verify one policy over all the task's scenes (mean over its policies);
* **JI**: Jaccard index of the selected situations against the minimal set selected from the
  ground-truth plan, comparing situations by their question and answer text (with
  ``--planner llm``: against the minimal cover of the ground truth that shares most of them);
* **TypeMis** (``--planner llm`` only): ground-truth types no scene has and the judge accepts
  nothing in place of (:mod:`~.type_stand_ins`).

The overall row counts every task: one that produced nothing counts 0 (in all but ST and
TypeMis) and is named.

Layout of the inputs (so that others can add tasks)::

    TASKS_DIR/<task_id>.json        {"id", "description", "rooms", "plan": <paper's form>}
    PLANS_DIR/<task_id>.json        the formal plan with facts (default TASKS_DIR/../plans)
    POLICIES_DIR/<task_id>.py       a module with POLICIES = {"correct": factory, ...}
      or POLICIES_DIR/<task_id>/    correct.xml, counterfactual.xml, unreachable.xml,
                                    lackbranch.xml (BehaviorTree.CPP) or .py with policy()

Policy modules import your own code as ``python -m`` would: the current directory comes first
on ``sys.path``, then the policy's folder (so ``POLICIES_DIR/chores.py`` may import your
``chores`` package even though it shares its name).

Bad input is reported per task, never a crash of the whole evaluation: what stops a
measurement (an unreadable task, no environments, a policy that cannot be imported or built)
is one of the task's ``errors``; what is merely missing or found (a task without some policy,
policies for an unknown task, a faulty policy that passes everywhere) is one of its ``notes``.

The modules: :mod:`~.suite` (every task of a folder: ``logicenv eval``'s entry point),
:mod:`~.task` (one task's metrics), :mod:`~.policies` (a task's policies found in
POLICIES_DIR), :mod:`~.faults` (SceVR, FauDR and what revealed each fault), :mod:`~.llm_task`
(``--planner llm``: the model derives the plan), :mod:`~.ground_truth`, :mod:`~.role_binding`,
:mod:`~.type_stand_ins` and :mod:`~.best_cover` (judging scenes against a ground-truth plan
they were not made from: its roles bound by their facts, the types accepted in place of
others, JI against its best minimal cover), :mod:`~.eval_results` (what was measured) and
:mod:`~.table` (it as text); :mod:`~.witness_validity` gives SceVR from the scenes' witnesses
(W.SceVR), for a task without a correct policy.
"""

from pytest_logicenv.evaluation.eval_results import METRIC_KEYS, Evaluation, TaskResult
from pytest_logicenv.evaluation.policies import POLICY_KINDS, load_policies
from pytest_logicenv.evaluation.suite import evaluate
from pytest_logicenv.evaluation.table import format_table
from pytest_logicenv.evaluation.task import evaluate_task

__all__ = [
    "METRIC_KEYS",
    "POLICY_KINDS",
    "Evaluation",
    "TaskResult",
    "evaluate",
    "evaluate_task",
    "format_table",
    "load_policies",
]
