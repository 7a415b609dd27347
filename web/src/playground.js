// The cnl2sparql playground: question -> CNL (editable, completed against the KG) -> SPARQL -> answers.
//
// Built once with `npm ci && npm run build` (web/build.sh) into cnl/agent/static/playground.js,
// which is committed: the package ships it and nothing is fetched from elsewhere at run time.
// Everything the server sends is rendered as text (textContent, attributes set one by one,
// links only to http(s) URLs): no server string is ever parsed as HTML.

import {EditorState, StateEffect, StateField, Prec} from "@codemirror/state";
import {EditorView, Decoration, hoverTooltip, keymap, placeholder, drawSelection} from "@codemirror/view";
import {defaultKeymap, history as editHistory, historyKeymap} from "@codemirror/commands";
import {autocompletion, completionKeymap, acceptCompletion, startCompletion, closeCompletion, completionStatus, selectedCompletion} from "@codemirror/autocomplete";
import {linter, lintKeymap, forceLinting} from "@codemirror/lint";
import {StreamLanguage, syntaxHighlighting} from "@codemirror/language";
import {classHighlighter} from "@lezer/highlight";

const HISTORY_KEY = "cnl2sparql-playground-history";
const HISTORY_SIZE = 20;

const state = {
  dataset: null,        // the dataset IRI (null: the server's default)
  candidates: [],       // entity IDs linked from the last question: offered first after "["
  question: "",
  analysis: null,       // the last /analyze answer, for the text it was made for
  analysisText: null,
  runSerial: 0,
};

// ---------------------------------------------------------------- helpers

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "href") { if (safeUrl(value)) node.setAttribute("href", value); }
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function safeUrl(url) {
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch (err) {
    return false;
  }
}

