"""The numbers a relation's encoding uses: the definition's, or the natural margins'.

:data:`DEFINED` holds the thresholds that define the relations (the checker tests them);
:data:`NATURAL` the tighter ones the layout prefers where space allows (see
:mod:`pytest_logicenv.scenes.scene_model`'s margins). The same encoders read either.

>>> NATURAL.near < DEFINED.near
True
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_logicenv.scenes.scene_model import (
    ABOVE_MARGIN,
    ABOVE_NATURAL,
    ADJACENT_DISTANCE,
    ALIGN_NATURAL,
    ALIGN_TOLERANCE,
    CENTER_FRACTION,
    CENTER_NATURAL,
    CENTRED_NATURAL,
    EDGE_DISTANCE,
    EDGE_NATURAL,
    FAR_DISTANCE,
    FAR_NATURAL,
    IN_FRONT_NATURAL,
    MIDDLE_DISTANCE,
    NEAR_DISTANCE,
    NEAR_NATURAL,
    SIDE_NATURAL,
)


@dataclass(frozen=True)
class Tolerances:
    """Thresholds of the relations (metres, or fractions of an extent)."""

    edge: float = EDGE_DISTANCE
    middle: float = MIDDLE_DISTANCE
    center: float = CENTER_FRACTION
    near: float = NEAR_DISTANCE
    far: float = FAR_DISTANCE
    above: float = ABOVE_MARGIN
    align: float = ALIGN_TOLERANCE
    in_front: tuple[float, float] = (0.0, ADJACENT_DISTANCE)
    side: float = ADJACENT_DISTANCE
    #: ``None``: the centre anywhere within the target's extent across; else within this
    #: fraction of the extent of its centre.
    centred: float | None = None


DEFINED = Tolerances()
NATURAL = Tolerances(
    edge=EDGE_NATURAL,
    center=CENTER_NATURAL,
    near=NEAR_NATURAL,
    far=FAR_NATURAL,
    above=ABOVE_NATURAL,
    align=ALIGN_NATURAL,
    in_front=IN_FRONT_NATURAL,
    side=SIDE_NATURAL,
    centred=CENTRED_NATURAL,
)
#: The kinds whose natural margins differ from their definition, the most visible first: when
#: not all margins can be met, those of the later kinds give way first (the order measured
#: best: docs/explanation/layout.md).
WITH_MARGIN = (
    "center_aligned",
    "near",
    "in_front_of",
    "face_to",
    "edge",
    "corner",
    "side_of",
    "above",
    "center",
    "far",
)
