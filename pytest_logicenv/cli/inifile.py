"""The pytest ini options ``logicenv`` commands share with the plugin, read without pytest.

A project configures pytest-logicenv once, in its pytest configuration; the command line reads
the same file so that, say, ``logicenv_types`` names one type file for both. The file is the one
pytest would choose: walking up from the working directory, the first directory holding
``pytest.ini`` or ``.pytest.ini`` (always), ``pyproject.toml`` with ``[tool.pytest.ini_options]``,
``tox.ini`` with ``[pytest]`` or ``setup.cfg`` with ``[tool:pytest]``, in that order.

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> _ = (root / "tox.ini").write_text("[pytest]\\nlogicenv_types = my/types.json\\n")
>>> (root / "sub").mkdir()
>>> value, base = ini_option("logicenv_types", root / "sub")
>>> value, base == root
('my/types.json', True)
"""

from __future__ import annotations

import configparser
from pathlib import Path
from typing import Any

_INI_SECTIONS = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"))
_CFG_SECTIONS = (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))


def ini_option(name: str, start: Path | None = None) -> tuple[str, Path] | None:
    """``(value, folder of the ini file)`` for option ``name`` in the pytest configuration
    found from ``start`` (the working directory), or ``None`` when it is not set."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        found = _options_in(candidate)
        if found is not None:
            value = found.get(name)
            return (str(value).strip(), candidate) if value not in (None, "") else None
    return None


def _options_in(folder: Path) -> dict[str, Any] | None:
    """The pytest options of the configuration file in ``folder``, if it has one."""
    for filename, section in _INI_SECTIONS:
        path = folder / filename
        if path.is_file():
            return _ini_section(path, section) or {}
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        options = _pyproject_options(pyproject)
        if options is not None:
            return options
    for filename, section in _CFG_SECTIONS:
        path = folder / filename
        if path.is_file():
            options = _ini_section(path, section)
            if options is not None:
                return options
    return None


def _ini_section(path: Path, section: str) -> dict[str, Any] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, OSError, UnicodeDecodeError):
        return None
    return dict(parser[section]) if parser.has_section(section) else None


def _pyproject_options(path: Path) -> dict[str, Any] | None:
    try:
        import tomllib as toml
    except ModuleNotFoundError:  # Python 3.10: pytest depends on tomli there
        try:
            import tomli as toml  # type: ignore[no-redef, import-not-found, unused-ignore]
        except ModuleNotFoundError:
            return None
    try:
        data = toml.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, toml.TOMLDecodeError):
        return None
    options = data.get("tool", {}).get("pytest", {}).get("ini_options")
    return dict(options) if isinstance(options, dict) else None
