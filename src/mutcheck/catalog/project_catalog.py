"""A project's catalog: every target's read once, and joined where the run takes more than one."""

import sys

from mutcheck.catalog.catalog import Catalog, joined_catalogs, load_catalog
from mutcheck.catalog.config import Config


def target_catalogs(config: Config) -> tuple[Catalog, list[tuple[Config, Catalog]]]:
    """Every target's catalog joined (the one target's, alone), and each target's configuration with
    its catalog; each catalog is read once."""
    parts = [(one, load_catalog(one.catalog_dir, one.root, one.languages)) for one in config.each_target()]
    joined = parts[0][1] if len(parts) == 1 else joined_catalogs({one.catalog: catalog for one, catalog in parts})
    for source in joined.ignored:
        print(f"warning: {source} is mutmut's copy of a project file, not a catalog file: not read", file=sys.stderr)
    return joined, parts


def catalog_of(config: Config) -> Catalog:
    """The catalog of the configuration's target, or every target's joined."""
    return target_catalogs(config)[0]
