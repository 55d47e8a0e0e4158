"""The LLM stage: plans (paper 4.2) and scene designs (paper 4.4) from a language model.

* :mod:`~pytest_logicenv.llm.protocol`: what the pipeline needs of a model (``LLM``), and
  ``CallableLLM`` for tests and other plugins.
* :mod:`~pytest_logicenv.llm.config` and :mod:`~pytest_logicenv.llm.client`: an
  OpenAI-compatible endpoint from the environment, and a robust client for it, each attempt
  bounded whole (:mod:`~.deadline`), the credentials masked everywhere
  (:mod:`~.redaction`), at most N requests at a time across processes (:mod:`~.limits`).
* :mod:`~pytest_logicenv.llm.exchange`: one recorded request and answer, as the cache keeps it.
* :mod:`~pytest_logicenv.llm.answers` and :mod:`~pytest_logicenv.llm.conversation`: reading
  the JSON in an answer, and rule-guided iterative refinement.
* :mod:`~pytest_logicenv.llm.planner` and :mod:`~pytest_logicenv.llm.scene_designer`: plan
  derivation and scene design, with their prompts in :mod:`~.plan_prompts` and
  :mod:`~.design_prompts`, and the world model a prompt shows (:mod:`~.world_prompt`).

Importing these modules is cheap: ``openai`` is imported on the first request.
"""