// The server counts characters as code points, JavaScript strings as UTF-16 units.
function toServerOffset(text, unit) { return Array.from(text.slice(0, unit)).length; }
function toEditorOffset(text, point) {
  let units = 0, points = 0;
  for (const ch of text) {
    if (points >= point) break;
    units += ch.length;
    points += 1;
  }
  return units;
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  let doc = null;
  try { doc = await response.json(); } catch (err) { doc = null; }
  if (!response.ok) {
    const message = doc && doc.error && doc.error.message ? doc.error.message : `HTTP ${response.status}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return doc;
}

function setStatus(text, busy = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("busy", busy);
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

// ---------------------------------------------------------------- the editor's language

const squall = StreamLanguage.define({
  name: "squall",
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match(/^(?:is|are|was|were|has|have)-<(?:[^<>\\\n]|\\.)*>?/i)) return "propertyName";
    if (stream.match(/^\^?<(?:[^<>\\\n]|\\.)*>?/)) return "propertyName";
    if (stream.match(/^\[(?:[^[\]\\\n]|\\.)*\]?/)) return "atom";
    if (stream.match(/^"(?:[^"\\\n]|\\.)*"?(?:@[A-Za-z-]+)?/)) return "string";
    if (stream.match(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}Z)?/)) return "number";
    if (stream.match(/^\d+(?:\.\d+)?(?:st|nd|rd|th)?/i)) return "number";
    if (stream.match(/^\?[A-Za-z_]\w*/)) return "variableName";
    if (stream.match(/^[A-Za-z][A-Za-z'-]*/)) return "keyword";
    stream.next();
    return "punctuation";
  },
});

// Terms as the server resolved them: marks with their kind (and a problem, when a label does not resolve).
const setTerms = StateEffect.define();
const termMarks = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const effect of tr.effects) if (effect.is(setTerms)) marks = effect.value;
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

function termsDecorations(text, terms) {
  const ranges = [];
  for (const term of terms) {
    const from = toEditorOffset(text, term.from), to = toEditorOffset(text, term.to);
    if (to <= from) continue;
    const kind = term.problem ? "unknown" : term.kind;
    ranges.push(Decoration.mark({class: `cm-term cm-term-${kind}`, attributes: {"data-term-id": term.id || ""}}).range(from, to));
  }
  return Decoration.set(ranges, true);
}

function termAt(text, pos) {
  if (!state.analysis || state.analysisText !== text) return null;
  for (const term of state.analysis.terms) {
    const from = toEditorOffset(text, term.from), to = toEditorOffset(text, term.to);
    if (pos >= from && pos <= to) return {term, from, to};
  }
  return null;
}

const termTooltips = hoverTooltip((view, pos) => {
  const found = termAt(view.state.doc.toString(), pos);
  if (!found) return null;
  return {pos: found.from, end: found.to, above: true, create: () => ({dom: termCard(found.term)})};
});

function termCard(term) {
  const card = el("div", {class: "term-card"});
  const kind = term.kind === "property" ? "property" : "entity or class";
  card.append(el("div", {class: "term-title"}, term.name || term.label || term.id || term.text,
                 term.id ? el("span", {class: "term-id"}, ` ${term.id}`) : null));
  card.append(el("div", {class: "term-kind"}, kind));
  if (term.description) card.append(el("div", {class: "term-description"}, term.description));
  if (term.problem) card.append(el("div", {class: "term-problem"}, term.problem));
  if (term.suggestions && term.suggestions.length) {
    card.append(el("div", {class: "term-suggestions"}, "closest: " + term.suggestions.join(", ")));
  }
  if (term.url && safeUrl(term.url)) {
    card.append(el("a", {href: term.url, target: "_blank", rel: "noopener noreferrer"}, "open the item ↗"));
  }
  return card;
}

// The server's analysis: the underline (the parser's message and hint), the terms, the SPARQL.
const analysisLinter = linter(async (view) => {
  const text = view.state.doc.toString();
  if (!text.trim()) {
    state.analysis = null;
    state.analysisText = null;
    showSparql(null);
    showCnlStatus(null);
    return [];
  }
  let doc;
  try {
    doc = await api("/analyze", {cnl: text, dataset: state.dataset});
  } catch (err) {
    showCnlStatus({message: err.message});
    return [];
  }
  if (view.state.doc.toString() !== text) return [];  // edited meanwhile: a newer check follows
  state.analysis = doc;
  state.analysisText = text;
  view.dispatch({effects: setTerms.of(termsDecorations(text, doc.terms))});
  showSparql(doc.ok ? doc : null);
  showCnlStatus(doc.error || null);
  const diagnostics = [];
  if (doc.error) {
    const from = toEditorOffset(text, doc.error.from);
    const to = Math.max(toEditorOffset(text, doc.error.to), from + (from < text.length ? 1 : 0));
    diagnostics.push({from: Math.min(from, text.length), to: Math.min(to, text.length),
                      severity: unfinished(doc.error) ? "info" : "error", source: doc.error.type,
                      message: errorText(doc.error)});
  }
  for (const term of doc.terms) {
    if (term.problem && !(doc.error && doc.error.type === "label")) {
      diagnostics.push({from: toEditorOffset(text, term.from), to: toEditorOffset(text, term.to), severity: "warning",
                        source: "label", message: term.problem});
    }
  }
  return diagnostics;
}, {delay: 250});

function errorText(error) {
  const parts = [error.message + (error.token ? `: ${JSON.stringify(error.token)}` : "")];
  if (error.expected && error.expected.length) parts.push("expected one of: " + error.expected.join(", "));
  if (error.hint) parts.push("hint: " + error.hint);
  if (error.suggestions && error.suggestions.length) parts.push("closest: " + error.suggestions.join(", "));
  return parts.join("\n");
}

// A query still being written ends early: said calmly, not as an error.
function unfinished(error) {
  return error.type === "syntax" && !error.token && /end of text/.test(error.message);
}

function showCnlStatus(error) {
  const box = $("cnl-error");
  box.replaceChildren();
  box.hidden = !error;
  if (!error) return;
  box.classList.toggle("unfinished", unfinished(error));
  const title = unfinished(error) ? "not finished yet" : error.message + (error.token ? ` (${JSON.stringify(error.token)})` : "");
  box.append(el("strong", {}, title));
  if (error.expected && error.expected.length) box.append(el("div", {}, "expected one of: " + error.expected.join(", ")));
  if (error.hint) box.append(el("div", {class: "hint"}, "hint: " + error.hint));
  if (error.suggestions && error.suggestions.length) box.append(el("div", {}, "closest: " + error.suggestions.join(", ")));
}

// Completion from the server: the grammar's words and the KG's terms for the cursor.
async function serverCompletions(context) {
  const text = context.state.doc.toString();
  const before = text.slice(0, context.pos);
  if (!context.explicit && !/[\w<[\-\s]$/.test(before)) return null;
  let doc;
  try {
    doc = await api("/complete", {cnl: text, cursor: toServerOffset(text, context.pos), dataset: state.dataset,
                                  candidates: state.candidates, question: state.question || null});
  } catch (err) {
    return null;
  }
  if (context.aborted || !doc.items.length) return null;
  const from = toEditorOffset(text, doc.from), to = toEditorOffset(text, doc.to);
  return {
    from, to, filter: false,
    options: doc.items.map((item, i) => ({
      label: item.insert,
      detail: item.kind === "keyword" ? "" : item.label === stripTerm(item.insert) ? (item.id || "") : `${item.label} · ${item.id || ""}`,
      info: item.detail || undefined,
      type: {keyword: "keyword", property: "property", entity: "variable", value: "constant"}[item.kind] || "text",
      boost: 99 - Math.min(i, 198),
      apply: applyInsert(item.insert),
    })),
  };
}

function stripTerm(text) { return text.replace(/^(?:\w+-)?[<[]|[>\]]$/g, ""); }

// Insert a completion with the blanks around it; at the end of the text, offer what comes next.
function applyInsert(insert) {
  return (view, completion, from, to) => {
    // a list answered for fewer letters than typed since ("<d" while "<dir" is written) still
    // replaces everything up to the cursor
    to = Math.max(to, view.state.selection.main.head);
    const doc = view.state.doc.toString();
    const glued = /^[?.!,)]/.test(insert) || insert === "-s";
    if (glued) while (from > 0 && doc[from - 1] === " ") from -= 1;  // "[Inception] ?" -> "[Inception]?"
    const before = doc.slice(0, from), after = doc.slice(to);
    let text = insert;
    if (from > 0 && !glued && !/[\s(]$/.test(before)) text = " " + text;
    const trailing = !/[(]$/.test(insert) && !/^[\s?.!,)]/.test(after) && !/[?.!]$/.test(insert) ? " " : "";
    view.dispatch({changes: {from, to, insert: text + trailing},
                   selection: {anchor: from + text.length + trailing.length}, userEvent: "input.complete"});
    if (!after.trim() && !/[?.!]$/.test(insert)) setTimeout(() => startCompletion(view), 0);
  };
}

function runFromEditor(view) {
  closeCompletion(view);
  runCnl(view.state.doc.toString());
  return true;
}

function listShown(view) { return view.dom.querySelector(".cm-tooltip-autocomplete") !== null; }

// The cursor is after the query's end mark: Enter runs it even with suggestions showing.
function endsQuery(view) {
  const head = view.state.selection.main.head;
  return /[?.!]\s*$/.test(view.state.doc.sliceString(0, head)) && !view.state.doc.sliceString(head).trim();
}

// An end mark or a comma typed after the blank a completion left goes next to the term: "[Inception]?".
// A "?" so glued that is followed by a letter was a variable ("[human] ?x"): the blank comes back.
let gluedMark = -1;
const glueMarks = EditorView.inputHandler.of((view, from, to, text) => {
  if (from === to && from === gluedMark + 1 && /^[A-Za-z_]$/.test(text)
      && view.state.doc.sliceString(gluedMark, from) === "?") {
    view.dispatch({changes: {from: gluedMark, to, insert: " ?" + text}, selection: {anchor: from + 2},
                   userEvent: "input.type"});
    gluedMark = -1;
    return true;
  }
  gluedMark = -1;
  if (!/^[?.!,)]$/.test(text) || from < 2 || from !== to) return false;
  const before = view.state.doc.sliceString(from - 2, from);
  if (!/^[\]>a-z0-9] $/i.test(before)) return false;
  view.dispatch({changes: {from: from - 1, to, insert: text}, selection: {anchor: from}, userEvent: "input.type"});
  gluedMark = from - 1;
  return true;
});

// One line only: a pasted newline becomes a blank (same length, so the selection stays valid).
const oneLine = EditorState.transactionFilter.of((tr) => {
  if (!tr.docChanged || tr.newDoc.lines === 1) return tr;
  const changes = [];
  tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    changes.push({from: fromA, to: toA, insert: inserted.toString().replace(/\n/g, " ")});
  });
  return {changes, selection: tr.selection, scrollIntoView: true};
});

// The Content-Security-Policy allows the editor's <style> element by the nonce drawn for this page.
function cspNonce() {
  const meta = document.querySelector('meta[name="csp-nonce"]');
  return meta ? meta.getAttribute("content") : "";
}

function createEditor(parent) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: "",
      extensions: [
        editHistory(),
        drawSelection(),
        oneLine,
        glueMarks,
        squall,
        syntaxHighlighting(classHighlighter),
        termMarks,
        termTooltips,
        analysisLinter,
        // before autocompletion(): its own keymap (Enter accepts) is at the same precedence
        Prec.highest(keymap.of([
          // A list on screen keeps Tab and Enter even while it waits for fresher suggestions (it
          // is greyed then and takes no key): a key pressed a moment early is not a focus move
          // or a run the user did not mean; pressing it again accepts.
          {key: "Tab", run: (view) => acceptCompletion(view) || listShown(view)},
          {key: "Mod-Enter", run: runFromEditor},
          {key: "Enter", run: (view) => listShown(view) && !endsQuery(view) ? acceptCompletion(view) || true : runFromEditor(view)},
        ])),
        autocompletion({override: [serverCompletions], activateOnTyping: true, closeOnBlur: true,
                        maxRenderedOptions: 60, icons: true}),
        keymap.of([...completionKeymap, ...lintKeymap, ...historyKeymap, ...defaultKeymap]),
        placeholder("which [film] has <director> [Christopher Nolan]?"),
        EditorView.lineWrapping,
        EditorView.cspNonce.of(cspNonce()),
        EditorView.contentAttributes.of({"aria-label": "CNL query", spellcheck: "false", autocapitalize: "off",
                                         autocorrect: "off"}),
      ],
    }),
  });
}

function setEditorText(view, text) {
  view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: text}, selection: {anchor: text.length}});
  forceLinting(view);
}

// ---------------------------------------------------------------- panels

function showSparql(doc) {
  const pre = $("sparql");
  pre.textContent = doc && doc.sparql ? doc.sparql : "";
  $("sparql-section").classList.toggle("empty", !(doc && doc.sparql));
  $("copy-sparql").disabled = !(doc && doc.sparql);
  const link = $("wdqs-link");
  if (doc && doc.wdqs && safeUrl(doc.wdqs)) {
    link.setAttribute("href", doc.wdqs);
    link.hidden = false;
  } else {
    link.removeAttribute("href");
    link.hidden = true;
  }
}

function showAlternatives(chosen, nbest) {
  const list = $("alternatives-list");
  list.replaceChildren();
  const others = (nbest || []).filter((text) => text !== chosen);
  $("alternatives").hidden = others.length === 0;
  for (const text of others) {
    const button = el("button", {type: "button", class: "alternative"}, text);
    button.addEventListener("click", () => {
      setEditorText(editor, text);
      runCnl(text);
    });
    list.append(el("li", {}, button));
  }
}

const WD_ENTITY = "http://www.wikidata.org/entity/";

function compactIri(iri) {
  if (iri.startsWith(WD_ENTITY)) return iri.slice(WD_ENTITY.length);
  return iri;
}

function cellContent(binding) {
  if (!binding) return "";
  if (binding.type === "uri") {
    const shown = binding.label || compactIri(binding.value);
    const link = el("a", {href: binding.value, target: "_blank", rel: "noopener noreferrer", title: binding.value}, shown);
    if (binding.label) return el("span", {}, link, el("span", {class: "iri"}, ` ${compactIri(binding.value)}`));
    return link;
  }
  let value = binding.value;
  if (binding.datatype && /#dateTime$/.test(binding.datatype)) value = value.replace(/T00:00:00Z$/, "");
  return el("span", {title: binding.datatype || (binding["xml:lang"] ? `@${binding["xml:lang"]}` : "")}, value);
}

function showAnswers(doc, seconds) {
  const table = $("answers");
  table.replaceChildren();
  const summary = $("answers-summary");
  if (doc === null) {
    summary.textContent = "";
    return;
  }
  if (typeof doc.boolean === "boolean") {
    summary.textContent = `${doc.boolean ? "yes" : "no"} · ${seconds.toFixed(2)} s`;
    return;
  }
  const vars = doc.results.head.vars;
  const rows = doc.results.results.bindings;
  const truncated = doc.results.truncated ? `, cut at ${rows.length} rows by the server's row limit` : "";
  summary.textContent = `${rows.length} row${rows.length === 1 ? "" : "s"}${truncated} · ${seconds.toFixed(2)} s`;
  const head = el("tr", {}, ...vars.map((v) => el("th", {scope: "col"}, v)));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of rows) body.append(el("tr", {}, ...vars.map((v) => el("td", {}, cellContent(row[v])))));
  table.append(body);
}

