"""GRASP-style tools an LLM agent (or an MCP client, or an HTTP caller) uses to query a KG.

Every tool is a typed method of :class:`Toolbox` whose docstring describes it; the OpenAI
tool schema (``{"type": "function", "function": {name, description, parameters}}``) is
generated from the signature and the docstring's ``Args:`` section, so the schema and the
code cannot drift apart. Results are compact, bounded text tables whose IRI cells read
``label (wd:Q…)``: long tables show their first and last rows, as in GRASP.

Two generation modes share the search tools: in ``sparql`` mode the model writes SPARQL
(``execute_sparql``, ``answer(sparql=…)``); in ``cnl`` mode it writes SQUALL CNL
(``execute_cnl``, ``translate``, ``answer(cnl=…)``) and the compiler produces the SPARQL.

With ``know_before_use=True`` a query may only use entity and property IRIs that an earlier
tool result showed (GRASP's rule against invented IDs); the error names the unknown ones.

The code is split by responsibility: :mod:`cnl.agent.tool_schema` (the ``@tool`` marker, the
result type, schema generation), :mod:`cnl.agent.tool_text` (tables and IRIs as text),
:mod:`cnl.agent.toolbox` (registry, argument checks, shared helpers), and one module per group
of tools (:mod:`cnl.agent.search_tools`, :mod:`cnl.agent.query_tools`). A new group of tools is
a mixin of :class:`~cnl.agent.toolbox.ToolboxBase` in its own module, added to the bases below.
"""
from __future__ import annotations

from cnl.agent.query_tools import QueryTools, load_translator
from cnl.agent.search_tools import SearchTools
from cnl.agent.tool_schema import ALL_MODE, CNL_MODE, MODES, SPARQL_MODE, ToolResult, tool, tool_schema
from cnl.agent.tool_text import WD, WIKIDATA_NAMESPACES, compact, format_table
from cnl.agent.toolbox import MAX_ARGUMENT_CHARS, MAX_SEARCH_CHARS, ToolboxOptions


class Toolbox(SearchTools, QueryTools):
    """The tools over one knowledge graph, with its search indices and a lexicon built from them.

    ``kg`` is a :class:`cnl.kg.KnowledgeGraph`; ``entities``/``properties`` are the search
    indices (:func:`cnl.linking.indices.indices_for_store` builds them for a store);
    ``translator`` maps a question to CNL (default: ``cnl.translate`` when installed).
    """


__all__ = ["ALL_MODE", "CNL_MODE", "MAX_ARGUMENT_CHARS", "MAX_SEARCH_CHARS", "MODES", "SPARQL_MODE", "WD",
           "WIKIDATA_NAMESPACES", "Toolbox", "ToolboxOptions", "ToolResult", "compact", "format_table",
           "load_translator", "tool", "tool_schema"]
