"""The plugin's options declared: ``--logicenv-*``, their ini twins, and the types that check
their values.

pytest loads this module at start-up in every run, so it imports nothing heavy. A bad value,
on the command line or in the ini file, is a usage error naming the option, not a traceback
(:mod:`~pytest_logicenv.session.settings` reads and checks the ini values).
"""

from __future__ import annotations

import argparse

import pytest

from pytest_logicenv.bounded import positive_int

REPORT_KINDS = ("term", "term-missing", "json", "markdown", "cobertura", "lcov", "html")
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
            f"{value!r}: use term, term-missing, json:PATH, markdown:PATH, cobertura:PATH, "
            "lcov:PATH or html:DIR"
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


TRUE, FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off", "")


def truth(value: str) -> bool:
    """An ini switch: true or false (yes/no, 1/0, on/off), checked rather than guessed.

    >>> truth("Yes"), truth("off")
    (True, False)
    """
    word = value.strip().lower()
    if word not in TRUE + FALSE:
        raise argparse.ArgumentTypeError(f"{value!r} is not a switch: use true or false")
    return word in TRUE


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
        "--logicenv-fail-on-unused",
        action="store_true",
        default=None,
        help="fail the run when a cache entry no test of the project uses is left (as "
        "syrupy fails on unused snapshots); without it they are listed, not failing "
        "(ini: logicenv_fail_on_unused)",
    )
    group.addoption(
        "--logicenv-require-reviewed",
        action="store_true",
        default=None,
        help="fail the run when a cache entry it uses has a plan a model made that no person "
        "has reviewed since (logicenv show, then logicenv review; ini: "
        "logicenv_require_reviewed)",
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
        "cobertura:PATH (Cobertura XML: conditions as lines, paths as branches), lcov:PATH, "
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
    group.addoption(
        "--logicenv-append",
        action="store_true",
        default=None,
        help="combine this run's records with those the last run kept in "
        ".logicenv/records.json, as --cov-append does, and report them together (ini: "
        "logicenv_append)",
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
        "--logicenv-witness-steps",
        type=positive_int,
        metavar="N",
        help="calls the search for each generated scene's witness may use; a scene without "
        "one is not used (ini: logicenv_witness_steps)",
    )
    group.addoption(
        "--logicenv-witness-ms",
        type=positive_int,
        metavar="MS",
        help="milliseconds that search may take per scene (ini: logicenv_witness_ms)",
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
        "logicenv_witness_steps", "calls the search for a scene's witness may use", default=""
    )
    parser.addini(
        "logicenv_witness_ms", "milliseconds the search for a scene's witness may take", default=""
    )
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
    parser.addini(
        "logicenv_fail_on_unused",
        "fail the run on cache entries no test uses: true or false (default false)",
        default="",
    )
    parser.addini(
        "logicenv_require_reviewed",
        "fail the run on model-made plans no person reviewed: true or false (default false)",
        default="",
    )
    parser.addini(
        "logicenv_append",
        "combine each run's records with the last run's",
        type="bool",
        default=False,
    )
    parser.addini("logicenv_explore", "other scenes explored per passing policy run", default="")
    parser.addini("logicenv_mutate", "run each policy's mutants", type="bool", default=False)
    parser.addini(
        "logicenv_mutate_fail_under", "minimum total mutation score in percent", default=""
    )
    parser.addini("logicenv_llm_base_url", "OpenAI-compatible endpoint for plan generation")
    parser.addini("logicenv_llm_model", "model name for plan generation")