// ---------------------------------------------------------------- history and the URL

function loadHistory() {
  try {
    const items = JSON.parse(window.localStorage.getItem(HISTORY_KEY) || "[]");
    return Array.isArray(items) ? items.filter((i) => i && typeof i.cnl === "string") : [];
  } catch (err) {
    return [];
  }
}

function remember(question, cnl) {
  const items = loadHistory().filter((i) => i.cnl !== cnl);
  items.unshift({question: question || "", cnl, at: new Date().toISOString()});
  try { window.localStorage.setItem(HISTORY_KEY, JSON.stringify(items.slice(0, HISTORY_SIZE))); } catch (err) { /* full: no history */ }
  showHistory();
}

function pageUrl(question, cnl) {
  const params = new URLSearchParams();
  if (question) params.set("q", question);
  if (cnl) params.set("cnl", cnl);
  if (state.dataset) params.set("dataset", state.dataset);
  return `${window.location.pathname}?${params.toString()}`;
}

function showHistory() {
  const list = $("history");
  list.replaceChildren();
  const items = loadHistory();
  $("history-section").hidden = items.length === 0;
  for (const item of items) {
    const link = el("a", {href: pageUrl(item.question, item.cnl)},
                    item.question ? el("span", {class: "history-question"}, item.question) : null,
                    el("code", {}, item.cnl));
    list.append(el("li", {}, link));
  }
}

