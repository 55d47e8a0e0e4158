"""The asset each object of an exported house shows as, where the scene does not settle it as
AI2-THOR would, and the parts an asset brings with it.

How AI2-THOR and ProcTHOR do it, and so how we do:

* **A sink set into a counter.** iTHOR's kitchens build their sinks into the room's counter
  (the sink has no asset of its own), and ProcTHOR places sinks only in bathrooms, standing on
  the floor with a faucet above (its ``sink-with-faucet`` asset group). iTHOR's bathroom
  counters hold the sinks ProcTHOR's asset database has: basins 0.09-0.24 m high whose
  ``parentReceptacles`` is the counter, their rim within a few centimetres of its top (a sink
  standing on its own is 0.65-1.05 m high). So a sink that is a part of a counter in the scene
  exports as the basin sink (at most :data:`SET_IN_HEIGHT` high) that best fills the counter's
  end the sink takes, its top at the counter's, as a child of the counter (ProcTHOR nests what
  a receptacle holds under it). Its basin is then a part AI2-THOR spawns in that asset.
* **A faucet by where it is.** iTHOR's kitchens have ``Kitchen_Faucet_*`` assets, its bathroom
  sinks ``Bathroom_Faucet_*`` and its bathtubs ``Bathtub_Faucet_*``. A faucet at a sink or a
  bathtub exports as one of its place's family that turns on (AI2-THOR's ``CanToggleOnOff``;
  one bathroom faucet asset lacks it), the scene's own asset when it is one.
* **Parts inside an asset.** A part with no asset of its own (a drawer, a sink's basin) is
  spawned by its whole's asset when the asset's AI2-THOR type has such parts. A stand-in asset
  has the parts of its own type, not those of the type it shows: the counter that shows a
  stove has no burners or knobs, so they are left out of the house, and listed.

Each asset the export chooses over the scene's is recorded (:func:`asset_note`).

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> from pytest_logicenv.scenes.scene_model import SceneObject
>>> catalog = default_catalog()
>>> counter = SceneObject("counter", "CounterTop", "Countertop_I_4x2", size=(1.2, 0.94, 0.61))
>>> sink = SceneObject("sink", "Sink", size=(0.6, 0.94, 0.55), part_of="counter")
>>> chosen = export_asset(sink, counter, "Kitchen", catalog)
>>> chosen is not None and chosen.size[1] <= SET_IN_HEIGHT
True
>>> tap = SceneObject("tap", "Faucet", "Bathtub_Faucet_1", part_of="sink")
>>> export_asset(tap, sink, "Kitchen", catalog).id.startswith("Kitchen_Faucet_")
True
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping

from pytest_logicenv.scenes.catalog import Asset, Catalog
from pytest_logicenv.scenes.scene_model import SceneObject, Vector

#: The highest a sink set into a counter is (metres): ProcTHOR's basin sinks are 0.09-0.24 m.
SET_IN_HEIGHT = 0.3
#: The faucet asset family (the start of its asset ids) of a whole, by where the whole is.
KITCHEN_FAUCETS, SINK_FAUCETS, BATHTUB_FAUCETS = (
    "Kitchen_Faucet_",
    "Bathroom_Faucet_",
    ("Bathtub_Faucet_"),
)


def export_asset(
    obj: SceneObject, whole: SceneObject | None, room_type: str, catalog: Catalog
) -> Asset | None:
    """The asset ``obj`` exports as (``None``: none; a part its whole's asset may spawn).
    ``whole`` is what ``obj`` is a part of, ``room_type`` its room's type."""
    own = catalog.asset(obj.asset_id) if obj.asset_id else None
    if obj.type == "Faucet" and whole is not None:
        return _faucet(obj, own, _faucet_family(whole, room_type), catalog)
    if own is None and obj.type == "Sink" and whole is not None and not obj.asset_id:
        return set_in_sink(obj.size, catalog)
    return own


def set_in_sink(slot: Vector, catalog: Catalog) -> Asset | None:
    """The basin sink that best fills ``slot`` (its end of the counter): the largest that
    fits, else the one that overhangs least; ``None`` when the catalog has none."""
    sink = catalog.types.get("Sink")
    low = [a for a in (sink.assets if sink else ()) if a.id and a.size[1] <= SET_IN_HEIGHT]

    def overhang(asset: Asset) -> float:
        return max(0.0, asset.size[0] - slot[0]) + max(0.0, asset.size[2] - slot[2])

    return min(
        low, key=lambda a: (round(overhang(a), 4), -a.size[0] * a.size[2], a.id), default=None
    )


def _faucet_family(whole: SceneObject, room_type: str) -> str | None:
    if whole.type in ("Bathtub", "BathtubBasin"):
        return BATHTUB_FAUCETS
    if whole.type in ("Sink", "SinkBasin"):
        return KITCHEN_FAUCETS if room_type == "Kitchen" else SINK_FAUCETS
    return None


def _faucet(
    obj: SceneObject, own: Asset | None, family: str | None, catalog: Catalog
) -> Asset | None:
    """The scene's faucet asset when it is of ``family`` and turns on; else one that is,
    picked by the object's id (ProcTHOR picks at random among its group's assets)."""
    faucet = catalog.types.get("Faucet")
    if family is None or faucet is None:
        return own
    fits = sorted(
        (a for a in faucet.assets if a.id.startswith(family) and "toggleable" in a.properties),
        key=lambda a: a.id,
    )
    if not fits or (own is not None and own in fits):
        return own
    return fits[zlib.crc32(obj.id.encode()) % len(fits)]


def asset_note(obj: SceneObject, asset: Asset, whole: SceneObject | None) -> dict[str, str]:
    """What ``metadata.logicenv.assets`` says of an asset the export chose over the scene's."""
    if obj.type == "Sink" and whole is not None:
        why = (
            f"a sink set into {whole.id} ({whole.type}) exports as a basin sink, as iTHOR's "
            "counters hold them; its top is the counter's"
        )
    else:
        where = f"at {whole.id} ({whole.type})" if whole is not None else ""
        why = (
            f"a faucet {where} exports as one of that place's faucets that turns on, as "
            f"iTHOR's scenes have them ({obj.asset_id or 'no asset'} in the scene)"
        )
    return {
        "id": obj.id,
        "type": obj.type,
        "assetId": asset.id,
        "sceneAssetId": obj.asset_id,
        "reason": why,
    }


def spawns(asset: Asset, part_type: str, catalog: Catalog) -> bool:
    """Whether AI2-THOR spawns a ``part_type`` part inside ``asset``: its own type has such
    parts and they have no assets of their own (a sink or a faucet is an asset)."""
    return _brings(asset.source_type, part_type, catalog)


def _brings(whole_type: str, part_type: str, catalog: Catalog) -> bool:
    source = catalog.types.get(whole_type)
    part = catalog.types.get(part_type)
    if source is None or (part is not None and not part.custom and part.exportable):
        return False
    return any(spec.type == part_type for spec in source.parts)


def holder(
    part: SceneObject,
    by_id: Mapping[str, SceneObject],
    assets: Mapping[str, Asset],
    catalog: Catalog,
) -> tuple[str, str]:
    """The asset AI2-THOR spawns ``part`` inside, and ``""``; or ``""`` and why none does."""
    whole = by_id.get(part.part_of or "")
    if whole is None:
        return "", f"its whole {part.part_of!r} is not in the scene"
    asset = assets.get(whole.id)
    if asset is not None:
        if spawns(asset, part.type, catalog):
            return asset.id, ""
        shows = (
            f", the {asset.source_type} that shows {whole.id} ({whole.type}),"
            if asset.source_type != whole.type
            else f" ({whole.id})"
        )
        return "", f"AI2-THOR's {asset.id}{shows} has no {part.type}"
    if whole.part_of is not None:
        inside, why = holder(whole, by_id, assets, catalog)
        if inside and _brings(whole.type, part.type, catalog):
            return inside, ""
        if inside:
            return "", f"AI2-THOR's {inside}, which holds {whole.id}, has no {part.type}"
        return "", f"its whole {whole.id} is not exported either ({why})"
    return "", f"its whole {whole.id} ({whole.type}) is not exported"
