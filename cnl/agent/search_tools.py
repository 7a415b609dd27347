"""The search tools: entities, properties, an entity's properties, a property's values, triples."""
from __future__ import annotations

from cnl.agent.tool_schema import ToolResult, tool
from cnl.agent.tool_text import WD, WIKIDATA_NAMESPACES, compact, format_table
from cnl.agent.toolbox import ToolboxBase
from cnl.errors import ToolCallError
from cnl.kg.limits import check_deadline


def fuzzy_rank_properties(query: str, candidates, k: int) -> list:
    """``(property, score)`` for the ``k`` properties whose label or an alias best matches the
    query (rapidfuzz's WRatio, an exact match first); stops at the request's deadline."""
    from rapidfuzz import fuzz

    from cnl.linking.text import normalize

    q = normalize(query)
    scored = []
    for i, prop in enumerate(candidates):
        if i % 256 == 0:
            check_deadline()  # thousands of fuzzy matches: the request's deadline stops them
        names = [normalize(n) for n in (prop.label, *prop.aliases)]
        score = max((100.0 if n == q else fuzz.WRatio(q, n) for n in names if n), default=0.0)
        scored.append((prop, score / 100))
    scored.sort(key=lambda ps: ps[1], reverse=True)
    return scored[:k]


class SearchTools(ToolboxBase):
    """Tools that look things up in the KG and its indices (every mode)."""

    @tool()
    def search_entity(self, query: str) -> ToolResult:
        """Search the knowledge graph for entities (people, places, works, classes) by name.

        Uses a prefix-keyword index over labels and aliases; results are ranked by match quality
        and popularity. Returns up to 10 entities with their IDs and descriptions.

        Args:
            query: words of the entity's name, e.g. "Christopher Nolan" or "nolan"
        """
        if self.entities is None:
            raise ToolCallError("this knowledge graph has no entity index")
        hits = self.entities.search(query, k=self.options.search_k)
        self.remember_iris(WD + e.id for e, _ in hits)
        rows = [[f"{e.label} ({compact(WD + e.id)})", e.description, str(e.popularity)] for e, _ in hits]
        if not rows:
            return ToolResult("search_entity", True, f"no entity matches {query!r}")
        return ToolResult("search_entity", True, format_table(["entity", "description", "popularity"], rows))

    def _property_rows(self, hits) -> list[list[str]]:
        self.remember_iris(WD + p.id for p, _ in hits)
        return [[f"{p.label} ({compact(WIKIDATA_NAMESPACES['wdt'] + p.id)})", ", ".join(p.aliases[:4]),
                 p.description] for p, _ in hits]

    @tool()
    def search_property(self, query: str) -> ToolResult:
        """Search the knowledge graph for properties (relations) by name or meaning.

        Returns up to 10 properties with their IDs, aliases and descriptions.

        Args:
            query: what the relation is about, e.g. "director" or "place of birth"
        """
        if self.properties is None or not len(self.properties):
            raise ToolCallError("this knowledge graph has no property index")
        k = self.options.search_k
        if self.options.semantic_properties:
            hits = self.properties.search(query, k=k)
        else:
            exact = self.properties.search(query, k=k, semantic=False)
            seen = {p.id for p, _ in exact}
            hits = exact + [h for h in fuzzy_rank_properties(query, self.properties.properties, k)
                            if h[0].id not in seen]
            hits = hits[:k]
        return ToolResult("search_property", True,
                          format_table(["property", "aliases", "description"], self._property_rows(hits)))

    @tool()
    def search_property_of_entity(self, entity: str, query: str = "") -> ToolResult:
        """Search the properties an entity actually has, as subject (outgoing) or as object (incoming).

        Lists each property with its direction, an example value and how many triples use it,
        best match for the query first.

        Args:
            entity: the entity's ID, e.g. "Q25191" or "wd:Q25191"
            query: what the relation is about, e.g. "director"; empty lists the most used
        """
        iri = self.parse_iri(entity)
        self.require_known([iri])
        wdt = WIKIDATA_NAMESPACES["wdt"]
        found = []  # (property ID, direction, example term, count)
        for direction, pattern in (("outgoing", f"<{iri}> ?p ?x"), ("incoming", f"?x ?p <{iri}>")):
            table = self.kg.select(
                f"SELECT ?p (SAMPLE(?x) AS ?example) (COUNT(*) AS ?n) WHERE {{ {pattern} "
                f"FILTER(STRSTARTS(STR(?p), \"{wdt}\")) }} GROUP BY ?p")
            for p, example, n in table.rows:
                found.append((p.value[len(wdt):], direction, example, int(n.value)))
        if not found:
            return ToolResult("search_property_of_entity", True, f"{compact(iri)} has no {wdt} properties")
        from cnl.linking.property_index import Property

        props = {pid: self.property_by_id.get(pid) or Property(pid, self.label_of(pid) or pid) for pid, *_ in found}
        if query.strip():
            order = {p.id: s for p, s in fuzzy_rank_properties(query, props.values(), len(props))}
            found.sort(key=lambda f: (-order.get(f[0], 0.0), -f[3]))
        else:
            found.sort(key=lambda f: -f[3])
        self.remember_iris(WD + f[0] for f in found)
        examples = [f[2] for f in found if f[2] is not None and f[2].is_iri]
        self.remember_iris(t.value for t in examples)
        labels = self.labels_for(t.value for t in examples)
        rows = [[f"{props[pid].label} ({compact(wdt + pid)})", direction, self.cell_text(example, labels), str(n)]
                for pid, direction, example, n in found]
        return ToolResult("search_property_of_entity", True,
                          format_table(["property", "direction", "example", "triples"], rows,
                                       max_rows=self.options.max_rows))

    @tool()
    def search_object_of_property(self, property: str, query: str = "") -> ToolResult:
        """Search the values (objects) a property takes anywhere in the knowledge graph.

        Lists entities and literals found in object position of the property, best match for
        the query first, then the most frequent.

        Args:
            property: the property's ID, e.g. "P57" or "wdt:P57"
            query: words of the value's name; empty lists the most frequent values
        """
        iri = self.parse_iri(property, "property")
        self.require_known([iri])
        table = self.kg.select(f"SELECT ?o (COUNT(*) AS ?n) WHERE {{ ?s <{iri}> ?o }} "
                               f"GROUP BY ?o ORDER BY DESC(?n) LIMIT 5000")
        labels = self.labels_for(t.value for t, _ in table.rows if t.is_iri)
        values = [(t, labels.get(t.value, t.value) if t.is_iri else t.value, int(n.value)) for t, n in table.rows]
        if query.strip():
            from rapidfuzz import fuzz

            from cnl.linking.text import normalize

            q = normalize(query)
            scores = []
            for i, value in enumerate(values):
                if i % 256 == 0:
                    check_deadline()
                scores.append(fuzz.WRatio(q, normalize(value[1]) or "?"))
            order = sorted(range(len(values)), key=lambda i: (-scores[i], -values[i][2]))
            values = [values[i] for i in order]
        shown = values[: self.options.search_k]
        self.remember_iris(t.value for t, _, _ in shown if t.is_iri)
        rows = [[self.cell_text(t, labels), str(n)] for t, _, n in shown]
        if not rows:
            return ToolResult("search_object_of_property", True, f"no triple uses {compact(iri)}")
        return ToolResult("search_object_of_property", True,
                          format_table(["value", "triples"], rows, total=len(values)))

    @tool()
    def list_triples(self, subject: str | None = None, property: str | None = None,
                     object: str | None = None) -> ToolResult:
        """List up to 10 triples matching the given subject, property and/or object (all optional).

        Prefers diverse triples (different properties) so one call gives a sense of an entity.
        Without a property only direct (wdt:) statements are listed.

        Args:
            subject: an entity ID such as "Q25188", or empty
            property: a property ID such as "P57", or empty
            object: an entity ID, or a literal in double quotes such as "\\"Inception\\"@en", or empty
        """
        patterns, filters = [], []
        s = f"<{self.parse_iri(subject)}>" if subject else "?s"
        p = f"<{self.parse_iri(property, 'property')}>" if property else "?p"
        if object and object.strip().startswith('"'):
            o = self.parse_literal(object.strip())
        else:
            o = f"<{self.parse_iri(object)}>" if object else "?o"
        self.require_known([t[1:-1] for t in (s, p, o) if t.startswith("<")])
        if not property:
            filters.append(f'FILTER(STRSTARTS(STR(?p), "{WIKIDATA_NAMESPACES["wdt"]}"))')
        patterns.append(f"{s} {p} {o} .")
        table = self.kg.select(f"SELECT * WHERE {{ {' '.join(patterns + filters)} }} LIMIT 500")
        # round-robin over properties (or subjects) so ten rows show ten different facts
        from cnl.kg.results import IRI, Term

        fixed = {"s": s, "p": p, "o": o}
        columns = table.columns
        full_rows = []
        for row in table.rows:
            bound = dict(zip(columns, row))
            full_rows.append(tuple(bound.get(k) or (Term(IRI, fixed[k][1:-1]) if fixed[k].startswith("<") else
                                                     Term("literal", fixed[k])) for k in "spo"))
        groups: dict[str, list] = {}
        for row in full_rows:
            groups.setdefault(row[1].value if not property else row[0].value, []).append(row)
        picked, queues = [], list(groups.values())
        while queues and len(picked) < 10:
            queues = [q for q in queues if q]
            for q in queues:
                if len(picked) < 10 and q:
                    picked.append(q.pop(0))
        if not picked:
            return ToolResult("list_triples", True, "no matching triples")
        from cnl.kg.results import ResultTable

        text = self.table_text(ResultTable(["subject", "property", "object"], picked))
        text = text.rsplit("\n", 1)[0] + f"\n({len(picked)} of {len(full_rows)}{'+' if len(full_rows) == 500 else ''} triples)"
        return ToolResult("list_triples", True, text)
