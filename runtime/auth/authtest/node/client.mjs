// Connects the official TypeScript MCP client to an mcpgen server with a
// bearer token, lists the tools and calls one. Prints one JSON line:
// {"tools":[...],"result":{...}}. Usage:
//   node client.mjs URL TOKEN TOOL '{"arg":"value"}'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token, tool, args] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: 'mcpgen-authtest', version: '1.0.0' });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const result = await client.callTool({ name: tool, arguments: JSON.parse(args || '{}') });
  console.log(JSON.stringify({ tools: tools.map((t) => t.name), result }));
  await client.close();
} catch (err) {
  console.error(String(err && err.stack || err));
  process.exit(1);
}
