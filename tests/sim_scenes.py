"""Small hand-built scenes for the simulator tests (importable: ``pythonpath = ["tests"]``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from pytest_logicenv.scenes.scene_model import AgentStart, Door, Room, Scene, SceneObject, Window
from pytest_logicenv.sim.world import WorldState


def obj(
    id: str,
    type: str,
    *props: str,
    role: str | None = None,
    parent: str | None = None,
    relation: str | None = "on",
    size: tuple[float, float, float] = (0.3, 0.3, 0.3),
    room: str = "kitchen",
    at: tuple[float, float] = (1.0, 1.0),
    **fields: Any,
) -> SceneObject:
    """An object; ``props`` are its catalog properties."""
    x, z = at
    return SceneObject(
        id,
        type,
        role=role if role is not None else id,
        room=room,
        size=size,
        position=(x, size[1] / 2, z),
        parent=parent,
        relation=relation,
        properties=props,
        **fields,
    )


def square(room_id: str, room_type: str, x: float = 0.0) -> Room:
    return Room(room_id, room_type, ((x, 0), (x + 5, 0), (x + 5, 5), (x, 5)))


def scene(
    *objects: SceneObject,
    rooms: Iterable[Room] = (),
    windows: Iterable[Window] = (),
    agent_room: str = "kitchen",
    scene_id: str = "test",
) -> Scene:
    rooms = tuple(rooms) or (square("kitchen", "Kitchen"),)
    return Scene(
        scene_id,
        rooms=rooms,
        windows=tuple(windows),
        objects=objects,
        agent=AgentStart(agent_room, (0.5, 0.5)),
    )


def kitchen() -> Scene:
    """A kitchen with something for every action and precondition, and a pantry behind a
    closed door."""
    counter_props = ("receptacle",)
    base = scene(
        obj("counter", "CounterTop", *counter_props, size=(2.0, 0.9, 0.6), at=(1, 4)),
        obj("fridge", "Fridge", "receptacle", "openable", size=(0.8, 1.8, 0.7), at=(4, 4),
            states={"open": False}),
        obj("apple", "Apple", "pickupable", "sliceable", "cookable", parent="fridge",
            relation="in", size=(0.08, 0.08, 0.08)),
        obj("lunchbox", "Lunchbox", "receptacle", "openable", parent="fridge", relation="in",
            size=(0.2, 0.1, 0.15), states={"open": False}),
        obj("milk", "Milk", "pickupable", parent="counter", size=(0.08, 0.2, 0.08),
            states={"filled": True}),
        obj("mug", "Mug", "pickupable", "receptacle", "fillable", parent="counter",
            size=(0.1, 0.1, 0.1)),
        obj("cup", "Cup", "pickupable", "receptacle", "fillable", parent="counter",
            size=(0.08, 0.1, 0.08)),
        obj("knife", "Knife", "pickupable", "cutting_tool", parent="counter",
            size=(0.3, 0.02, 0.03)),
        obj("sponge", "Sponge", "pickupable", "cleaning_tool", parent="counter",
            size=(0.1, 0.04, 0.07)),
        obj("bread", "Bread", "pickupable", "sliceable", "cookable", parent="counter",
            size=(0.25, 0.12, 0.12)),
        obj("toaster", "Toaster", "receptacle", "toggleable", "heat_source", parent="counter",
            size=(0.3, 0.2, 0.2), accepts=("Bread",)),
        obj("coffee_machine", "CoffeeMachine", "receptacle", "toggleable", "heat_source",
            parent="counter", size=(0.3, 0.4, 0.3), accepts=("Mug",)),
        obj("stain", "Stain", "dirtyable", size=(0.5, 0.01, 0.5), at=(2.5, 2.5),
            states={"dirty": True}),
        obj("lamp", "FloorLamp", "toggleable", size=(0.4, 1.6, 0.4), at=(0.5, 2.5)),
        obj("statue", "Statue", size=(0.3, 0.6, 0.3), at=(4.5, 1.0)),
        obj("tray", "Tray", "receptacle", size=(0.09, 0.02, 0.09), at=(3.5, 0.5)),
        obj("jar", "Jar", "pickupable", room="pantry", at=(6.0, 2.5)),
        obj("sink", "Sink", "receptacle", size=(0.6, 0.9, 0.6), at=(2.8, 4.2)),
        obj("faucet", "Faucet", "toggleable", parent="sink", size=(0.05, 0.3, 0.2),
            states={"toggled": False}),
        obj("cloth", "Cloth", "pickupable", "cleaning_tool", "wettable", parent="counter",
            size=(0.2, 0.01, 0.2)),
        obj("microwave", "Microwave", "receptacle", "openable", "toggleable", "heat_source",
            parent="counter", size=(0.5, 0.3, 0.4), states={"open": False}),
        obj("soap", "SoapBottle", "pickupable", "can_be_used_up", parent="counter",
            size=(0.08, 0.2, 0.08), states={"used_up": True}),
        obj("refill", "SoapRefill", "pickupable", "refill_source", parent="counter",
            size=(0.1, 0.25, 0.1)),
        rooms=(square("kitchen", "Kitchen"), square("pantry", "Pantry", x=5)),
    )  # fmt: skip
    door = Door("pantry_door", "kitchen|pantry", ("kitchen", "pantry"), 2.0, open=False)
    return replace(base, doors=(door,))


def snapshot(world: WorldState) -> tuple[Any, ...]:
    """Everything an action may change, for checking that a refused action changed nothing."""
    objects = tuple(
        (o.id, o.parent, o.relation, o.room, tuple(sorted(o.states.items())), o.beside)
        for o in world.objects.values()
    )
    agent = (world.agent.room, world.agent.spot, world.agent.held)
    return objects, agent
