"""pytest-logicenv: logically diverse simulated environments for testing behavior-tree policies.

The names below are the stable public API; anything imported from a submodule is internal and
may move between releases (the leaves and controls of :mod:`pytest_logicenv.sim.leaves` and
:mod:`pytest_logicenv.sim.controls`, which policies are built of, are public too). Importing this
package is cheap: each name is imported on first use (PEP 562), because pytest loads the plugin
in every run and z3, openai and py_trees are heavy.

**Modules**, ground floor first (a module imports only its own layer or lower ones; the map is
``docs/explanation/architecture.md``):

* :mod:`~.errors`, :mod:`~.bounded`, :mod:`~.vocabulary`, :mod:`~.version`, :mod:`~.atomic`,
  :mod:`~.workdir`, :mod:`~.deferred`: every exception and warning, JSON read within bounds,
  the words for object types, the version, files written whole or not at all, the
  ``.logicenv/`` work folder, a package's names imported on first use;
* :mod:`~.logic`: plans, facts, plan rules, trajectories and coverage;
* :mod:`~.scenes`: design, layout, the physics check, realization and export;
* :mod:`~.sim`: the simulator, its leaves, BehaviorTree.CPP XML, the runner and outcomes;
* :mod:`~.mutation`, :mod:`~.llm`, :mod:`~.witness`, :mod:`~.render`: a policy's mutants, plans
  and designs from an LLM, proofs that a scene's task can be done, pictures of a scene and a
  run;
* :mod:`~.cache`, :mod:`~.pipeline`: the committed cache, one marked test's environments;
* :mod:`~.report`, :mod:`~.evaluation`, :mod:`~.strategies`: the LogCov report, the
  LogicEnvEval metrics, Hypothesis strategies for scenes;
* :mod:`~.session`, :mod:`~.cli`: the pytest side and the ``logicenv`` command;
* :mod:`~.plugin`, :mod:`~.hookspec`: the plugin's hooks, and the hooks others implement.

>>> import pytest_logicenv as logicenv
>>> logicenv.run_policy.__module__
'pytest_logicenv.sim.runner'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pytest_logicenv.errors import (
    AnswerError,
    CacheError,
    CacheRebuilt,
    CatalogHookWarning,
    EnrichmentError,
    ExpectFaultError,
    FactError,
    LayoutError,
    LayoutTimeout,
    LLMError,
    LogicEnvError,
    LogicEnvWarning,
    MarkerError,
    PlanError,
    PlanNotAcceptedError,
    PolicyError,
    PolicyFault,
    SceneError,
    SelectionError,
    TypeFileError,
    Violation,
)
from pytest_logicenv.version import __version__

if TYPE_CHECKING:
    from pytest_logicenv.llm.exchange import LLMRequestError, PlanDerivationError, SceneDesignError
    from pytest_logicenv.logic.facts import evaluate, parse_fact
    from pytest_logicenv.logic.plan import Plan, load_plan
    from pytest_logicenv.logic.trajectories import Selection, Trajectory, select
    from pytest_logicenv.scenes.scene_json import load_scene
    from pytest_logicenv.scenes.scene_model import Scene
    from pytest_logicenv.session.fixture import LogicEnv
    from pytest_logicenv.sim.bt.policy import XmlPolicy, load_bt_xml
    from pytest_logicenv.sim.outcome import Outcome
    from pytest_logicenv.sim.runner import run_policy


#: Public name -> the module that defines it; imported when first asked for.
_LAZY = {
    "LogicEnv": "pytest_logicenv.session.fixture",
    "Outcome": "pytest_logicenv.sim.outcome",
    "run_policy": "pytest_logicenv.sim.runner",
    "load_bt_xml": "pytest_logicenv.sim.bt.policy",
    "XmlPolicy": "pytest_logicenv.sim.bt.policy",
    "Plan": "pytest_logicenv.logic.plan",
    "load_plan": "pytest_logicenv.logic.plan",
    "select": "pytest_logicenv.logic.trajectories",
    "Selection": "pytest_logicenv.logic.trajectories",
    "Trajectory": "pytest_logicenv.logic.trajectories",
    "parse_fact": "pytest_logicenv.logic.facts",
    "evaluate": "pytest_logicenv.logic.facts",
    "Scene": "pytest_logicenv.scenes.scene_model",
    "LLMRequestError": "pytest_logicenv.llm.exchange",
    "PlanDerivationError": "pytest_logicenv.llm.exchange",
    "SceneDesignError": "pytest_logicenv.llm.exchange",
    "load_scene": "pytest_logicenv.scenes.scene_json",
}

__all__ = [
    "AnswerError",
    "CacheError",
    "CacheRebuilt",
    "CatalogHookWarning",
    "EnrichmentError",
    "ExpectFaultError",
    "FactError",
    "LLMError",
    "LLMRequestError",
    "LayoutError",
    "LayoutTimeout",
    "LogicEnv",
    "LogicEnvError",
    "LogicEnvWarning",
    "MarkerError",
    "Outcome",
    "Plan",
    "PlanDerivationError",
    "PlanError",
    "PlanNotAcceptedError",
    "PolicyError",
    "PolicyFault",
    "Scene",
    "SceneDesignError",
    "SceneError",
    "Selection",
    "SelectionError",
    "Trajectory",
    "TypeFileError",
    "Violation",
    "XmlPolicy",
    "__version__",
    "evaluate",
    "load_bt_xml",
    "load_plan",
    "load_scene",
    "parse_fact",
    "run_policy",
    "select",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_logicenv' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
