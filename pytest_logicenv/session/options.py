"""The plugin's options: ``--logicenv-*`` and their ini twins, validated, and the run's state.

pytest loads this module at start-up in every run, so it imports nothing heavy: the cache and
the pipeline's run mode are imported when first asked for. A bad value, on the command line or
in the ini file, is a usage error naming the option, not a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from pytest_logicenv.bounded import positive_int

if TYPE_CHECKING:
    from pytest_logicenv.cache import Cache
    from pytest_logicenv.pipeline.task_request import Environments, Mode
    from pytest_logicenv.report.records import RunRecord
    from pytest_logicenv.report.report_model import Report
    from pytest_logicenv.session.generation import PendingTask
    from pytest_logicenv.session.marker import MarkerArgs

T = TypeVar("T")

REPORT_KINDS = ("term", "term-missing", "json", "markdown", "html")
#: Uncached tasks generated at once, and LLM requests at once, unless told otherwise.
DEFAULT_LLM_CONCURRENCY = 4
#: Who designs the scenes: room templates (no LLM), or the LLM of the run.
DESIGNERS = ("procedural", "llm")


# --------------------------------------------------------------------------- value types


def report_spec(value: str) -> str:
    """A ``--logicenv-report`` value; the empty one turns the report off.

    >>> report_spec("json:out.json")
    'json:out.json'
    """
    if value == "":
        return value
    kind, _, target = value.partition(":")
    if (
        kind not in REPORT_KINDS
        or (kind.startswith("term") and target)
        or (not kind.startswith("term") and not target)
    ):
        raise argparse.ArgumentTypeError(
            f"{value!r}: use term, term-missing, json:PATH, markdown:PATH or html:DIR"
        )
    return value


def designer(value: str) -> str:
    if value not in DESIGNERS:
        raise argparse.ArgumentTypeError(f"{value!r}: use {' or '.join(DESIGNERS)}")
    return value


def percent(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 <= number <= 100:
        raise argparse.ArgumentTypeError(f"{value!r} must be between 0 and 100")
    return number


# --------------------------------------------------------------------------- declaring


def add_options(parser: pytest.Parser) -> None:
    """The ``--logicenv-*`` options and the ini options (``pytest_addoption``)."""
    group = parser.getgroup("logicenv", "logically diverse environments (pytest-logicenv)")
    _add_generation_options(group)
    _add_report_options(group)
    _add_run_options(group)
    _add_ini_options(parser)


def _add_generation_options(group: pytest.OptionGroup) -> None:
    """Where environments come from: the cache, the model, the designer, the types."""
    group.addoption(
        "--logicenv-cache-dir",
        metavar="DIR",
        help="where generated plans and scenes are cached (default: cache/ at the rootdir; "
        "ini: logicenv_cache_dir); write --logicenv-cache-dir=DIR: with a space, pytest "
        "takes DIR for a test path when it chooses the rootdir",
    )
    group.addoption(
        "--logicenv-regenerate",
        action="store_true",
        help="generate the plans and scenes of the selected tests anew",
    )
    group.addoption(
        "--logicenv-offline",
        action="store_true",
        default=None,
        help="never call an LLM nor write the cache: a missing or stale entry is an error "
        "unless --logicenv-regenerate is given (the default when the CI variable is set; "
        "ini: logicenv_offline)",
    )
    group.addoption(
        "--logicenv-allow-ci",
        action="store_true",
        default=None,
        help="where the CI variable is set, call the LLM and write the cache all the same, as "
        "logicenv plan --allow-ci does (ini: logicenv_allow_ci)",
    )
    group.addoption(
        "--logicenv-designer",
        type=designer,
        metavar="NAME",
        help="who designs the scenes: procedural (room templates, the default) or llm (the "
        "LLM that derives plans; ini: logicenv_designer)",
    )
    group.addoption(
        "--logicenv-llm-concurrency",
        type=positive_int,
        metavar="N",
        help="generate up to N uncached tasks at once, with at most N requests to the LLM at "
        f"a time, across xdist workers too (default {DEFAULT_LLM_CONCURRENCY}; ini: "
        "logicenv_llm_concurrency)",
    )
    group.addoption(
        "--logicenv-clean",
        action="store_true",
        help="remove the cache entries no test of the project uses (decided over the "
        "testpaths, whatever this run selects; see also: logicenv clean)",
    )
    group.addoption(
        "--logicenv-types",
        metavar="PATH",
        help="a file of your own object types, JSON or TOML, read by the plugin and every "
        "logicenv command (ini: logicenv_types)",
    )


def _add_report_options(group: pytest.OptionGroup) -> None:
    """What the run reports and the thresholds that fail it."""
    group.addoption(
        "--logicenv-report",
        action="append",
        type=report_spec,
        metavar="TYPE",
        help="LogCov report: term (the default), term-missing, json:PATH, markdown:PATH, "
        "html:DIR; repeatable. The types given replace the default, as pytest-cov's "
        "--cov-report: add term to print the table beside a file report; an empty value "
        "turns the report off (ini: logicenv_report)",
    )
    group.addoption(
        "--logicenv-fail-under",
        type=percent,
        metavar="PCT",
        help="fail the run if total LogCov is below PCT (ini: logicenv_fail_under)",
    )
    group.addoption(
        "--logicenv-mutate-fail-under",
        type=percent,
        metavar="PCT",
        help="fail the run if the total mutation score is below PCT (implies "
        "--logicenv-mutate; ini: logicenv_mutate_fail_under)",
    )
    # Internal: how `logicenv clean` and --logicenv-clean learn which entries the tests use.
    group.addoption("--logicenv-unused-json", metavar="PATH", help=argparse.SUPPRESS)
    group.addoption("--logicenv-usage-json", metavar="PATH", help=argparse.SUPPRESS)


def _add_run_options(group: pytest.OptionGroup) -> None:
    """How each policy run goes: its tick budget, exploration and mutants."""
    group.addoption(
        "--logicenv-max-ticks",
        type=positive_int,
        metavar="N",
        help="tick budget of one policy run (ini: logicenv_max_ticks)",
    )
    group.addoption(
        "--logicenv-explore",
        type=positive_int,
        metavar="N",
        help="run each passing policy run again in N other scenes of its situation, drawn and "
        "shrunk by Hypothesis (needs hypothesis; ini: logicenv_explore)",
    )
    group.addoption(
        "--logicenv-mutate",
        action="store_true",
        default=None,
        help="run each policy's mutants over its scenes and report the mutation score "
        "(ini: logicenv_mutate)",
    )


def _add_ini_options(parser: pytest.Parser) -> None:
    """The ini twins of the options, and the LLM endpoint, which has no command-line option."""
    parser.addini("logicenv_cache_dir", "cache directory for logic_env tests", default="cache")
    parser.addini("logicenv_offline", "never call an LLM", type="bool", default=False)
    parser.addini(
        "logicenv_allow_ci",
        "call the LLM and write the cache even where the CI variable is set",
        type="bool",
        default=False,
    )
    parser.addini(
        "logicenv_designer", "who designs the scenes: procedural or llm", default=DESIGNERS[0]
    )
    parser.addini("logicenv_fail_under", "minimum total LogCov in percent", default="")
    parser.addini("logicenv_max_ticks", "tick budget of one policy run", default="")
    parser.addini(
        "logicenv_llm_concurrency",
        "tasks generated at once, and requests to the LLM at once (default 4)",
        default="",
    )
    parser.addini(
        "logicenv_report",
        "LogCov report types (default term); those given replace it: add term to keep the table",
        type="args",
        default=[],
    )
    parser.addini(
        "logicenv_nodes",
        "modules whose BT_NODES (users' own leaves and controls) XML policies may use",
        type="args",
        default=[],
    )
    parser.addini("logicenv_types", "a file of your own object types (JSON or TOML)", default="")
    parser.addini("logicenv_explore", "other scenes explored per passing policy run", default="")
    parser.addini("logicenv_mutate", "run each policy's mutants", type="bool", default=False)
    parser.addini(
        "logicenv_mutate_fail_under", "minimum total mutation score in percent", default=""
    )
    parser.addini("logicenv_llm_base_url", "OpenAI-compatible endpoint for plan generation")
    parser.addini("logicenv_llm_model", "model name for plan generation")


# --------------------------------------------------------------------------- the run's state


@dataclass
class LogicEnvState:
    """Per-run state, kept in ``config.stash`` under :data:`STATE`: the settings (fixed at
    configure time), then what collection prepared and what the items reported."""

    config: pytest.Config
    cache_root: Path
    offline: bool
    regenerate: bool
    run_id: str
    designer: str
    reports: list[str]
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
    #: marked test function -> (marker args, environments), for those that are ready
    prepared: dict[str, tuple[MarkerArgs, Environments]] = field(default_factory=dict)
    #: marked test function -> what to generate for it, if the run selects it (generation.py)
    pending: dict[str, PendingTask] = field(default_factory=dict)
    #: marked test function -> the key of the entry it uses (also when that entry is broken)
    used_keys: dict[str, str] = field(default_factory=dict)
    #: tests and modules whose entry cannot be known (a broken marker, a collection error)
    unknown: list[str] = field(default_factory=list)
    records: list[RunRecord] = field(default_factory=list)
    report: Report | None = None
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # said at the end, not failing the run
    unused: list[str] = field(default_factory=list)
    #: test function -> the trajectories of its items the run selected, and of every scene
    #: of its entry (see session.partial)
    selected: dict[str, set[str]] = field(default_factory=dict)
    scenes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: why the unused entries could not be named (a test of the project failed to collect)
    unused_undecided: str | None = None

    @property
    def cache(self) -> Cache:
        from pytest_logicenv.cache import Cache

        return Cache(self.cache_root)

    @property
    def mode(self) -> Mode:
        from pytest_logicenv.pipeline.task_request import Mode

        return Mode(
            regenerate=self.regenerate,
            offline=self.offline,
            run_id=self.run_id,
            strict=self.offline,  # CI, or --logicenv-offline: the cache is only read
            options=self.command_options,
        )


STATE = pytest.StashKey[LogicEnvState]()


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
    if cache_root.exists() and not cache_root.is_dir():
        raise pytest.UsageError(
            f"{given} is a file, not a directory; remove it or choose another "
            "--logicenv-cache-dir (ini: logicenv_cache_dir)"
        )
    return cache_root


def checked_report_targets(config: pytest.Config, reports: list[str]) -> list[str]:
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
    if not path.parent.is_dir():
        return f"cannot be written: its folder {path.parent} does not exist; create it first"
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        return "cannot be written: permission denied"
    return None


def read_state(config: pytest.Config) -> LogicEnvState:
    """The run's settings from the command line, the ini file and ``CI``."""
    cache_dir = config.getoption("logicenv_cache_dir") or config.getini("logicenv_cache_dir")
    offline = config.getoption("logicenv_offline")
    if offline is None:
        offline = bool(config.getini("logicenv_offline")) or _ci_forbids_llm(config)
    reports = config.getoption("logicenv_report")
    if reports is None:
        reports = [
            _checked_ini(config, "logicenv_report", report_spec, str(value))
            for value in config.getini("logicenv_report")
        ] or ["term"]
    worker = getattr(config, "workerinput", None)
    return LogicEnvState(
        config=config,
        cache_root=checked_cache_root(config, str(cache_dir)),
        offline=offline,
        regenerate=bool(config.getoption("logicenv_regenerate")),
        run_id=str(worker["testrunuid"]) if worker else uuid.uuid4().hex,
        designer=config.getoption("logicenv_designer")
        or _checked_ini(
            config, "logicenv_designer", designer, str(config.getini("logicenv_designer") or "")
        ),
        reports=checked_report_targets(config, [r for r in reports if r]),
        fail_under=_option(config, "logicenv_fail_under", percent),
        max_ticks=_option(config, "logicenv_max_ticks", positive_int),
        llm_concurrency=_option(config, "logicenv_llm_concurrency", positive_int)
        or DEFAULT_LLM_CONCURRENCY,
        nodes=tuple(str(module) for module in config.getini("logicenv_nodes")),
        command_options=command_options(config),
        **_beyond(config),
    )


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
