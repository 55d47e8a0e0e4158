"""How many of the realistic BT.CPP trees in ``tests/data/bt`` load and run (the measurement of
issue 13, on trees written in the styles of BT.CPP's tutorials and Nav2's navigators).

Each file is loaded with the corpus's application nodes (``corpus_nodes.py``, as ``--nodes``
would register them) and a root blackboard holding ``goal`` (as Nav2's navigator sets it),
then run once in the test kitchen. Prints one line per file, the BT.CPP and Nav2 built-ins
no file uses, and ``bt_corpus: N/M files load, K/M run to SUCCESS``.

    python benchmarks/run.py bt_corpus
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.sim.bt import load_bt_xml
from pytest_logicenv.sim.bt.catalog import BUILTINS
from pytest_logicenv.sim.runner import run_policy

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "bt"


def main(argv: list[str]) -> int:
    scene = load_scene(CORPUS / "kitchen_scene.json")
    nodes = [str(CORPUS / "corpus_nodes.py")]
    files = sorted(CORPUS.glob("*.xml"))
    loaded = succeeded = 0
    used: set[str] = set()
    start = time.perf_counter()
    for path in files:
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r"<(\w+)", text))
        try:
            policy = load_bt_xml(path, modules=nodes, blackboard={"goal": "counter"})
        except PolicyError as error:
            print(f"{path.name}: does not load: {error}")
            continue
        loaded += 1
        outcome = run_policy(policy, scene)
        succeeded += outcome.status == "SUCCESS"
        print(f"{path.name}: {outcome.kind} ({outcome.status} after {outcome.ticks} ticks)")
    for sub in (CORPUS / "subtrees").glob("*.xml"):
        used.update(re.findall(r"<(\w+)", sub.read_text(encoding="utf-8")))
    unused = sorted(set(BUILTINS) - used)
    print(f"built-ins no file uses: {', '.join(unused) or 'none'}")
    elapsed = (time.perf_counter() - start) * 1000 / max(len(files), 1)
    print(
        f"bt_corpus: {loaded}/{len(files)} files load, {succeeded}/{len(files)} run to SUCCESS "
        f"({elapsed:.1f} ms per file)"
    )
    return 0