// ---------------------------------------------------------------- actions

async function ask(question) {
  question = question.trim();
  if (!question) return;
  state.question = question;
  showMessage("");
  showAnswers(null);
  setStatus("Translating… (the first question also loads the model)", true);
  $("ask-button").disabled = true;
  try {
    const doc = await api("/translate", {question, dataset: state.dataset});
    state.candidates = (doc.candidates || []).map((c) => c.id).filter((id) => /^[QP][0-9]+$/.test(id || ""));
    const cnl = doc.cnl || (doc.nbest || [])[0] || "";
    setEditorText(editor, cnl);
    showAlternatives(cnl, doc.nbest);
    window.history.replaceState(null, "", pageUrl(question, cnl));
    setStatus(doc.cached ? "Translated before (the same reading, kept by the server)"
                         : `Translated in ${Number(doc.seconds || 0).toFixed(2)} s`);
    if (cnl) await runCnl(cnl);
    else showMessage(doc.error || "the learned parser wrote no CNL for this question");
  } catch (err) {
    setStatus("");
    showMessage(`Translation failed: ${err.message}`);
  } finally {
    $("ask-button").disabled = false;
  }
}

async function runCnl(cnl) {
  cnl = cnl.trim();
  if (!cnl) return;
  const serial = ++state.runSerial;
  showMessage("");
  setStatus("Running…", true);
  const started = performance.now();
  try {
    const doc = await api("/run", {cnl, dataset: state.dataset});
    if (serial !== state.runSerial) return;
    showAnswers(doc, (performance.now() - started) / 1000);
    setStatus("");
    window.history.replaceState(null, "", pageUrl(state.question, cnl));
    remember(state.question, cnl);
  } catch (err) {
    if (serial !== state.runSerial) return;
    showAnswers(null);
    setStatus("");
    showMessage(`The query did not run: ${err.message}`);
  }
}

