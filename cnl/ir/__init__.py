"""The typed intermediate representation (IR): the one contract between the stages.

Every dialect parses into it and prints from it; every KG profile compiles from it; the
SPARQL decompiler produces it. It imports nothing else of the project. See
:mod:`cnl.ir.nodes` for the node types and the semantics they follow."""
from cnl.ir.nodes import *  # noqa: F401,F403  (the node types are the package's vocabulary)
from cnl.ir.nodes import NODE_TYPES, NP, VP, Noun, Term
from cnl.ir.serialize import from_json, to_json
from cnl.ir.traverse import (asks_for_values, depth, has_unlabelled_term, is_relational_phrase, labelled_ids,
                              map_children, map_terms, term_kind, terms, walk)

__all__ = [*NODE_TYPES, "NODE_TYPES", "NP", "VP", "Noun", "Term", "walk", "map_children", "map_terms", "terms",
           "asks_for_values", "is_relational_phrase", "depth", "term_kind", "labelled_ids", "has_unlabelled_term",
           "to_json", "from_json"]
