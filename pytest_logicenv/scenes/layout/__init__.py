"""Z3 layout: turn a :class:`~pytest_logicenv.scenes.model.SceneSpec` into a placed scene.

The encoding rules are documented in :mod:`pytest_logicenv.scenes.layout.driver` while the
package is being split into modules.
"""

from pytest_logicenv.scenes.layout.driver import solve_layout

__all__ = ["solve_layout"]
