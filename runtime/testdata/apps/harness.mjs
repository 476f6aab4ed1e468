// Runs an MCP Apps page's script as a client would drive it, without a
// browser: a stub DOM holds what the script renders, and postMessage
// carries JSON-RPC both ways. Usage: node harness.mjs SCRIPT RESULT REFRESHED
// where RESULT and REFRESHED are tools/call results (JSON) delivered as the
// tool's result and as the answer to the page's refresh request. Prints
// what the page rendered and sent, as JSON.
import { readFileSync } from "node:fs";
import vm from "node:vm";

const [script, result, refreshed] = process.argv.slice(2).map((p) => readFileSync(p, "utf8"));
const posted = [];
const listeners = {};
const elements = {};
function element() {
  return {
    textContent: "", hidden: true, innerHTML: "", handlers: {},
    tHead: { innerHTML: "" }, tBodies: [{ innerHTML: "" }],
    addEventListener(type, f) { this.handlers[type] = f; },
  };
}
const context = vm.createContext({
  document: {
    getElementById: (id) => (elements[id] ??= element()),
    body: { scrollWidth: 320, scrollHeight: 200 },
  },
  window: {
    parent: { postMessage: (msg) => posted.push(JSON.parse(JSON.stringify(msg))) },
    addEventListener: (type, f) => { listeners[type] = f; },
  },
  Promise, JSON, Object, Array, String, Error,
});
vm.runInContext(script, context);
const tick = () => new Promise((r) => setTimeout(r, 0));
const deliver = (msg) => listeners.message({ data: msg });
const snapshot = () => ({
  status: elements.status.textContent,
  head: elements.rows.tHead.innerHTML,
  body: elements.rows.tBodies[0].innerHTML,
});

const out = {};
const init = posted[0];
deliver({ jsonrpc: "2.0", id: init.id, result: { protocolVersion: init.params.protocolVersion, hostCapabilities: {}, hostInfo: { name: "harness", version: "1" }, hostContext: {} } });
await tick();
deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } });
out.running = elements.status.textContent;
deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: JSON.parse(result) });
out.result = snapshot();
elements.rows.handlers.click({ target: { getAttribute: () => "total" } });
out.sorted = snapshot();
elements.refresh.handlers.click();
const request = posted[posted.length - 1];
deliver({ jsonrpc: "2.0", id: request.id, result: JSON.parse(refreshed) });
await tick();
out.refreshed = snapshot();
deliver({ jsonrpc: "2.0", id: 99, method: "ui/resource-teardown", params: {} });
out.posted = posted;
console.log(JSON.stringify(out));
