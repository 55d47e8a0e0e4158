"""pytest-logicenv: logically diverse simulated environments for testing behavior-tree policies.

The public API is small; everything here is cheap to import (no z3, openai or py_trees), because
pytest loads the plugin in every run.
"""

from pytest_logicenv.errors import (
    CacheError,
    FactError,
    LayoutError,
    LLMError,
    LogicEnvError,
    PlanError,
    PolicyError,
    SceneError,
    SelectionError,
    Violation,
)

__version__ = "0.1.0"

__all__ = [
    "CacheError",
    "FactError",
    "LLMError",
    "LayoutError",
    "LogicEnvError",
    "PlanError",
    "PolicyError",
    "SceneError",
    "SelectionError",
    "Violation",
    "__version__",
]