async function copySparql() {
  const text = $("sparql").textContent;
  try {
    await navigator.clipboard.writeText(text);
  } catch (err) {
    const range = document.createRange();
    range.selectNodeContents($("sparql"));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    document.execCommand("copy");
  }
  setStatus("SPARQL copied");
}

async function loadDatasets() {
  try {
    const health = await api("/health");
    const select = $("dataset");
    select.replaceChildren(...health.datasets.map((iri) => el("option", {value: iri}, iri)));
    select.value = state.dataset || health.default_dataset;
    $("dataset-field").hidden = health.datasets.length < 2;
    select.addEventListener("change", () => { state.dataset = select.value; });
  } catch (err) {
    showMessage(`The server did not answer: ${err.message}`);
  }
}

// ---------------------------------------------------------------- start

const editor = createEditor($("editor"));
// for browser tests and the curious; completionReady: a list is shown, up to date, and takes keys
window.cnlPlayground = {editor, state,
  completionReady: () => completionStatus(editor.state) === "active" && selectedCompletion(editor.state) !== null};

$("ask-form").addEventListener("submit", (event) => {
  event.preventDefault();
  ask($("question").value);
});
$("run-button").addEventListener("click", () => runCnl(editor.state.doc.toString()));
$("copy-sparql").addEventListener("click", copySparql);
$("clear-history").addEventListener("click", () => {
  try { window.localStorage.removeItem(HISTORY_KEY); } catch (err) { /* nothing kept */ }
  showHistory();
});

const params = new URLSearchParams(window.location.search);
state.dataset = params.get("dataset");
loadDatasets();
showHistory();
showSparql(null);
if (params.get("cnl")) {
  state.question = params.get("q") || "";
  $("question").value = state.question;
  setEditorText(editor, params.get("cnl"));
  runCnl(params.get("cnl"));
} else if (params.get("q")) {
  $("question").value = params.get("q");
  ask(params.get("q"));
}
$("question").focus();  // where a keyboard starts (autofocus alone is not kept across reloads)
document.body.classList.add("ready");
