"""The agent loop: an LLM behind any OpenAI-compatible chat-completions endpoint calls the tools.

vLLM, Ollama, llama.cpp's server, ``transformers serve`` and OpenAI all speak
``POST {base_url}/chat/completions`` with native ``tools``/``tool_calls``. In ``cnl`` mode the
model writes SQUALL CNL and the compiler produces the SPARQL; in ``sparql`` mode it writes
SPARQL itself; every request, reply and tool result goes to an optional JSONL transcript.

Small models break the protocol in every way, so the loop assumes nothing of a reply:

* tool calls come from ``tool_calls``, or, when a server left them in the text, from
  ``<tool_call>{…}</tool_call>`` blocks, fenced JSON or a bare ``{"name", "arguments"}``
  object naming a tool of the mode (JSON only: text is never evaluated); at most
  ``MAX_CALLS_PER_TURN`` per turn;
* arguments that are not a JSON object reach the tool, whose error tells the model what was
  wrong; what is sent back to the server as history is always well-formed JSON;
* a call identical to an earlier one is not re-run, nor is an identical text reply counted
  as progress; more than ``max_repeats`` of them stop the run (``repeated``);
* ``max_idle`` turns in a row without a tool call stop it (``no_tool_call``);
* an HTTP 5xx from the server (some fail on a tool call they cannot parse) is retried with a
  note to the model, ``max_model_errors`` times, then stops the run (``model_error``);
* ``max_steps`` model turns bound everything (``step_limit``).

Every stop carries a ``message`` that says why, and the last query that ran is kept as the
best attempt.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from cnl.agent.tools import CNL_MODE, SPARQL_MODE, Toolbox, ToolResult
from cnl.errors import AgentError, CNLError, ModelEndpointError
from cnl.kg.limits import check_deadline, time_left

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
    max_tokens: int | None = 1024   # per model turn: a rambling model is cut here

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
        """The assistant message of the first choice (``content``, ``tool_calls``), plus its
        ``finish_reason``. A failed request raises :class:`ModelEndpointError`, whose
        ``http_status`` is the server's status (``None`` when no answer came)."""
        import httpx

        body = {"model": self.config.model, "messages": messages, "tools": tools,
                "tool_choice": "auto", "temperature": self.config.temperature}
        if self.config.max_tokens:
            body["max_tokens"] = self.config.max_tokens
        left = time_left()  # a server request's deadline bounds the model's turn too
        timeout = self.config.timeout if left is None else min(self.config.timeout, max(left, 0.1))
        try:
            try:
                response = self.http.post("/chat/completions", json=body, timeout=timeout)
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError):
                # a kept-alive connection the server dropped (uvicorn does after a 500): once more, anew
                response = self.http.post("/chat/completions", json=body, timeout=timeout)
        except httpx.TimeoutException:
            raise ModelEndpointError(f"the chat model at {self.config.base_url} did not answer within "
                                     f"{timeout:g} s") from None
        except httpx.HTTPError as err:
            raise ModelEndpointError(f"cannot reach the chat model at {self.config.base_url}: {err}") from None
        if response.status_code != 200:
            error = ModelEndpointError(f"the chat model answered HTTP {response.status_code}: "
                                       f"{response.text[:300]}")
            error.http_status = response.status_code
            raise error
        try:
            choice = response.json()["choices"][0]
            message = choice["message"]
            if not isinstance(message, dict):
                raise TypeError
        except (ValueError, KeyError, IndexError, TypeError):
            raise ModelEndpointError(f"the chat model's reply is not a chat completion: "
                                     f"{response.text[:300]}") from None
        return {**message, "finish_reason": choice.get("finish_reason")}


STATUSES = ("answered", "cancelled", "step_limit", "repeated", "no_tool_call", "model_error")
MAX_CALLS_PER_TURN = 5
_MAX_TEXT_CALL_CHARS = 50_000      # longer replies are not searched for tool calls


