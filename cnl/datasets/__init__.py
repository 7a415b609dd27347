"""Data sets, one folder each (``ecai/``, ``qald/``, ``wwq/``): loaders, quirks and presets.

Importing this package registers the data sets' profile presets (``--kg wikidata-ecai``); it
reads no data file. Data is read at run time from ``$CNL_DATA_DIR`` or ``../shared/data``
and only by reports, tests and evaluations, never by ``compile``/``translate``/``serve``."""
from cnl.datasets import ecai  # noqa: F401  (registers presets)
from cnl.datasets import wwq  # noqa: F401  (registers presets)
