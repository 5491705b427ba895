// A small MCP server for the plugin's bad-input tests, built with the MCP SDK's low-level
// Server class: `node fake-server.mjs [weird]` serves over stdio. Its tools: echo (answers its
// text), fail (an isError result), crash (the process exits mid-call), hang (never answers),
// huge (a result of `bytes` bytes), garbage (writes a line that is not JSON-RPC to stdout,
// then never answers), count (answers how many calls this process has served), pid, meta (answers the request's
// `_meta` as JSON). With `weird`,
// its listing also holds a tool whose input schema is not an object, names that break the
// tool id rule, a repeated name, two names with one wire name, and an entry with no name.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const weird = process.argv[2] === "weird";
const object = (properties = {}) => ({ type: "object", properties });
const tools = [
  {
    name: "echo",
    description: "Answers its text.",
    inputSchema: object({ text: { type: "string" } }),
  },
  { name: "fail", description: "Fails.", inputSchema: object() },
  { name: "crash", description: "Exits mid-call.", inputSchema: object() },
  { name: "hang", description: "Never answers.", inputSchema: object() },
  {
    name: "huge",
    description: "A big result.",
    inputSchema: object({ bytes: { type: "integer" } }),
  },
  { name: "garbage", description: "Writes garbage.", inputSchema: object() },
  { name: "count", description: "Counts calls.", inputSchema: object() },
  { name: "pid", description: "Answers the process id.", inputSchema: object() },
  { name: "meta", description: "Answers the request's _meta.", inputSchema: object() },
];
if (weird) {
  tools.push(
    { name: "scalar", description: "A schema that is not an object.", inputSchema: "scalar" },
    { name: "Upper", description: "An uppercase name.", inputSchema: object() },
    { name: "has space", description: "A name with a space.", inputSchema: object() },
    { name: "echo", description: "The same name again.", inputSchema: object() },
    { name: "a.b", description: "Wire name a_b.", inputSchema: object() },
    { name: "a_b", description: "Wire name a_b too.", inputSchema: object() },
    { description: "No name at all.", inputSchema: object() },
  );
}

let calls = 0;
const server = new Server({ name: "fake", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  calls += 1;
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case "echo":
      return { content: [{ type: "text", text: String(args.text) }] };
    case "fail":
      return {
        isError: true,
        content: [{ type: "text", text: "secret detail: /srv/internal/db.sqlite is locked" }],
      };
    case "crash":
      process.exit(3);
      break;
    case "huge":
      return { content: [{ type: "text", text: "x".repeat(Number(args.bytes)) }] };
    case "garbage":
      process.stdout.write("this is not JSON-RPC\n");
      return new Promise(() => {});
    case "count":
      return { content: [{ type: "text", text: String(calls) }] };
    case "pid":
      return { content: [{ type: "text", text: String(process.pid) }] };
    case "meta":
      return { content: [{ type: "text", text: JSON.stringify(request.params._meta ?? null) }] };
    default:
      return new Promise(() => {});
  }
});
await server.connect(new StdioServerTransport());
