// mcpgen dev: a plain MCP client (Streamable HTTP, protocol 2025-11-25) of
// the server this page is served beside. No framework, nothing fetched
// from anywhere else.
'use strict';

const VERSION = '2025-11-25';
const STATUS = 'mcpgen-dev://status';
const DEV = 'mcpgen-dev://';
const endpoint = new URL('mcp', location.href).pathname;

// ---- the MCP client -------------------------------------------------------

let sessionId = null;
let nextId = 1;
const listeners = [];

function onNotification(m) {
  for (const f of listeners) f(m);
}

function headers() {
  const h = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (sessionId) {
    h['Mcp-Session-Id'] = sessionId;
    h['MCP-Protocol-Version'] = VERSION;
  }
  return h;
}

// sse yields the JSON-RPC messages of an event stream.
async function* sse(resp) {
  const reader = resp.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, '');
      buf = buf.slice(i + 1);
      if (line === '') {
        if (data.length) {
          const text = data.join('\n');
          data = [];
          try { yield JSON.parse(text); } catch (e) { /* not a message */ }
        }
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  }
}

// rpc sends one request and returns its result; notifications that come on
// the request's own stream (progress, logs) go to onNotify.
async function rpc(method, params, onNotify) {
  const id = nextId++;
  const resp = await fetch(endpoint, { method: 'POST', headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: params || {} }) });
  const sid = resp.headers.get('Mcp-Session-Id');
  if (sid) sessionId = sid;
  if (!resp.ok) {
    if (resp.status === 404 && sessionId && method !== 'initialize') {
      sessionId = null; // the server forgot the session: start again
      setTimeout(connect, 0);
    }
    throw new Error(`HTTP ${resp.status}: ${(await resp.text()).trim()}`);
  }
  let answer = null;
  if ((resp.headers.get('Content-Type') || '').includes('text/event-stream')) {
    for await (const m of sse(resp)) {
      if (m.id === id && (m.result !== undefined || m.error !== undefined)) { answer = m; break; }
      if (m.method) { if (onNotify) onNotify(m); onNotification(m); }
    }
  } else {
    answer = await resp.json();
  }
  if (!answer) throw new Error('the server closed the stream without an answer');
  if (answer.error) throw new Error(answer.error.message + (answer.error.data ? ' ' + JSON.stringify(answer.error.data) : ''));
  return answer.result;
}

