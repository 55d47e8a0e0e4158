"""The simulator stage: a behavior-tree policy acting in a symbolic world built from a Scene.

* :mod:`~pytest_logicenv.sim.world`: the mutable state of one run (objects, parents, states,
  the agent), copied on write; :mod:`~.world_index`: its lookups by id, type, role, property,
  whole and parent.
* :mod:`~pytest_logicenv.sim.actions`: what the agent can do, with preconditions
  (:mod:`~.preconditions`) and effects after AI2-THOR (and :mod:`~.physics`: heat and running
  water after every action); a broken precondition is a structured violation; the actions
  table (``docs/actions.md``) is made from those rules (:mod:`~.action_docs`). What each action
  makes true and what its rules ask are data too (``Change``, ``Requirement``), and its effect
  is made of them.
* :mod:`~pytest_logicenv.sim.achievable`: goal facts of a plan no sequence of actions can
  make true, read from that data before any scene (the plan checks' ``goal`` and ``label``).
* :mod:`~pytest_logicenv.sim.agent`: the API a policy acts and looks through, binding a call's
  ports to objects (:mod:`~.binding`, with :mod:`~.selectors`), the world shown only as a
  read-only view (:mod:`~.view`).
* :mod:`~pytest_logicenv.sim.leaves` and :mod:`~pytest_logicenv.sim.controls`: py_trees
  leaves (one per action, conditions over facts) and control helpers: what policies are built
  of (public).
* :mod:`~pytest_logicenv.sim.bt`: BehaviorTree.CPP v4 XML, run as BT.CPP runs it.
* :mod:`~pytest_logicenv.sim.runner`: run a policy in a scene, bounded (ticks, and each
  tick's wall-clock time) and isolated, its world checked against its trace's replay
  (:mod:`~.tamper`), with what it makes of a scene alone made once per scene
  (:mod:`~.scene_memo`: its names, its world as built);
  :mod:`~.branches`: diagnosis by branch; :mod:`~.policy_file`: a user's Python file of
  policies imported as a module.
* :mod:`~pytest_logicenv.sim.judge`: what a run is judged by (a ``Situation``: scene, goal,
  answers, branches, known names) and ``judge``, the one way every caller runs a policy;
  :mod:`~.situation_file`: a scene file that carries its situation.
* :mod:`~pytest_logicenv.sim.outcome`: what a run ended in (pass, counterfactual,
  unreachable, lackbranch, error), with its trace and an explanation in the policy's own
  names (:mod:`~.naming`); :mod:`~.run_file`: runs read back from JSON.
"""
