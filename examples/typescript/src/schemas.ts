// Bare zod object schemas (no framework): zod 4 and zod 3 (the npm alias "zod3").
//
//   schemalint check examples/typescript/src/schemas.ts
import { z } from "zod";
import { z as z3 } from "zod3";

export const CreateTicket = z
  .object({
    title: z.string().min(3),
    priority: z.enum(["low", "high"]).default("low"),
  })
  .describe("Open a support ticket.");

export const CloseTicket = z3
  .object({
    ticket_id: z3.string(),
    reason: z3.string().optional(),
  })
  .describe("Close a support ticket.");
