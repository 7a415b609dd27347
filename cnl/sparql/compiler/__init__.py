"""IR -> SPARQL text through a KG profile.

The compilation follows SQUALL's semantics: a noun phrase is compiled with a continuation
``k(term)`` that receives the term it denotes (a variable, an IRI or a literal), so
quantifiers decide *where* the rest of the sentence goes (inside ``FILTER NOT EXISTS`` for
``no``/``every``, ``OPTIONAL`` for ``maybe``, a counting sub-query for ``at least 3``...).

Every IRI comes from a validated ID and every literal is escaped, so nothing a user writes
can change the query's structure.

:class:`SparqlCompiler` holds one query's state and is made of one mixin per family of
constructs, a module each:

- ``driver``: the compiler's state, the question's shape, and the entry points
  (:func:`compile_query`, :func:`compile_cnl`, :func:`parse_cnl`, :func:`resolve_query`);
- ``terms``: IRIs and literals, labels resolved to IDs, variable names;
- ``noun_phrases``: determiners and quantifiers, nouns;
- ``verb_phrases``: what is said of a term: statements, ``is``, comparisons and other tests;
- ``statements``: the profile's statement model with qualifiers, property paths;
- ``modifiers``: orderings, count conditions, and the final query text;
- ``values``: values computed from values: a choice (``IF``), a count used as a value;
- ``groups``: the ``{ ... }`` group patterns everything is written into.
"""
from cnl.sparql.compiler.driver import SparqlCompiler, compile_cnl, compile_query, parse_cnl, resolve_query
from cnl.sparql.compiler.terms import Resolver, sparql_literal
from cnl.sparql.syntax import sparql_string

__all__ = ["SparqlCompiler", "Resolver", "compile_query", "compile_cnl", "parse_cnl", "resolve_query",
           "sparql_literal", "sparql_string"]
