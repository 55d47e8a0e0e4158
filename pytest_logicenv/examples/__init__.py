"""Runnable example policies and scenes (the paper's Clean Living Room)."""
