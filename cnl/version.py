"""The package version (one place; pyproject.toml carries the same number)."""
__version__ = "0.1.0"
