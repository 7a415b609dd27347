"""Render agent transcripts (`cnl2sparql agent --transcript FILE.jsonl`) as Markdown.

    python scripts/agent_transcript.py RUN.jsonl [MORE.jsonl …] > docs/agent-transcript.md

Each run becomes a section: the question and mode, then every model turn (its text, the calls
read from it and where from, the loop's notes), every tool call with its result, model errors,
and the end (status, steps, message, query). Long texts are shortened.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def shorten(text: str, limit: int) -> str:
    text = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + f" … [{len(text) - limit:,} more characters]"


def block(text: str, limit: int) -> list[str]:
    return ["```text", shorten(text, limit).replace("```", "'''"), "```"]


def render(path: Path, limit: int) -> list[str]:
    events = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    out: list[str] = []
    for event in events:
        kind = event["event"]
        if kind == "start":
            tools = ", ".join(f"`{t}`" for t in event["tools"])
            out += [f"## {event['question']}", "", f"Mode `{event['mode']}`; tools offered: {tools}.", ""]
        elif kind == "model":
            calls = event.get("tool_calls") or []
            out += [f"**Turn {event['step']}** (model, finish reason `{event.get('finish_reason')}`):", ""]
            if event.get("content"):
                out += block(event["content"], limit) + [""]
            for call in calls:
                out.append(f"- call `{call['name']}` `{shorten(call['arguments'], 300)}` "
                           f"(from {call.get('source', 'tool_calls')})")
            if not calls:
                out.append("- no tool call")
            for note in event.get("notes") or []:
                out.append(f"- loop note: {note}")
            out.append("")
        elif kind == "model_error":
            error = shorten(event["error"], 300)
            out += [f"**Turn {event['step']}**: the server failed (HTTP {event.get('http_status')}): {error}", ""]
        elif kind == "tool":
            out += [f"Tool `{event['name']}` → {'ok' if event['ok'] else 'error'}:", ""]
            out += block(event["text"], limit) + [""]
        elif kind == "end":
            out += [f"**End**: status `{event['status']}` after {event['steps']} steps — {event.get('message', '')}",
                    ""]
            for key in ("cnl", "sparql", "answer"):
                if event.get(key):
                    out += [f"{key}:", ""] + block(event[key], limit) + [""]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcripts", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=1200, help="characters kept of each text")
    parser.add_argument("--title", default="Agent transcript")
    args = parser.parse_args()
    lines = [f"# {args.title}", ""]
    for path in args.transcripts:
        try:
            lines += render(path, args.limit)
        except (OSError, ValueError, KeyError) as err:
            print(f"error: {path}: {err}", file=sys.stderr)
            return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
