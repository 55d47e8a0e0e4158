"""Clutter for big scenes stands where it fits: inside its room, apart, small things on tops."""

from __future__ import annotations

import itertools

import pytest
from clutter import add_clutter

from pytest_logicenv.scenes.scene_model import Room, Scene

Box = tuple[float, float, float, float]


def inside(inner: Box, outer: Box) -> bool:
    """Whether the footprint ``inner`` lies within ``outer`` (both min x, min z, max x, max z)."""
    low = all(o <= i + 1e-9 for o, i in zip(outer[:2], inner[:2], strict=True))
    return low and all(i <= o + 1e-9 for i, o in zip(inner[2:], outer[2:], strict=True))


def overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1e-9 and min(a[3], b[3]) - max(a[1], b[1]) > 1e-9


@pytest.mark.parametrize("count", [1, 40, 300])
def test_clutter_stands_inside_its_rooms_apart_and_on_what_holds_it(count: int) -> None:
    den = Room("den", "LivingRoom", ((0, 0), (6, 0), (6, 5), (0, 5)))
    scene = add_clutter(Scene("s", rooms=(den,)), count)
    assert len(scene.objects) == count
    rooms = {room.id: room.bounds for room in scene.rooms}
    by_id = {obj.id: obj for obj in scene.objects}
    assert "den" not in {obj.room for obj in scene.objects}  # the scene's own rooms stay as were
    for obj in scene.objects:
        if obj.parent is None:
            assert inside(obj.footprint, rooms[obj.room]), obj
            assert obj.position[1] == pytest.approx(obj.size[1] / 2)
        else:
            parent = by_id[obj.parent]
            assert inside(obj.footprint, parent.footprint), obj
            top = parent.position[1] + parent.size[1] / 2
            assert obj.position[1] - obj.size[1] / 2 == pytest.approx(top)
    for first, second in itertools.combinations(scene.objects, 2):
        if first.parent == second.parent and first.room == second.room:
            assert not overlap(first.footprint, second.footprint), (first.id, second.id)