async function notify(method, params) {
  await fetch(endpoint, { method: 'POST', headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', method, params: params || {} }) });
}

// listen reads the session's own stream: list changes, resource updates,
// logs that belong to no call. It reconnects when the stream ends.
async function listen(sid) {
  while (sessionId === sid) {
    try {
      const resp = await fetch(endpoint, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': VERSION } });
      if (resp.status === 404) { sessionId = null; setTimeout(connect, 500); return; }
      if (resp.ok) for await (const m of sse(resp)) if (m.method) onNotification(m);
    } catch (e) { /* dropped: try again */ }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function list(method, key) {
  const out = [];
  let cursor;
  do {
    const r = await rpc(method, cursor ? { cursor } : {});
    out.push(...(r[key] || []));
    cursor = r.nextCursor;
  } while (cursor);
  return out;
}

// ---- the page -------------------------------------------------------------

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
}

const state = { tools: [], resources: [], templates: [], prompts: [], skills: [], selected: null };

function setConn(text, cls) {
  const c = $('#conn');
  c.textContent = text;
  c.className = 'pill ' + (cls || '');
}

async function connect() {
  try {
    setConn('connecting…');
    const init = await rpc('initialize', { protocolVersion: VERSION, capabilities: {},
      clientInfo: { name: 'mcpgen-dev-page', version: '1' } });
    await notify('notifications/initialized');
    const info = init.serverInfo || {};
    $('#server').textContent = `${info.title || info.name || ''} ${info.version || ''}`;
    listen(sessionId);
    await rpc('logging/setLevel', { level: 'debug' });
    await rpc('resources/subscribe', { uri: STATUS }).catch(() => {});
    await Promise.all([refreshLists(), refreshStatus()]);
  } catch (e) {
    setConn('not connected: ' + e.message, 'bad');
    setTimeout(connect, 2000);
  }
}

listeners.push((m) => {
  switch (m.method) {
    case 'notifications/tools/list_changed':
    case 'notifications/prompts/list_changed':
    case 'notifications/resources/list_changed':
      refreshLists();
      break;
    case 'notifications/resources/updated':
      if (m.params && m.params.uri === STATUS) refreshStatus();
      break;
  }
});

// listCost says what tools/list costs a model, against the budget.
function listCost() {
  const c = state.costs;
  if (!c) return '';
  const budget = c.budget_tools_list_tokens ? ` of a budget of ${c.budget_tools_list_tokens}` : '';
  return ` · tools/list ${c.tools_list_tokens} tokens${budget} (${c.encoding})`;
}

// toolCost says what one tool costs, against the budget.
function toolCost(name) {
  const c = state.costs;
  if (!c || c.tools[name] === undefined) return '';
  const budget = c.budget_tool_tokens ? ` (budget ${c.budget_tool_tokens} a tool)` : '';
  return `${c.tools[name]} tokens in tools/list${budget}`;
}

async function refreshStatus() {
  try {
    const r = await rpc('resources/read', { uri: STATUS });
    const st = JSON.parse(r.contents[0].text);
    const errors = st.problems.filter((p) => p.severity === 'error');
    const ul = $('#problem-list');
    ul.replaceChildren(...st.problems.map((p) => el('li', { class: p.severity, text: p.text })));
    $('#problems').hidden = st.ok && errors.length === 0;
    state.costs = st.costs || null;
    const ts = $('#tool-search');
    ts.checked = !!st.tool_search;
    ts.disabled = false;
    setConn((st.ok ? 'config ok' : `${errors.length} error${errors.length === 1 ? '' : 's'}`) + listCost(), st.ok ? 'ok' : 'bad');
  } catch (e) {
    setConn('status: ' + e.message, 'bad');
  }
}

// setToolSearch turns tool search on or off for the run: the server builds
// the config again and tells the page what it now serves.
async function setToolSearch(on) {
  const ts = $('#tool-search');
  ts.disabled = true;
  try {
    const resp = await fetch(new URL('tool-search', location.href).pathname, { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ on }) });
    if (!resp.ok) throw new Error(`HTTP ${resp.status}: ${(await resp.text()).trim()}`);
    ts.checked = (await resp.json()).tool_search;
    await Promise.all([refreshLists(), refreshStatus()]);
  } catch (e) {
    setConn('tool search: ' + e.message, 'bad');
  } finally {
    ts.disabled = false;
  }
}

async function refreshLists() {
  const [tools, resources, templates, prompts, skills] = await Promise.all([
    list('tools/list', 'tools').catch(() => []),
    list('resources/list', 'resources').catch(() => []),
    list('resources/templates/list', 'resourceTemplates').catch(() => []),
    list('prompts/list', 'prompts').catch(() => []),
    list('skills/list', 'skills').catch(() => []),
  ]);
  state.tools = tools;
  // A skill's files are shown with the skill.
  state.resources = resources.filter((r) => !r.uri.startsWith(DEV) && !r.uri.startsWith('skill://'));
  state.templates = templates.filter((r) => !r.uriTemplate.startsWith(DEV));
  state.prompts = prompts;
  state.skills = skills;
  renderNav();
  // Keep the open item open if it still exists; show its new definition.
  const s = state.selected;
  if (s) {
    const again = findItem(s.kind, s.key);
    if (again && JSON.stringify(again) !== JSON.stringify(s.item)) show(s.kind, again);
    if (!again) { state.selected = null; $('#detail').replaceChildren(el('p', { class: 'hint', text: `${s.key} is gone from the config.` })); }
  }
}

function findItem(kind, key) {
  switch (kind) {
    case 'tool': return state.tools.find((t) => t.name === key);
    case 'prompt': return state.prompts.find((p) => p.name === key);
    case 'resource': return state.resources.find((r) => r.uri === key);
    case 'template': return state.templates.find((r) => r.uriTemplate === key);
    case 'skill': return state.skills.find((k) => k.uri === key);
  }
  return undefined;
}

function keyOf(kind, item) {
  return kind === 'resource' || kind === 'skill' ? item.uri : kind === 'template' ? item.uriTemplate : item.name;
}

function navList(ul, kind, items) {
  if (!items.length) { ul.replaceChildren(el('li', { class: 'empty', text: 'none' })); return; }
  ul.replaceChildren(...items.map((it) => {
    const key = keyOf(kind, it);
    const sel = state.selected && state.selected.kind === kind && state.selected.key === key;
    return el('li', {}, el('button', { class: sel ? 'sel' : '', 'data-kind': kind, 'data-name': key,
      text: kind === 'skill' ? it.frontmatter.name : kind === 'resource' || kind === 'template' ? (it.name || key) : key,
      title: key, onclick: () => show(kind, it) }));
  }));
}

function renderNav() {
  navList($('#tools'), 'tool', state.tools);
  navList($('#resources'), 'resource', state.resources);
  const tl = $('#resources');
  if (state.templates.length) {
    if (!state.resources.length) tl.replaceChildren();
    const extra = document.createElement('ul');
    navList(extra, 'template', state.templates);
    tl.append(...extra.children);
  }
  navList($('#prompts'), 'prompt', state.prompts);
  navList($('#skills'), 'skill', state.skills);
}

function show(kind, item) {
  state.selected = { kind, key: keyOf(kind, item), item };
  renderNav();
  const d = $('#detail');
  d.replaceChildren();
  ({ tool: showTool, prompt: showPrompt, resource: showResource, template: showResource, skill: showSkill })[kind](d, item, kind);
}

// ---- forms from JSON Schema -----------------------------------------------

function typeOf(s) {
  const t = s.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  if (t) return t;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

function resolve(s, root) {
  if (s && s.$ref && s.$ref.startsWith('#/')) {
    let r = root;
    for (const part of s.$ref.slice(2).split('/')) r = r && r[part];
    return Object.assign({}, r || {}, s, { $ref: undefined });
  }
  return s || {};
}

// field returns {el, get} for a value of schema s at path; get() is
// undefined for a value left empty.
function field(s, path, label, required, root) {
  s = resolve(s, root);
  const t = typeOf(s);
  const wrap = el('div', { class: 'field', 'data-field': path });
  const lab = el('label', { for: 'f-' + path }, label ? document.createTextNode(label) : null,
    required ? el('span', { class: 'req', title: 'required', text: '*' }) : null);
  const help = s.description ? el('div', { class: 'help', text: s.description }) : null;
  let input;
  let get;
  if (!path && t === 'object' && !s.properties && !s.additionalProperties) {
    return { el: el('p', { class: 'meta', text: 'No arguments.' }), get: () => ({}) };
  }
  if (Array.isArray(s.enum)) {
    input = el('select', { id: 'f-' + path, name: path });
    if (!required || s.default === undefined) input.append(el('option', { value: '', text: '—' }));
    s.enum.forEach((v, i) => input.append(el('option', { value: String(i), text: JSON.stringify(v).replace(/^"|"$/g, ''),
      selected: s.default !== undefined && JSON.stringify(s.default) === JSON.stringify(v) })));
    get = () => (input.value === '' ? undefined : s.enum[Number(input.value)]);
  } else if (t === 'boolean') {
    input = el('input', { id: 'f-' + path, name: path, type: 'checkbox', checked: s.default === true });
    get = () => input.checked;
  } else if (t === 'integer' || t === 'number') {
    input = el('input', { id: 'f-' + path, name: path, type: 'number', step: t === 'integer' ? '1' : 'any',
      min: s.minimum, max: s.maximum, value: s.default, required });
    get = () => (input.value === '' ? undefined : Number(input.value));
  } else if (t === 'string') {
    input = el('input', { id: 'f-' + path, name: path, type: 'text', value: s.default, required,
      placeholder: s.format || (s.pattern ? '/' + s.pattern + '/' : undefined) });
    get = () => (input.value === '' ? undefined : input.value);
  } else if (t === 'array') {
    const items = el('div', { class: 'array' });
    const entries = [];
    const add = (v) => {
      const sub = field(s.items || {}, `${path}[${entries.length}]`, '', false, root);
      const row = el('div', { class: 'array-item' }, sub.el);
      const entry = { sub, row };
      row.append(el('button', { type: 'button', class: 'small', text: '×', title: 'remove',
        onclick: () => { entries.splice(entries.indexOf(entry), 1); row.remove(); } }));
      entries.push(entry);
      items.append(row);
      if (v !== undefined) setValue(sub, v);
    };
    (Array.isArray(s.default) ? s.default : []).forEach(add);
    input = el('div', {}, items, el('button', { type: 'button', class: 'small', 'data-add': path, text: '+ add', onclick: () => add() }));
    get = () => {
      const vs = entries.map((e) => e.sub.get()).filter((v) => v !== undefined);
      return vs.length || required ? vs : undefined;
    };
  } else if (t === 'object' && s.properties) {
    const need = new Set(s.required || []);
    const subs = Object.entries(s.properties).map(([k, ps]) => [k, field(ps, path ? `${path}.${k}` : k, k, need.has(k), root)]);
    input = el('fieldset', {}, label ? el('legend', { text: label }) : null, ...subs.map(([, f]) => f.el));
    get = () => {
      const o = {};
      for (const [k, f] of subs) { const v = f.get(); if (v !== undefined) o[k] = v; }
      return Object.keys(o).length || required || !path ? o : undefined;
    };
    if (!path) return { el: input, get };
    wrap.append(input, help || '');
    return { el: wrap, get };
  } else {
    input = el('textarea', { id: 'f-' + path, name: path, placeholder: 'JSON' });
    if (s.default !== undefined) input.value = JSON.stringify(s.default, null, 2);
    get = () => (input.value.trim() === '' ? undefined : JSON.parse(input.value));
  }
  wrap.append(lab, input, help || '');
  return { el: wrap, get, input };
}

function setValue(f, v) {
  if (f.input && f.input.tagName === 'INPUT' && f.input.type === 'checkbox') f.input.checked = !!v;
  else if (f.input && f.input.tagName !== 'SELECT') f.input.value = typeof v === 'string' ? v : JSON.stringify(v);
}

// ---- tools ----------------------------------------------------------------

function showTool(d, tool) {
  const schema = tool.inputSchema || { type: 'object' };
  const form = field(schema, '', '', true, schema);
  const out = el('div', { class: 'out' });
  const run = async (dryOnly) => {
    let args;
    try { args = form.get() || {}; } catch (e) { out.replaceChildren(el('pre', { class: 'err', text: 'arguments: ' + e.message })); return; }
    out.replaceChildren();
    await showDryRun(out, tool.name, args);
    if (!dryOnly) await callTool(out, tool.name, args);
  };
  d.append(el('h2', { text: tool.name }), el('p', { class: 'desc', text: tool.description || '' }),
    el('p', { class: 'cost', id: 'tool-cost', text: toolCost(tool.name) }),
    el('form', { id: 'tool-form', onsubmit: (e) => { e.preventDefault(); run(false); } }, form.el,
      el('p', {}, el('button', { class: 'act', type: 'submit', id: 'call', text: 'Call' }), ' ',
        el('button', { class: 'small', type: 'button', id: 'dry-run', text: 'Dry run only', onclick: () => run(true) }))),
    out);
}

async function showDryRun(out, name, args) {
  const uri = `${DEV}dry-run/${encodeURIComponent(name)}?args=${encodeURIComponent(JSON.stringify(args))}`;
  try {
    const r = await rpc('resources/read', { uri });
    out.append(el('h3', { text: 'Backend request (dry run)' }), el('pre', { id: 'dry', text: r.contents[0].text }));
  } catch (e) {
    out.append(el('h3', { text: 'Backend request (dry run)' }), el('pre', { id: 'dry', class: 'err', text: e.message }));
  }
}

async function callTool(out, name, args) {
  const log = el('ul', { id: 'log' });
  const prog = el('div', { id: 'progress' });
  const result = el('div', { id: 'result', text: 'calling…' });
  out.append(el('h3', { text: 'Result' }), result, el('h3', { text: 'Log and progress' }), prog, log);
  const token = 'call-' + nextId;
  const t0 = performance.now();
  const onNotify = (m) => {
    if (m.method === 'notifications/message') {
      const data = typeof m.params.data === 'string' ? m.params.data : JSON.stringify(m.params.data);
      log.append(el('li', { text: `[${m.params.level}] ${m.params.logger ? m.params.logger + ': ' : ''}${data}` }));
    } else if (m.method === 'notifications/progress' && m.params.progressToken === token) {
      const p = m.params;
      prog.replaceChildren(el('progress', { value: p.progress, max: p.total || undefined }),
        el('span', { class: 'meta', text: ` ${p.progress}${p.total ? ' / ' + p.total : ''} ${p.message || ''}` }));
    }
  };
  try {
    const r = await rpc('tools/call', { name, arguments: args, _meta: { progressToken: token } }, onNotify);
    const ms = performance.now() - t0;
    result.replaceChildren(el('p', { class: 'meta', id: 'took', text: `${r.isError ? 'tool error' : 'ok'} in ${ms.toFixed(0)} ms` }), ...renderContent(r));
  } catch (e) {
    result.replaceChildren(el('pre', { class: 'err', id: 'call-error', text: e.message }));
  }
  if (!log.children.length) log.append(el('li', { class: 'meta', text: 'none' }));
}

function renderContent(r) {
  const parts = [];
  for (const c of r.content || []) {
    if (c.type === 'text') parts.push(el('pre', { class: 'text' + (r.isError ? ' iserror' : ''), text: c.text }));
    else if (c.type === 'image') parts.push(el('img', { class: 'result', alt: 'image result', src: `data:${c.mimeType};base64,${c.data}` }));
    else if (c.type === 'audio') parts.push(el('audio', { controls: true, src: `data:${c.mimeType};base64,${c.data}` }));
    else parts.push(el('pre', { text: JSON.stringify(c, null, 2) }));
  }
  if (r.structuredContent !== undefined) {
    parts.push(el('h3', { text: 'Structured content' }), el('pre', { id: 'structured', text: JSON.stringify(r.structuredContent, null, 2) }));
  }
  return parts;
}

// ---- resources and prompts ------------------------------------------------

function showResource(d, r, kind) {
  const out = el('div', { class: 'out' });
  const uri = el('input', { type: 'text', id: 'uri', value: kind === 'template' ? r.uriTemplate : r.uri, size: 60 });
  d.append(el('h2', { text: r.name || r.uri }), el('p', { class: 'desc', text: r.description || '' }),
    el('form', { onsubmit: async (e) => {
      e.preventDefault();
      out.replaceChildren('reading…');
      try {
        const res = await rpc('resources/read', { uri: uri.value });
        out.replaceChildren(...res.contents.map((c) => (c.blob && (c.mimeType || '').startsWith('image/')
          ? el('img', { class: 'result', src: `data:${c.mimeType};base64,${c.blob}` })
          : el('pre', { text: c.text !== undefined ? c.text : `(${c.mimeType || 'binary'}, base64) ${c.blob}` }))));
      } catch (err) { out.replaceChildren(el('pre', { class: 'err', text: err.message })); }
    } }, el('div', { class: 'field' }, el('label', { text: 'URI' }), uri),
    el('button', { class: 'act', type: 'submit', text: 'Read' })), out);
}

function showPrompt(d, p) {
  const props = {};
  const req = [];
  for (const a of p.arguments || []) { props[a.name] = { type: 'string', description: a.description }; if (a.required) req.push(a.name); }
  const schema = { type: 'object', properties: props, required: req };
  const form = field(schema, '', '', true, schema);
  const out = el('div', { class: 'out' });
  d.append(el('h2', { text: p.name }), el('p', { class: 'desc', text: p.description || '' }),
    el('form', { onsubmit: async (e) => {
      e.preventDefault();
      try {
        const r = await rpc('prompts/get', { name: p.name, arguments: form.get() || {} });
        out.replaceChildren(...r.messages.map((m) => el('div', {}, el('h3', { text: m.role }), ...renderContent({ content: [m.content] }))));
      } catch (err) { out.replaceChildren(el('pre', { class: 'err', text: err.message })); }
    } }, form.el, el('button', { class: 'act', type: 'submit', text: 'Get' })), out);
}

// ---- skills ---------------------------------------------------------------

// showSkill shows a skill's description and files; reading one shows it
// as the client's model would get it.
function showSkill(d, k) {
  const out = el('div', { class: 'out' });
  const read = async (uri) => {
    out.replaceChildren('reading…');
    try {
      const res = await rpc('resources/read', { uri });
      out.replaceChildren(...res.contents.map((c) => el('pre', { text: c.text !== undefined ? c.text : `(${c.mimeType || 'binary'}, base64) ${c.blob}` })));
    } catch (err) { out.replaceChildren(el('pre', { class: 'err', text: err.message })); }
  };
  const files = Array.isArray(k.resources) ? k.resources : [];
  d.append(el('h2', { text: k.frontmatter.name }), el('p', { class: 'desc', text: k.frontmatter.description || '' }),
    el('ul', { class: 'files' }, ...files.map((f) => el('li', {},
      el('button', { class: 'act', 'data-uri': f.uri, text: f.uri.slice(k.uri.length - 'SKILL.md'.length), onclick: () => read(f.uri) }),
      ` ${f.size} bytes`))), out);
  read(k.uri);
}

$('#tool-search').addEventListener('change', (e) => setToolSearch(e.target.checked));
connect();