@dataclass
class AgentResult:
    question: str
    mode: str
    status: str                  # one of STATUSES
    sparql: str | None = None
    cnl: str | None = None
    answer: str | None = None
    steps: int = 0
    tool_calls: list[str] = field(default_factory=list)
    message: str = ""            # why the run stopped, in one sentence

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


class Transcript:
    """One JSON object per line: the run's events in order (or nothing, without a path)."""

    def __init__(self, path: str | Path | None) -> None:
        self.file = open(path, "a", encoding="utf-8") if path else None

    def write(self, event: str, **data) -> None:
        if self.file:
            self.file.write(json.dumps({"event": event, "time": round(time.time(), 3), **data},
                                       ensure_ascii=False, default=str) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()


@dataclass
class ToolCall:
    """One call as the loop runs it: ``arguments`` is the model's text, unchanged."""

    id: str
    name: str
    arguments: str
    source: str = "tool_calls"   # tool_calls | text (recovered from the reply's text)

    def as_history(self) -> dict:
        """The call as sent back to the server: arguments that are not a JSON object become {}
        (servers re-parse the history; the tool result already told the model what was wrong)."""
        value = _json_object(self.arguments)
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": json.dumps(value if value is not None else {})}}


def run_agent(question: str, toolbox: Toolbox, client: ChatClient, *, mode: str = CNL_MODE,
              max_steps: int = 20, max_repeats: int = 2, max_idle: int = 3, max_model_errors: int = 2,
              transcript: str | Path | None = None, system_prompt: str | None = None) -> AgentResult:
    """Let the model answer ``question`` with the tools of ``mode``; never raises on what the model does.

    A *step* is one model turn. A call repeating an earlier one (same tool, same arguments) is
    not run again: the model is told so, and after ``max_repeats`` such calls (or repeated
    text replies) the run stops; so it does after ``max_idle`` turns in a row without a tool
    call, after ``max_model_errors`` HTTP 5xx answers past the first, and after ``max_steps``.
    Only a chat endpoint that cannot be used at all (unreachable, 4xx, not a chat completion)
    raises :class:`ModelEndpointError`."""
    if mode not in (SPARQL_MODE, CNL_MODE):
        raise AgentError(f"unknown agent mode {mode!r}; choose sparql or cnl")
    if max_steps < 1:
        raise AgentError(f"max_steps must be at least 1, not {max_steps}")
    tools = toolbox.schemas(mode)
    names = [t["function"]["name"] for t in tools]
    messages = [{"role": "system", "content": system_prompt or SYSTEM_PROMPTS[mode]},
                {"role": "user", "content": question}]
    log = Transcript(transcript)
    log.write("start", question=question, mode=mode, tools=names)
    result = AgentResult(question, mode, "step_limit")
    seen_calls: set[str] = set()
    seen_texts: set[str] = set()
    repeats = idle = model_errors = 0
    last_query: tuple[str | None, str | None] = (None, None)
    try:
        for step in range(1, max_steps + 1):
            result.steps = step
            check_deadline()  # in a server request: no model turn after its deadline
            try:
                reply = client.complete(messages, tools)
            except ModelEndpointError as err:
                status = getattr(err, "http_status", None)
                if status is None or status < 500:   # unreachable, timed out, refused: not the model's doing
                    result.status, result.message = "model_error", str(err)
                    raise
                model_errors += 1
                log.write("model_error", step=step, http_status=status, error=str(err))
                if model_errors > max_model_errors:
                    result.status = "model_error"
                    result.message = (f"the chat model failed {model_errors} times (last: HTTP {status}); "
                                      f"stopped after {step} steps")
                    break
                _tell(messages, f"The server could not read your last reply (HTTP {status}). Call one tool, "
                                f"with its arguments as a JSON object, e.g. {_example_call(names)}.")
                continue
            content, calls, notes = _read_reply(reply, names, step)
            log.write("model", step=step, content=content, finish_reason=reply.get("finish_reason"),
                      tool_calls=[c.__dict__ for c in calls], notes=notes)
            if not calls:
                messages.append({"role": "assistant", "content": content})
                idle += 1
                key = " ".join(content.split())
                if key in seen_texts:
                    repeats += 1
                seen_texts.add(key)
                if repeats > max_repeats:
                    result.status = "repeated"
                    result.message = (f"the model repeated itself {repeats} times without progress; "
                                      f"stopped after {step} steps")
                    break
                if idle >= max_idle:
                    result.status = "no_tool_call"
                    result.message = f"the model called no tool in {idle} turns in a row; stopped after {step} steps"
                    break
                _tell(messages, _nudge(notes, names, reply.get("finish_reason")))
                continue
            idle = 0
            messages.append({"role": "assistant", "content": content if calls[0].source == "tool_calls" else None,
                             "tool_calls": [c.as_history() for c in calls]})
            for call in calls:
                key = call.name + "\0" + _canonical(call.arguments)
                if key in seen_calls:
                    repeats += 1
                    outcome = ToolResult(call.name, False, "you already made this exact call; its result is "
                                         "above. Try something different, or answer or cancel.")
                else:
                    seen_calls.add(key)
                    outcome = _run_tool(toolbox, call, mode)
                result.tool_calls.append(call.name)
                if outcome.sparql or outcome.cnl:
                    last_query = (outcome.sparql, outcome.cnl)
                log.write("tool", step=step, name=call.name, arguments=call.arguments, ok=outcome.ok,
                          text=outcome.text)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": outcome.text})
                if outcome.final:
                    result.status, result.sparql, result.cnl, result.answer = (
                        outcome.status, outcome.sparql, outcome.cnl, outcome.answer)
                    result.message = (f"the model answered after {step} steps" if outcome.status == "answered"
                                      else f"the model cancelled after {step} steps")
                    return result
            if notes:
                _tell(messages, " ".join(notes))
            if repeats > max_repeats:
                result.status = "repeated"
                result.message = (f"the model repeated the same call {repeats} times; "
                                  f"stopped after {step} steps")
                break
        else:
            result.message = f"no answer after {max_steps} model turns (--max-steps)"
        # no answer: keep the last query that ran, as GRASP's best attempt
        result.sparql, result.cnl = last_query
        return result
    finally:
        log.write("end", **result.to_json())
        log.close()


def _tell(messages: list[dict], text: str) -> None:
    """Add a note for the model as a user turn, joined to the last one if that is a user turn
    (some chat templates refuse two user turns in a row)."""
    if messages[-1]["role"] == "user":
        messages[-1] = {**messages[-1], "content": messages[-1]["content"] + "\n\n" + text}
    else:
        messages.append({"role": "user", "content": text})


def _run_tool(toolbox: Toolbox, call: ToolCall, mode: str) -> ToolResult:
    try:
        return toolbox.call(call.name, call.arguments, mode=mode)
    except CNLError as err:  # unknown tool, malformed arguments
        return ToolResult(call.name, False, f"error: {err}")
    except Exception as err:  # a bug in a tool must not end the run; the model sees one line
        return ToolResult(call.name, False, f"error: the tool failed ({type(err).__name__}: {str(err)[:200]})")


def _read_reply(reply: dict, names: list[str], step: int) -> tuple[str, list[ToolCall], list[str]]:
    """(text, calls, notes for the model) of one assistant message, whatever its shape."""
    notes: list[str] = []
    content = reply.get("content")
    if isinstance(content, list):   # content parts
        content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    content = content if isinstance(content, str) else ("" if content is None else json.dumps(content, default=str))
    calls: list[ToolCall] = []
    raw = reply.get("tool_calls")
    if raw and not isinstance(raw, list):
        raw = [raw]
    for i, item in enumerate(raw or []):
        function = item.get("function") if isinstance(item, dict) else None
        function = function if isinstance(function, dict) else (item if isinstance(item, dict) else {})
        name = function.get("name")
        arguments = function.get("arguments", function.get("parameters"))
        if not isinstance(name, str) or not name:
            notes.append("A tool call had no tool name; name one of: " + ", ".join(names) + ".")
            continue
        call_id = item.get("id") if isinstance(item.get("id"), str) and item.get("id") else f"call_{step}_{i}"
        calls.append(ToolCall(call_id, name, _arguments_text(arguments)))
    if not calls and content:
        found, text_notes = _calls_in_text(content, names, step)
        calls, notes = found, notes + text_notes
    if len(calls) > MAX_CALLS_PER_TURN:
        notes.append(f"Only the first {MAX_CALLS_PER_TURN} of your {len(calls)} tool calls were run.")
        calls = calls[:MAX_CALLS_PER_TURN]
    return content, calls, notes


def _arguments_text(arguments) -> str:
    if arguments is None:
        return "{}"
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments, ensure_ascii=False, default=str)


