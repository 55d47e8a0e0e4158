"""``.logicenv/`` at the rootdir: what a run leaves for the next one or for you to look at
(the scenes exploration saved, the records ``--logicenv-append`` combines, the pictures
``logicenv render --trace`` draws), never committed. As pytest's ``.pytest_cache``, the folder
carries its own ``.gitignore``, so ``git add -A`` leaves it out without a line in yours."""

from __future__ import annotations

from pathlib import Path

#: The folder, under the rootdir.
WORK_DIR = ".logicenv"
GITIGNORE = "# Created by pytest-logicenv automatically.\n*\n"


def work_folder(rootdir: Path, *parts: str) -> Path:
    """``rootdir/.logicenv/PARTS``, created, with the work folder's ``.gitignore`` (kept if
    it is there: you may have edited it). OS errors pass to the caller."""
    top = rootdir / WORK_DIR
    folder = top.joinpath(*parts)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with (top / ".gitignore").open("x", encoding="utf-8") as handle:
            handle.write(GITIGNORE)
    except FileExistsError:
        pass
    return folder
