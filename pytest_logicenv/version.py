"""The package's version, on the ground floor so that any layer can record it (the cache's
manifests name the generator that wrote them) without importing the package's public API."""

__version__ = "0.1.0"