_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_MAX_OBJECTS_TRIED = 50


def _calls_in_text(text: str, names: list[str], step: int) -> tuple[list[ToolCall], list[str]]:
    """Tool calls a model wrote into its text: JSON objects ``{"name": TOOL, "arguments": {…}}``
    (also ``parameters``, or wrapped as ``{"function": {…}}``) inside ``<tool_call>`` blocks, code
    fences or the prose itself. Only JSON is read (text is never evaluated), and only objects
    naming a tool of this mode count; inside ``<tool_call>`` an unknown name counts too (the tool
    then says which exist). Something meant as a call that is not JSON yields a note for the
    model saying what to fix."""
    if len(text) > _MAX_TEXT_CALL_CHARS:
        return [], []
    tagged = _TAGGED.findall(text)
    calls: list[ToolCall] = []
    decoder = json.JSONDecoder()
    error: ValueError | None = None
    for block in tagged or [text]:
        position, tried = block.find("{"), 0
        while position >= 0 and tried < _MAX_OBJECTS_TRIED:
            tried += 1
            try:
                value, end = decoder.raw_decode(block, position)
            except ValueError as err:
                error = error or err
                position = block.find("{", position + 1)
                continue
            found = [c for c in (_as_call(item, names, bool(tagged)) for item in
                                 (value if isinstance(value, list) else [value])) if c]
            for name, arguments in found:
                calls.append(ToolCall(f"call_{step}_{len(calls)}", name, arguments, "text"))
            position = block.find("{", end if found else position + 1)
    notes = []
    if not calls and (tagged or re.search(r'"name"\s*:\s*"(%s)"' % "|".join(map(re.escape, names)), text)):
        reason = f" ({error})" if error else ""
        notes.append(f"Your tool call could not be read: it is not a JSON object{reason}. Write it as "
                     f"{_example_call(names)}.")
    return calls, notes


