"""The ECAI-2023 SQUALL/Sparklis/SPARQL data (BridgeKGLM): loader, gold normalization,
SQUALL-gold alignment, its checks, and its conventions as the ``wikidata-ecai`` profile preset."""
from cnl.datasets.ecai import preset  # noqa: F401  (registers the wikidata-ecai profile)
