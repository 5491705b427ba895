import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import {
  defineTool,
  isJsonObject,
  type JsonObject,
  type ToolContext,
  type ToolDefinition,
  ToolFailure,
} from "@runvil/sdk";
import type { McpServerSettings } from "../config/server-config";
import { LinkFailure, quotable } from "../server/link-failure";
import type { ListedTool } from "../server/list-tools";
import type { ServerLink } from "../server/server-link";
import { errorText, plainOutput, structuredOutput } from "./call-output";

let validators: AjvJsonSchemaValidator | undefined;

/** The validator of a structured tool's output schema, made on its first call. */
function outputValidator(schema: JsonObject): () => JsonSchemaValidator<unknown> {
  let validator: JsonSchemaValidator<unknown> | undefined;
  return () => {
    validators ??= new AjvJsonSchemaValidator();
    validator ??= validators.getValidator(schema as never);
    return validator;
  };
}

/**
 * The `_meta` of a `tools/call`: the call's idempotency key, the same every time the call is made
 * again (a resumed or recovered run): `runvil/effect-id`, and `runvil/run-id` for a recorded run.
 */
export function callMeta(ctx: ToolContext): Record<string, string> {
  return ctx.runId === undefined
    ? { "runvil/effect-id": ctx.effectId }
    : { "runvil/run-id": ctx.runId, "runvil/effect-id": ctx.effectId };
}

/**
 * The Pack tools of a server's listing: id `{pack}/{name}`, the server's description (or a
 * fixed one) and input schema as listed, trust from the configuration. A trusted tool with an
 * output schema is `structured` (its structured content is the output, checked against the
 * schema); every other tool is `plain` (its content as text). Ids are left to the Host's
 * checks: a name that makes a malformed id, or repeats, is dropped and logged there.
 */
export function mcpTools(
  settings: McpServerSettings,
  link: ServerLink,
  listed: readonly ListedTool[],
): ToolDefinition[] {
  return listed.map((tool) => {
    const structured = settings.trusted && tool.outputSchema !== undefined;
    const validator =
      structured && tool.outputSchema !== undefined
        ? outputValidator(tool.outputSchema)
        : undefined;
    return defineTool({
      id: `${settings.packId}/${tool.name}`,
      description:
        tool.description ?? `The ${tool.name} tool of the MCP server ${settings.fullName}.`,
      parameters: tool.inputSchema,
      output: structured ? "structured" : "plain",
      trust: settings.trusted ? "trusted" : "untrusted",
      run: async (args: JsonObject, ctx: ToolContext) => {
        let result: Awaited<ReturnType<ServerLink["call"]>>;
        try {
          result = await link.call(tool.name, args, ctx.signal, callMeta(ctx));
        } catch (error) {
          if (error instanceof LinkFailure) {
            throw new ToolFailure(`${ctx.name}: ${error.message}`, { cause: error.cause ?? error });
          }
          throw error;
        }
        if (result.isError === true) {
          const detail = settings.trusted ? quotable(errorText(result)) : "";
          throw new ToolFailure(
            detail === ""
              ? `${ctx.name}: the MCP server ${settings.fullName} reported that the tool failed`
              : `${ctx.name}: ${detail}`,
            { cause: new Error(`isError result: ${plainOutput(result)}`) },
          );
        }
        if (validator === undefined) return plainOutput(result);
        const output = structuredOutput(result);
        if (output === undefined || !isJsonObject(output)) {
          throw new ToolFailure(
            `${ctx.name}: the MCP server ${settings.fullName} returned no structured content`,
          );
        }
        let checked: ReturnType<JsonSchemaValidator<unknown>>;
        try {
          checked = validator()(output);
        } catch (error) {
          throw new ToolFailure(
            `${ctx.name}: the MCP server ${settings.fullName} lists an output schema that cannot be read`,
            { cause: error },
          );
        }
        if (!checked.valid) {
          throw new ToolFailure(
            `${ctx.name}: the MCP server ${settings.fullName} returned structured content that does not match its output schema`,
            { cause: new Error(checked.errorMessage) },
          );
        }
        return output;
      },
    });
  });
}
