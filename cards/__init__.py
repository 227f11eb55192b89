"""The card catalog (data files and their loader) and the tag registry."""

from cards.loader import BASE_SET, CatalogProblem, load_catalog, validate_files

__all__ = ["BASE_SET", "CatalogProblem", "load_catalog", "validate_files"]
