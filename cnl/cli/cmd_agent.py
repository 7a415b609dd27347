"""`cnl2sparql agent "QUESTION" --store DIR --mode cnl|sparql`: an LLM answers with the tools."""
from __future__ import annotations

import json


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "agent", help="answer a question with an LLM agent (OpenAI-compatible endpoint) and the KG tools")
    parser.add_argument("question", help="the question in natural language")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--store", help="embedded store folder (see `kg load`)")
    where.add_argument("--endpoint", help="SPARQL endpoint URL (no search indices: search tools are unavailable)")
    parser.add_argument("--mode", choices=["cnl", "sparql"], default="cnl",
                        help="cnl: the model writes CNL compiled to SPARQL; sparql: it writes SPARQL")
    parser.add_argument("--base-url", help="chat-completions base URL, e.g. http://127.0.0.1:8000/v1 "
                                           "(default: $CNL_AGENT_BASE_URL or $OPENAI_BASE_URL)")
    parser.add_argument("--model", help="model name (default: $CNL_AGENT_MODEL)")
    parser.add_argument("--api-key-env", default=None,
                        help="name of the environment variable holding the API key "
                             "(default: $CNL_AGENT_API_KEY or $OPENAI_API_KEY)")
    parser.add_argument("--max-steps", type=positive_int, default=20, help="model turns before giving up")
    parser.add_argument("--max-tokens", type=positive_int, default=1024,
                        help="tokens the model may write per turn (sent as max_tokens)")
    parser.add_argument("--timeout", type=positive_float, default=120.0, help="seconds to wait for one model turn")
    parser.add_argument("--transcript", help="append the run's events to this JSONL file")
    parser.add_argument("--know-before-use", action=argparse_bool(), default=True,
                        help="refuse IDs no tool call has shown (default on; --no-know-before-use)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.set_defaults(func=run)


def positive_int(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_float(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def argparse_bool():
    import argparse

    return argparse.BooleanOptionalAction


def run(args) -> int:
    import os

    from cnl.agent.loop import ChatClient, ModelConfig, run_agent
    from cnl.agent.tools import Toolbox
    from cnl.kg import open_kg

    api_key = os.environ.get(args.api_key_env) if args.api_key_env else None
    config = ModelConfig.from_env(args.base_url, args.model, api_key, max_tokens=args.max_tokens,
                                  timeout=args.timeout)
    if args.store:
        toolbox = Toolbox.for_store(args.store, know_before_use=args.know_before_use)
    else:
        toolbox = Toolbox(open_kg(endpoint=args.endpoint), know_before_use=args.know_before_use)
    client = ChatClient(config)
    try:
        result = run_agent(args.question, toolbox, client, mode=args.mode, max_steps=args.max_steps,
                           transcript=args.transcript)
    finally:
        client.close()
        toolbox.kg.close()
    if args.format == "json":
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(f"status: {result.status} after {result.steps} steps: {result.message}")
        if result.cnl:
            print(f"cnl: {result.cnl}")
        if result.sparql:
            print(f"sparql:\n{result.sparql}")
        if result.answer:
            print(f"answer: {result.answer}")
    # 0 answered; 52 the chat model kept failing; 50 any other stop without an answer
    return 0 if result.status == "answered" else 52 if result.status == "model_error" else 50
