// Launches a stdio MCP server as a desktop client does (the official
// TypeScript client, the default environment plus the entry's own "env"),
// and prints what that client gets to show its user, as one JSON line:
// {"instructions", "tools": [{name, description}], "result", "logs": [...]}.
// It waits up to 15 s for a first log message after calling TOOL.
// Usage: node stdio-client.mjs TOOL '{"VAR":"value"}' COMMAND ARG...
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [tool, env, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command, args, env: { ...getDefaultEnvironment(), ...JSON.parse(env || '{}') }, stderr: 'ignore',
});
const client = new Client({ name: 'mcpgen-stdiotest', version: '1.0.0' });
const logs = [];
let logged;
const firstLog = new Promise((resolve) => { logged = resolve; });
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); logged(); });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const result = tool ? await client.callTool({ name: tool, arguments: {} }) : null;
  await Promise.race([firstLog, new Promise((resolve) => setTimeout(resolve, 15000))]);
  console.log(JSON.stringify({
    instructions: client.getInstructions(),
    tools: tools.map((t) => ({ name: t.name, description: t.description })),
    result,
    logs,
  }));
  await client.close();
} catch (err) {
  console.error(String(err && err.stack || err));
  process.exit(1);
}
