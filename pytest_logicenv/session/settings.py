"""The run's settings: what the command line, the ini file and ``CI`` chose, read and checked
once at start-up into a frozen :class:`Settings` (``config.stash[SETTINGS]``).

What changes during the run (what collection prepared, what items reported) is the session
object's (:mod:`~pytest_logicenv.session.logicenv_session`), not these. pytest loads this
module at start-up in every run, so it imports nothing heavy.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from pytest_logicenv.atomic import refusal
from pytest_logicenv.bounded import positive_int
from pytest_logicenv.session.options import (
    DEFAULT_LLM_CONCURRENCY,
    designer,
    percent,
    report_spec,
    truth,
)

T = TypeVar("T")

__all__ = ["DEFAULT_LLM_CONCURRENCY", "SETTINGS", "Settings", "read_settings"]


@dataclass(frozen=True)
class Settings:
    """The run's settings, fixed at configure time."""

    cache_root: Path
    offline: bool
    regenerate: bool
    run_id: str  # the same on every xdist worker of a run
    designer: str
    reports: tuple[str, ...]
    fail_under: float | None
    max_ticks: int | None
    nodes: tuple[str, ...]  # modules of the users' own XML nodes (ini logicenv_nodes)
    #: tasks generated at once and requests to the LLM at once (--logicenv-llm-concurrency)
    llm_concurrency: int = DEFAULT_LLM_CONCURRENCY
    #: the command-line options that change an outcome, for reproduce and regenerate lines
    command_options: tuple[str, ...] = ()
    explore: int | None = None  # scene variations per passing run (--logicenv-explore)
    mutate: bool = False  # run each policy's mutants (--logicenv-mutate)
    mutate_fail_under: float | None = None
    clean: bool = False  # remove the unused cache entries (--logicenv-clean)
    fail_on_unused: bool = False  # unused cache entries fail the run
    require_reviewed: bool = False  # model-made plans no person reviewed fail the run
    append: bool = False  # combine the records with the last run's (--logicenv-append)
    #: internal: where `logicenv clean` and --logicenv-clean learn the usage and the unused
    usage_json: Path | None = None
    unused_json: Path | None = None
    worker: bool = False  # an xdist worker: it hands what it found to the controller


SETTINGS = pytest.StashKey[Settings]()


def cache_folder_skipped(settings: Settings, path: Path) -> bool:
    """Whether collection passes over ``path``, the cache folder: its entries hold JSON and
    SVG files, never a test, and walking them cost pytest more than reading them costs us
    (500 cached tasks: some 6,500 files, 1.4 ms per item). A cache folder that holds a Python
    file at its top is walked as before (a test put there by hand), and so is one named on
    the command line (pytest asks nothing of the paths it was given)."""
    if path != settings.cache_root:
        return False
    try:
        return not any(name.endswith(".py") for name in os.listdir(path))
    except OSError:  # not a folder (pytest asks of files too), or unreadable: pytest decides
        return False


def read_settings(config: pytest.Config) -> Settings:
    """The run's settings from the command line, the ini file and ``CI``."""
    cache_dir = config.getoption("logicenv_cache_dir") or config.getini("logicenv_cache_dir")
    worker = getattr(config, "workerinput", None)
    return Settings(
        cache_root=checked_cache_root(config, str(cache_dir)),
        offline=_offline(config),
        regenerate=bool(config.getoption("logicenv_regenerate")),
        run_id=str(worker["testrunuid"]) if worker else uuid.uuid4().hex,
        designer=config.getoption("logicenv_designer")
        or _checked_ini(
            config, "logicenv_designer", designer, str(config.getini("logicenv_designer") or "")
        ),
        reports=checked_report_targets(config, _reports(config)),
        fail_under=_option(config, "logicenv_fail_under", percent),
        max_ticks=_option(config, "logicenv_max_ticks", positive_int),
        llm_concurrency=_option(config, "logicenv_llm_concurrency", positive_int)
        or DEFAULT_LLM_CONCURRENCY,
        nodes=tuple(str(module) for module in config.getini("logicenv_nodes")),
        command_options=command_options(config),
        clean=bool(config.getoption("logicenv_clean")),
        fail_on_unused=bool(_option(config, "logicenv_fail_on_unused", truth)),
        require_reviewed=bool(_option(config, "logicenv_require_reviewed", truth)),
        append=_switch(config, "logicenv_append"),
        usage_json=_path(config.getoption("logicenv_usage_json")),
        unused_json=_path(config.getoption("logicenv_unused_json")),
        worker=worker is not None,
        **_beyond(config),
    )


def _offline(config: pytest.Config) -> bool:
    offline = config.getoption("logicenv_offline")
    if offline is None:
        return bool(config.getini("logicenv_offline")) or _ci_forbids_llm(config)
    return bool(offline)


def _reports(config: pytest.Config) -> tuple[str, ...]:
    reports = config.getoption("logicenv_report")
    if reports is None:
        reports = [
            _checked_ini(config, "logicenv_report", report_spec, str(value))
            for value in config.getini("logicenv_report")
        ] or ["term"]
    return tuple(r for r in reports if r)


def _switch(config: pytest.Config, name: str) -> bool:
    """A ``store_true`` option, else its ``bool`` ini twin."""
    value = config.getoption(name)
    return bool(config.getini(name)) if value is None else bool(value)


def _path(value: str | None) -> Path | None:
    return None if value is None else Path(value)


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() not in ("0", "false", "no", "")


def _ci_forbids_llm(config: pytest.Config) -> bool:
    """Whether the CI variable makes the run strict: set, and not overridden explicitly."""
    allowed = config.getoption("logicenv_allow_ci") or config.getini("logicenv_allow_ci")
    return _truthy(os.environ.get("CI")) and not allowed


