"""The optional CLIP retrieval backend: descriptions matched to type names by CLIP text
embeddings (``pip install 'pytest-logicenv[clip]'`` and a local checkpoint; never downloads).

>>> reason = clip_unavailable_reason()
>>> reason is None or isinstance(reason, str)
True
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog.properties import STRUCTURAL_TYPES
from pytest_logicenv.scenes.catalog.type_model import Catalog, Match
from pytest_logicenv.vocabulary import a_or_an, words_of

#: Environment variables that configure the optional CLIP backend.
CLIP_MODEL_ENV = "LOGICENV_CLIP_MODEL"
CLIP_ARCH_ENV = "LOGICENV_CLIP_ARCH"


def clip_unavailable_reason() -> str | None:
    """Why the CLIP backend cannot run here, or ``None`` when it can. It never downloads
    weights: ``$LOGICENV_CLIP_MODEL`` must name a local checkpoint file."""
    if importlib.util.find_spec("open_clip") is None:
        return "open_clip is not installed (pip install 'pytest-logicenv[clip]')"
    path = os.environ.get(CLIP_MODEL_ENV, "")
    if not path:
        return f"no local CLIP model configured (set ${CLIP_MODEL_ENV} to a checkpoint file)"
    if not Path(path).is_file():
        return f"${CLIP_MODEL_ENV}={path} is not a file"
    return None


class _ClipRetriever:
    """Matches descriptions to type names by CLIP text-embedding similarity."""

    def __init__(self, catalog: Catalog, model_path: str, arch: str) -> None:
        import open_clip
        import torch

        self._torch = torch
        model = open_clip.create_model(arch, pretrained=model_path)
        model.eval()
        self._model = model
        self._tokenizer = open_clip.get_tokenizer(arch)
        self._catalog = catalog
        self._names = [n for n in catalog.types if n not in STRUCTURAL_TYPES]
        self._types = self._embed([f"a photo of {a_or_an(words_of(n))}" for n in self._names])

    def _embed(self, texts: list[str]) -> Any:
        with self._torch.no_grad():
            features = self._model.encode_text(self._tokenizer(texts))
        return features / features.norm(dim=-1, keepdim=True)

    def resolve(self, description: str) -> Match:
        query = self._embed([f"a photo of {description}"])
        scores = (query @ self._types.T)[0]
        best = int(scores.argmax())
        name = self._names[best]
        assets = self._catalog.types[name].assets
        return Match(name, assets[0].id if assets else "", float(scores[best]), "clip")


_CLIP_RETRIEVERS: dict[tuple[int, str, str], _ClipRetriever] = {}


def clip_retriever(catalog: Catalog) -> _ClipRetriever:
    reason = clip_unavailable_reason()
    if reason is not None:
        raise SceneError(f"the CLIP retrieval backend is unavailable: {reason}")
    key = (id(catalog), os.environ[CLIP_MODEL_ENV], os.environ.get(CLIP_ARCH_ENV, "ViT-B-32"))
    if key not in _CLIP_RETRIEVERS:
        _CLIP_RETRIEVERS[key] = _ClipRetriever(catalog, key[1], key[2])
    return _CLIP_RETRIEVERS[key]
