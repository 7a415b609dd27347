"""SPARQL -> IR: the decompiler (the compiler's inverse on the queries CNL can express).

:func:`decompile_to_ir` returns the IR and the profile options under which it compiles back to
an equivalent query; anything else raises :class:`cnl.errors.UnsupportedSPARQLError` naming
the construct. It runs these stages over one :class:`~cnl.sparql.decompile.state.Decompilation`
(``pipeline``):

- ``parse``: SPARQL text -> rdflib's algebra;
- ``modifiers``: the head and solution modifiers (SELECT columns, COUNT and GROUP BY,
  ORDER BY, LIMIT/OFFSET) around the WHERE clause;
- ``flatten``: the WHERE clause -> nested groups (triples, FILTERs, OPTIONAL, UNION, MINUS, VALUES);
- ``binds``: the BINDs CNL can say (years compared or tested, an answer computed from the root);
- ``sentence``: the root the tree hangs from; after ``build``, the sentence around it;
- ``fold``: a group's triples -> edges (Wikidata statements with qualifiers, class tests);
- ``build``: edges and FILTERs -> noun phrases and verb phrases, a tree rooted at the root;
- ``options``: the profile options read from how the query is written.

Printing is the dialect's job: :func:`decompile` checks that the dialect can say the IR
(:func:`check_says`) and prints it, with labels from a lexicon (:func:`with_labels`).
"""
from cnl.sparql.decompile.pipeline import decompile_to_ir
from cnl.sparql.decompile.printing import check_says, decompile, with_labels

__all__ = ["decompile_to_ir", "decompile", "check_says", "with_labels"]
