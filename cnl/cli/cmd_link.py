"""`cnl2sparql link "QUESTION" --store DIR [--format json]`: entity candidates for a question."""
from __future__ import annotations

import json

TAKES_PROFILE = False  # no --kg: the data sets' presets need not be imported


def register(subparsers) -> None:
    link = subparsers.add_parser("link", help="show entity-linking candidates for a question")
    link.add_argument("question")
    link.add_argument("--store", required=True, help="embedded store whose labels form the index")
    link.add_argument("--format", choices=["table", "json"], default="table")
    link.add_argument("--linker", choices=["builtin", "refined"], default="builtin")
    link.add_argument("--rebuild-index", action="store_true", help="rebuild the cached search index")
    link.set_defaults(func=run_link)


def run_link(args) -> int:
    from cnl.linking.linker import get_linker

    index = None
    if args.linker == "builtin":
        from cnl.linking.indices import entity_index_for_store

        index = entity_index_for_store(args.store, rebuild=args.rebuild_index)
    candidates = get_linker(args.linker, index).link(args.question)
    if args.format == "json":
        print(json.dumps([c.to_dict() for c in candidates], ensure_ascii=False, indent=2))
        return 0
    for c in candidates:
        print(f"{c.score:.3f}  {c.mention!r} [{c.start}:{c.end}] → {c.label} ({c.id}) — {c.description}")
    if not candidates:
        print("no entity found")
    return 0
