"""The logic stage: what a task's decision logic is, and which situations cover it.

* :mod:`~pytest_logicenv.logic.plan`: the behavior plan (paper Definition 1): subtasks, their
  uncertain factors and one decision tree each; our JSON form and the paper's plain form.
* :mod:`~pytest_logicenv.logic.facts`: the facts language that says what a scene must hold
  (realizations) and what must hold when a subtask is done (goals), with one evaluator for
  scenes and for the simulator's world.
* :mod:`~pytest_logicenv.logic.rules`: the rule checks on a plan (independence, syntax,
  grounding, facts), each violation located and worded for a person or an LLM.
* :mod:`~pytest_logicenv.logic.trajectories`: decision paths, trajectories and the selection
  strategies that cover every path (paper 4.3).
* :mod:`~pytest_logicenv.logic.coverage`: condition and path coverage (LogCov), counted only
  from facts evaluated on scenes that ran.

Nothing here imports z3, py_trees or openai.
"""
