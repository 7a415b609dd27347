"""The agent loop: an LLM behind any OpenAI-compatible chat-completions endpoint calls the tools.

vLLM, Ollama, llama.cpp's server and OpenAI all speak ``POST {base_url}/chat/completions``
with native ``tools``/``tool_calls``. In ``cnl`` mode the model writes SQUALL CNL and the
compiler produces the SPARQL; in ``sparql`` mode it writes SPARQL itself. The loop stops on
``answer`` or ``cancel``, after ``max_steps`` model turns, or when the model keeps repeating
the same call; every request, reply and tool result goes to an optional JSONL transcript.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from cnl.agent.tools import CNL_MODE, SPARQL_MODE, Toolbox, ToolResult
from cnl.errors import AgentError, CNLError, ModelEndpointError

CNL_GUIDE = """\
Write queries in SQUALL, a controlled English that is compiled to SPARQL for you. Name entities,
classes and properties by ID in angle brackets (<Q25191>, <P57>, optionally with a label:
<P57:director>) or by exact label ([Christopher Nolan], <director>). Examples:
  What has <P57> <Q25191>?                          (works directed by Q25191)
  Who is the <P57> of <Q25188>?                     (the director of Q25188)
  Which <Q11424> has <P57> <Q25191> and has <P161> <Q38111>?
  How many <P166> of <Q25191> are there?
  Which <Q5> is-<P26> <Q25191>?                     (inverse: who has Q25191 as spouse)
  Who is the <P39> of <Q30> at the latest <P580>?   (qualifiers)"""

SYSTEM_PROMPTS = {
    SPARQL_MODE: (
        "You answer questions over a Wikidata-style knowledge graph by writing a SPARQL query. "
        "Work step by step with the tools: search for the entities and properties you need, "
        "inspect them, run candidate queries with execute_sparql, and finish by calling answer "
        "with the final SPARQL and a short answer (or cancel if the graph cannot answer). Use "
        "only IDs that a tool showed you. Prefixes wd:, wdt:, p:, ps:, pq:, rdfs: are predefined."),
    CNL_MODE: (
        "You answer questions over a Wikidata-style knowledge graph by writing a query in a "
        "controlled natural language (CNL). Work step by step with the tools: search for the "
        "entities and properties you need, inspect them, run candidate CNL queries with "
        "execute_cnl (a syntax error tells you where and what was expected), and finish by "
        "calling answer with the final CNL and a short answer (or cancel if the graph cannot "
        "answer). Use only IDs that a tool showed you. translate may suggest a first CNL query.\n\n"
        + CNL_GUIDE),
}


@dataclass
class ModelConfig:
    """Where the chat model is: base URL (…/v1), model name, API key; from env by default."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    temperature: float = 0.0

    @classmethod
    def from_env(cls, base_url: str | None = None, model: str | None = None, api_key: str | None = None,
                 **kwargs) -> "ModelConfig":
        base_url = base_url or os.environ.get("CNL_AGENT_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
        model = model or os.environ.get("CNL_AGENT_MODEL")
        api_key = api_key or os.environ.get("CNL_AGENT_API_KEY") or os.environ.get("OPENAI_API_KEY")
        if not base_url:
            raise AgentError("no chat model configured: give --base-url (e.g. http://127.0.0.1:8000/v1) "
                             "or set CNL_AGENT_BASE_URL")
        if not model:
            raise AgentError("no model name configured: give --model or set CNL_AGENT_MODEL")
        return cls(base_url.rstrip("/"), model, api_key, **kwargs)


class ChatClient:
    """A minimal OpenAI chat-completions client over httpx (one POST per model turn)."""

    def __init__(self, config: ModelConfig) -> None:
        import httpx

        self.config = config
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        self.http = httpx.Client(base_url=config.base_url, headers=headers, timeout=config.timeout)

    def close(self) -> None:
        self.http.close()

    def complete(self, messages: list[dict], tools: list[dict]) -> dict:
        """The assistant message of the first choice (``content``, ``tool_calls``)."""
        import httpx

        body = {"model": self.config.model, "messages": messages, "tools": tools,
                "tool_choice": "auto", "temperature": self.config.temperature}
        try:
            response = self.http.post("/chat/completions", json=body)
        except httpx.TimeoutException:
            raise ModelEndpointError(f"the chat model at {self.config.base_url} did not answer within "
                                     f"{self.config.timeout:g} s") from None
        except httpx.HTTPError as err:
            raise ModelEndpointError(f"cannot reach the chat model at {self.config.base_url}: {err}") from None
        if response.status_code != 200:
            raise ModelEndpointError(f"the chat model answered HTTP {response.status_code}: "
                                     f"{response.text[:300]}")
        try:
            return response.json()["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise ModelEndpointError(f"the chat model's reply is not a chat completion: "
                                     f"{response.text[:300]}") from None


@dataclass
class AgentResult:
    question: str
    mode: str
    status: str                  # answered | cancelled | step_limit | repeated | no_answer
    sparql: str | None = None
    cnl: str | None = None
    answer: str | None = None
    steps: int = 0
    tool_calls: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


class Transcript:
    """One JSON object per line: the run's events in order (or nothing, without a path)."""

    def __init__(self, path: str | Path | None) -> None:
        self.file = open(path, "a", encoding="utf-8") if path else None

    def write(self, event: str, **data) -> None:
        if self.file:
            self.file.write(json.dumps({"event": event, "time": round(time.time(), 3), **data},
                                       ensure_ascii=False) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()


def run_agent(question: str, toolbox: Toolbox, client: ChatClient, *, mode: str = CNL_MODE,
              max_steps: int = 20, max_repeats: int = 2, transcript: str | Path | None = None,
              system_prompt: str | None = None) -> AgentResult:
    """Let the model answer ``question`` with the tools of ``mode``; never raises on tool errors.

    A *step* is one model turn. A call repeating an earlier one (same tool, same arguments) is
    not run again: the model is told so, and after ``max_repeats`` such calls the run stops."""
    if mode not in (SPARQL_MODE, CNL_MODE):
        raise AgentError(f"unknown agent mode {mode!r}; choose sparql or cnl")
    tools = toolbox.schemas(mode)
    messages = [{"role": "system", "content": system_prompt or SYSTEM_PROMPTS[mode]},
                {"role": "user", "content": question}]
    log = Transcript(transcript)
    log.write("start", question=question, mode=mode, tools=[t["function"]["name"] for t in tools])
    result = AgentResult(question, mode, "step_limit")
    seen_calls: set[str] = set()
    repeats = 0
    last_query: tuple[str | None, str | None] = (None, None)
    try:
        for step in range(1, max_steps + 1):
            result.steps = step
            reply = client.complete(messages, tools)
            calls = reply.get("tool_calls") or []
            log.write("model", step=step, content=reply.get("content"), tool_calls=calls)
            messages.append({"role": "assistant", "content": reply.get("content"), "tool_calls": calls}
                            if calls else {"role": "assistant", "content": reply.get("content") or ""})
            if not calls:
                messages.append({"role": "user", "content": "Call a tool; finish with answer or cancel."})
                continue
            for call in calls:
                function = call.get("function") or {}
                name, arguments = function.get("name", ""), function.get("arguments") or "{}"
                key = name + "\0" + _canonical(arguments)
                if key in seen_calls:
                    repeats += 1
                    outcome = ToolResult(name, False, "you already made this exact call; its result is "
                                         "above. Try something different, or answer or cancel.")
                else:
                    seen_calls.add(key)
                    try:
                        outcome = toolbox.call(name, arguments, mode=mode)
                    except CNLError as err:  # unknown tool, malformed arguments
                        outcome = ToolResult(name, False, f"error: {err}")
                result.tool_calls.append(name)
                if outcome.sparql or outcome.cnl:
                    last_query = (outcome.sparql, outcome.cnl)
                log.write("tool", step=step, name=name, arguments=arguments, ok=outcome.ok, text=outcome.text)
                messages.append({"role": "tool", "tool_call_id": call.get("id", name), "content": outcome.text})
                if outcome.final:
                    result.status, result.sparql, result.cnl, result.answer = (
                        outcome.status, outcome.sparql, outcome.cnl, outcome.answer)
                    return result
            if repeats > max_repeats:
                result.status = "repeated"
                break
        # no answer: keep the last query that ran, as GRASP's best attempt
        result.sparql, result.cnl = last_query
        return result
    finally:
        log.write("end", **result.to_json())
        log.close()


def _canonical(arguments) -> str:
    try:
        value = json.loads(arguments) if isinstance(arguments, str) else arguments
        return json.dumps(value, sort_keys=True)
    except ValueError:
        return str(arguments)
