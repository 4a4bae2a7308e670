// A TypeScript MCP server (the official SDK's McpServer).
//
//   schemalint check examples/typescript/src/mcp-server.ts:server
//   npx tsx src/mcp-server.ts          # serves over stdio
//
// tools/list shows what the SDK derives from each zod shape (zod's toJSONSchema, input mode);
// tools/call checks the arguments with the same shape's safeParseAsync first.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const parseIfString = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

export const server = new McpServer({ name: "reports", version: "1.0.0" });

server.registerTool(
  "render_report",
  {
    description: "Render a report and show it to the user.",
    inputSchema: {
      report_id: z.string().describe("Identifier of the report."),
      layout: z.preprocess(parseIfString, z.object({ columns: z.number().int().min(1).max(4) })),
    },
  },
  async ({ report_id }) => ({ content: [{ type: "text", text: `rendered ${report_id}` }] }),
);

server.registerTool(
  "list_reports",
  {
    description: "List the reports the user can open.",
    inputSchema: { owner: z.string().describe("Owner's user name."), limit: z.number().int().default(20) },
  },
  async ({ owner }) => ({ content: [{ type: "text", text: `reports of ${owner}` }] }),
);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await server.connect(new StdioServerTransport());
}
