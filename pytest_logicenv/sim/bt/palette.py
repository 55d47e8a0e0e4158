"""The Groot2 palette: a ``<TreeNodesModel>`` of the simulator's leaves (and the user's own
nodes), so that policies can be drawn in Groot2 (``logicenv groot-palette > nodes.xml``).

BT.CPP's and Nav2's built-ins are left out, as BT.CPP's ``writeTreeNodesModelXML`` leaves
them out: Groot2 knows them.

>>> print(palette_xml(Registry())[:160])
<?xml version="1.0" encoding="UTF-8"?>
<root BTCPP_format="4">
  <TreeNodesModel>
    <Condition ID="Absent">
      <input_port name="attrs" type="std::string">...
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from pytest_logicenv.sim.bt.catalog import SIMULATOR, NodeSpec
from pytest_logicenv.sim.bt.registry import Registry

_TYPES = {"str": "std::string", "int": "int", "unsigned": "unsigned int", "double": "double",
          "bool": "bool", "status": "BT::NodeStatus", "queue": "std::string"}  # fmt: skip
_TAGS = {"input": "input_port", "output": "output_port", "inout": "inout_port"}


def _node(spec: NodeSpec) -> list[str]:
    lines = [f"    <{spec.kind} ID={quoteattr(spec.id)}>"]
    for port in sorted(spec.ports or spec.shown_ports, key=lambda p: p.name):
        attrs = f"name={quoteattr(port.name)}"
        if port.type in _TYPES:
            attrs += f" type={quoteattr(_TYPES[port.type])}"
        if port.default is not None:
            attrs += f" default={quoteattr(port.default)}"
        optional = port.optional and port.direction == "input"
        text = port.description or ("optional" if optional else "")
        lines.append(
            f"      <{_TAGS[port.direction]} {attrs}>{escape(text)}</{_TAGS[port.direction]}>"
        )
    description = spec.description.replace("``", "")
    if spec.extra_ports:
        description += ' Other attributes are matched too (e.g. kind="doll", open="true").'
    if description.strip():
        lines.append(f"      <description>{escape(description.strip())}</description>")
    lines.append(f"    </{spec.kind}>")
    return lines


def palette_xml(registry: Registry) -> str:
    """The palette document: every simulator leaf and user node, sorted by ID."""
    specs = {**SIMULATOR, **registry.user}
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<root BTCPP_format="4">',
             "  <TreeNodesModel>"]  # fmt: skip
    for node_id in sorted(specs):
        lines += _node(specs[node_id])
    lines += ["  </TreeNodesModel>", "</root>"]
    return "\n".join(lines) + "\n"