def _checked_ini(config: pytest.Config, name: str, convert: Callable[[str], T], value: str) -> T:
    """An ini value checked like its command-line twin: a bad one is a usage error naming
    the option and the file, not a traceback."""
    try:
        return convert(value)
    except argparse.ArgumentTypeError as error:
        raise pytest.UsageError(f"{name} in {config.inipath or 'the ini file'}: {error}") from None


def witness_budget(config: pytest.Config) -> tuple[int | None, int | None]:
    """The steps and milliseconds given for the search of each generated scene's witness
    (options, then ini; ``None``: the default budget's)."""
    steps = _option(config, "logicenv_witness_steps", positive_int)
    return steps, _option(config, "logicenv_witness_ms", positive_int)


def _option(config: pytest.Config, name: str, convert: Callable[[str], T]) -> T | None:
    """The command-line value of an option, else its ini value (checked), else ``None``."""
    value: Any = config.getoption(name)
    if value is None and config.getini(name):
        value = _checked_ini(config, name, convert, str(config.getini(name)))
    return value  # type: ignore[no-any-return]


def checked_cache_root(config: pytest.Config, cache_dir: str) -> Path:
    """The cache directory, refused at start-up when no run could use it: a path that is a
    file, or the rootdir itself or a folder above it (the cache's ``.gitignore`` would then
    hide the project's own dotfiles, ``.github/`` among them, from git)."""
    root = config.rootpath.resolve()
    cache_root = (config.rootpath / cache_dir).resolve()
    given = f"the cache directory {cache_dir!r} ({cache_root})"
    if cache_root == root or cache_root in root.parents:
        raise pytest.UsageError(
            f"{given} is the rootdir or above it: pytest-logicenv writes a .gitignore there "
            "that would hide the project's dotfiles from git; use a folder of its own, e.g. "
            "--logicenv-cache-dir=cache (ini: logicenv_cache_dir)"
        )
    if ".git" in cache_root.parts or ".git" in (config.rootpath / cache_dir).absolute().parts:
        raise pytest.UsageError(
            f"{given} is inside a .git folder, git's own files; use a folder of its own, e.g. "
            "--logicenv-cache-dir=cache (ini: logicenv_cache_dir)"
        )
    if cache_root.exists() and not cache_root.is_dir():
        raise pytest.UsageError(
            f"{given} is a file, not a directory; remove it or choose another "
            "--logicenv-cache-dir (ini: logicenv_cache_dir)"
        )
    return cache_root


def checked_report_targets(config: pytest.Config, reports: tuple[str, ...]) -> tuple[str, ...]:
    """The report specs, refused at start-up when a target cannot be written, so that no run
    ends without the report it asked for: a file report's target must not be a directory and
    its folder must exist (``-`` is standard output); an HTML report's must be a directory or
    not exist yet, in a folder that does."""
    for spec in reports:
        kind, _, target = spec.partition(":")
        if not target or (target == "-" and kind != "html"):
            continue
        path = config.rootpath / target  # an absolute target stays itself
        problem = _unwritable(path, html=kind == "html")
        if problem:
            raise pytest.UsageError(f"--logicenv-report={spec}: {path} {problem}")
    return reports


def _unwritable(path: Path, *, html: bool) -> str | None:
    if html and str(path.name) == "-":
        return "is not a directory: an HTML report needs one (html:DIR)"
    if path.is_dir() and not html:
        return "is a directory; give a file path (or - for standard output)"
    if path.exists() and html and not path.is_dir():
        return "is a file; the HTML report needs a directory"
    refused = refusal(path / "index.html" if html else path)
    if refused is not None:
        return refused
    if not path.parent.is_dir():
        return f"cannot be written: its folder {path.parent} does not exist; create it first"
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        return "cannot be written: permission denied"
    return None


#: The options that choose the environments or change a run's outcome: a command that
#: reproduces a test (or regenerates its entry) repeats them, and the ``-o logicenv_*``
#: overrides of ini options. Ini values in the file need no repeating.
OUTCOME_OPTIONS = (
    ("logicenv_cache_dir", "--logicenv-cache-dir"),
    ("logicenv_designer", "--logicenv-designer"),
    ("logicenv_max_ticks", "--logicenv-max-ticks"),
    ("logicenv_types", "--logicenv-types"),
)


def command_options(config: pytest.Config) -> tuple[str, ...]:
    """The outcome-changing options given on this run's command line, as shell words."""
    words = []
    for name, flag in OUTCOME_OPTIONS:
        value = config.getoption(name)
        if value is not None:
            words.append(f"{flag}={shlex.quote(str(value))}")
    for override in config.getoption("override_ini", None) or ():
        if str(override).partition("=")[0].strip().startswith("logicenv_"):
            words.append(f"-o {shlex.quote(str(override))}")
    return tuple(words)


def _beyond(config: pytest.Config) -> dict[str, Any]:
    """The exploration and mutation settings (beyond the paper's generated scenes)."""
    explore = _option(config, "logicenv_explore", positive_int)
    if explore and importlib.util.find_spec("hypothesis") is None:
        raise pytest.UsageError(
            "--logicenv-explore needs Hypothesis: pip install 'pytest-logicenv[explore]'"
        )
    fail_under = _option(config, "logicenv_mutate_fail_under", percent)
    mutate = config.getoption("logicenv_mutate")
    if mutate is None:
        mutate = bool(config.getini("logicenv_mutate"))
    return {
        "explore": explore,
        "mutate": bool(mutate) or fail_under is not None,
        "mutate_fail_under": fail_under,
    }
