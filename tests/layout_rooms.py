"""Rooms, objects and checks shared by the layout tests (``tests/scenes/layout/``)."""

from __future__ import annotations

from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_TASK,
    DoorSpec,
    Room,
    Scene,
    SceneObject,
    SceneSpec,
    SpatialRelation,
    WindowSpec,
)


def room(room_id: str = "living", x0: float = 0.0, width: float = 5.0, depth: float = 4.0) -> Room:
    return Room(room_id, "LivingRoom", ((x0, 0), (x0 + width, 0), (x0 + width, depth), (x0, depth)))


def thing(
    obj_id: str, size: tuple[float, float, float], receptacle: bool = False, **fields: object
) -> SceneObject:
    fields.setdefault("room", "living")
    props = ("receptacle",) if receptacle else ()
    return SceneObject(obj_id, obj_id.capitalize(), size=size, properties=props, **fields)  # type: ignore[arg-type]


SOFA = thing("sofa", (1.6, 0.8, 0.9), receptacle=True)
TABLE = thing("table", (1.0, 0.45, 0.6), receptacle=True)
CHAIR = thing("chair", (0.5, 0.9, 0.5))
STAND = thing("stand", (1.2, 0.6, 0.45), receptacle=True)
PAINTING = thing("painting", (0.8, 0.6, 0.03), relation="wall")
CUP = SceneObject("cup", "Cup", size=(0.1, 0.12, 0.1), parent="table")
BOOK = SceneObject("book", "Book", size=(0.25, 0.04, 0.2), parent="table")
LIVING_ROOM = (SOFA, TABLE, CHAIR, STAND, PAINTING, CUP, BOOK)


def spec_with(
    *relations: SpatialRelation, objects: tuple[SceneObject, ...] = LIVING_ROOM
) -> SceneSpec:
    return SceneSpec(
        "test",
        rooms=(room(),),
        objects=objects,
        doors=(DoorSpec("door", ("living", "exterior")),),
        windows=(WindowSpec("window", "living"),),
        relations=relations,
    )


def rel(
    kind: str, subject: str, target: str | None = None, priority: int = PRIORITY_TASK
) -> SpatialRelation:
    return SpatialRelation(kind, subject, target, priority)


def keys(relations: tuple[SpatialRelation, ...]) -> set[tuple[str, str, str | None]]:
    return {(r.kind, r.subject, r.target) for r in relations}


def assert_valid(scene: Scene) -> None:
    result = check_scene(scene)
    assert result.passed, "\n".join(map(str, result.violations))
    asked = keys(scene.relations)
    assert keys(scene.provenance.kept) | keys(scene.provenance.dropped) == asked
    assert not keys(scene.provenance.kept) & keys(scene.provenance.dropped)


#: A 3.4 x 2 m room with its door in the west wall: the bed fits, the wardrobe fits, not both.
NARROW = SceneSpec(
    "crowded",
    rooms=(room(width=3.4, depth=2.0),),
    objects=(thing("bed", (2.4, 0.5, 1.6)), thing("wardrobe", (1.2, 2.0, 0.6))),
    doors=(DoorSpec("door", ("living", "exterior"), side="west", offset=0.1),),
)