def _as_call(item, names: list[str], tagged: bool) -> tuple[str, str] | None:
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict):
        item = item["function"]
    name = item.get("name")
    if not isinstance(name, str) or not (name in names or tagged):
        return None
    if "arguments" not in item and "parameters" not in item and not tagged:
        return None          # {"name": "search_entity"} alone in prose is more likely a description
    return name, _arguments_text(item.get("arguments", item.get("parameters")))


def _json_object(arguments: str) -> dict | None:
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _example_call(names: list[str]) -> str:
    """The shape of a call, with a placeholder that is not JSON: a model echoing it runs nothing."""
    name = "search_entity" if "search_entity" in names else names[0]
    return '{"name": "%s", "arguments": {"query": <what to look for>}}' % name


def _nudge(notes: list[str], names: list[str], finish_reason: str | None) -> str:
    parts = list(notes)
    if finish_reason == "length":
        parts.append("Your reply was cut off at the token limit; keep replies short.")
    parts.append(f"No tool was called. Call one of the tools ({', '.join(names)}) with its arguments as "
                 f"a JSON object, e.g. {_example_call(names)}; finish with answer, or cancel.")
    return " ".join(parts)


def _canonical(arguments) -> str:
    try:
        value = json.loads(arguments) if isinstance(arguments, str) else arguments
        return json.dumps(value, sort_keys=True)
    except ValueError:
        return str(arguments)
