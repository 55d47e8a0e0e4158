"""A hand-built, fully placed scene for the export and picture tests (no layout solver)."""

from __future__ import annotations

from pytest_logicenv.scenes.scene_model import (
    AgentStart,
    Door,
    Provenance,
    Room,
    Scene,
    SceneObject,
    Wall,
    Window,
)


def two_rooms() -> Scene:
    """A 4 x 4 m living room (x 0..4) beside a 3 x 4 m kitchen (x 4..7), a door between them
    and, in the living room's north wall, a window beside a door to the outside."""
    living = Room("living_room", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)), "OrangeCabinet")
    kitchen = Room(
        "kitchen", "Kitchen", ((4, 0), (7, 0), (7, 4), (4, 4)), wall_material="PureWhite"
    )
    walls = (
        Wall("w_south_living", ("living_room",), (0, 0), (4, 0)),
        Wall("w_west", ("living_room",), (0, 4), (0, 0)),
        Wall("w_north_living", ("living_room",), (4, 4), (0, 4)),
        Wall("w_shared", ("living_room", "kitchen"), (4, 0), (4, 4)),
        Wall("w_south_kitchen", ("kitchen",), (4, 0), (7, 0)),
        Wall("w_east", ("kitchen",), (7, 0), (7, 4)),
        Wall("w_north_kitchen", ("kitchen",), (7, 4), (4, 4)),
    )
    doors = (
        Door(
            "door_1", "w_shared", ("living_room", "kitchen"), 1.5, 1.019, 2.079, True, "Doorway_3"
        ),
        Door(
            "door_2",
            "w_north_living",
            ("living_room", "exterior"),
            0.3,
            1.019,
            2.079,
            False,
            "Doorway_3",
        ),
    )
    windows = (
        Window(
            "window_1",
            "w_north_living",
            "living_room",
            2.2,
            1.522,
            0.912,
            0.9,
            True,
            "Window_Slider_60x36",
            role="window",
        ),
        Window(
            "window_2", "w_east", "kitchen", 1.0, 1.522, 0.912, 0.9, False, "Window_Fixed_60x36"
        ),
    )

    def obj(
        id: str,
        type: str,
        asset: str,
        room: str,
        size: tuple[float, float, float],
        at: tuple[float, float],
        **extra: object,
    ) -> SceneObject:
        bottom = float(extra.pop("bottom", 0.0))  # type: ignore[arg-type]
        return SceneObject(
            id,
            type,
            asset,
            room=room,
            size=size,
            position=(at[0], bottom + size[1] / 2, at[1]),
            **extra,
        )  # type: ignore[arg-type]

    objects = (
        obj(
            "sofa",
            "Sofa",
            "Sofa_207_2",
            "living_room",
            (1.96, 0.82, 0.91),
            (2.0, 0.5),
            role="sofa",
            task=True,
            properties=("moveable", "receptacle"),
        ),
        obj(
            "table",
            "CoffeeTable",
            "Coffee_Table_215_1",
            "living_room",
            (1.43, 0.5, 0.89),
            (2.0, 2.0),
            role="table",
            task=True,
            properties=("moveable", "receptacle"),
        ),
        obj(
            "wipes",
            "WetWipes",
            "Tissue_Box_1",
            "living_room",
            (0.2, 0.07, 0.12),
            (2.2, 2.0),
            role="wipes",
            task=True,
            parent="table",
            bottom=0.5,
            custom_type=True,
            properties=("pickupable", "cleaning_tool", "can_be_used_up"),
        ),
        obj(
            "toy",
            "Toy",
            "Teddy_Bear_1",
            "living_room",
            (0.3, 0.3, 0.25),
            (1.0, 3.0),
            role="toy",
            task=True,
            custom_type=True,
            attrs={"kind": "doll"},
            properties=("pickupable",),
        ),
        obj(
            "stain",
            "Stain",
            "",
            "living_room",
            (0.5, 0.005, 0.4),
            (3.0, 3.0),
            role="stain",
            task=True,
            custom_type=True,
            states={"dirty": True},
            properties=("static", "dirtyable"),
        ),
        obj(
            "bookshelf",
            "ShelvingUnit",
            "Shelving_Unit_313_1",
            "living_room",
            (1.06, 1.56, 0.34),
            (0.6, 2.0),
            rotation=90,
            properties=("moveable", "receptacle"),
        ),
        obj(
            "top_shelf",
            "Shelf",
            "",
            "living_room",
            (0.25, 0.02, 0.3),
            (0.6, 1.7),
            relation="part",
            part_of="bookshelf",
            bottom=1.2,
            role="top_shelf",
            attrs={"level": "top"},
            properties=("static", "receptacle"),
        ),
        obj(
            "book",
            "Book",
            "Book_4",
            "living_room",
            (0.15, 0.02, 0.19),
            (0.6, 1.7),
            parent="top_shelf",
            bottom=1.22,
            role="book",
            task=True,
            properties=("pickupable", "openable"),
        ),
        obj(
            "light",
            "LightSwitch",
            "Light_Switch_21",
            "living_room",
            (0.11, 0.15, 0.02),
            (0.01, 1.0),  # its back on the west wall (x = 0), facing into the room
            rotation=90,
            relation="wall",
            bottom=1.2,
            role="light",
            states={"toggled": True},
            properties=("static", "toggleable", "wall_mounted"),
        ),
        obj(
            "fridge",
            "Fridge",
            "Fridge_17",
            "kitchen",
            (1.05, 1.91, 0.8),
            (6.4, 3.5),
            role="fridge",
            task=True,
            rotation=180,
            states={"open": False},
            properties=("static", "receptacle", "openable", "cold_source"),
        ),
        obj(
            "milk",
            "Milk",
            "Bottle_1",
            "kitchen",
            (0.1, 0.25, 0.1),
            (6.4, 3.5),
            parent="fridge",
            relation="in",
            bottom=0.5,
            role="milk",
            task=True,
            custom_type=True,
            states={"filled": True},
            properties=("pickupable", "fillable", "breakable"),
        ),
    )
    return Scene(
        "toy=doll-wipe=yes",
        rooms=(living, kitchen),
        walls=walls,
        doors=doors,
        windows=windows,
        objects=objects,
        agent=AgentStart("living_room", (3.0, 1.5)),
        provenance=Provenance(
            trajectory="toy=doll-wipe=yes",
            conditions=(("toy", "yes"), ("toy_type", "doll"), ("wipe", "yes")),
            designer="hand",
        ),
    )
