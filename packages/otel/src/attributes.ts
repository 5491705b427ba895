/**
 * Every span name part and attribute key this package writes, in one place: the OpenTelemetry
 * GenAI semantic conventions' keys (gen-ai-spans.md, execute-tool.md; `gen_ai.provider.name`
 * is the name that replaced `gen_ai.system`) and Runvil's own `runvil.*` keys. Our own constants
 * rather than a semantic-conventions package: the GenAI keys are still marked Development there.
 */

/** `gen_ai.operation.name`: `chat` for a model round, `execute_tool` for a tool call. */
export const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
/** `gen_ai.provider.name`: the model provider (`openai`), when the Host says which. */
export const GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
/** `gen_ai.request.model`: the catalog model id the round asked for. */
export const GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
/** `gen_ai.usage.input_tokens`. */
export const GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
/** `gen_ai.usage.output_tokens`. */
export const GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
/** `gen_ai.usage.cache_read.input_tokens`: input tokens read from the provider's cache. */
export const GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = "gen_ai.usage.cache_read.input_tokens";
/** `gen_ai.response.finish_reasons`: a string array (one entry: Runvil reads one choice). */
export const GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
/** `gen_ai.tool.name`: the tool's catalog id, or the local alias for a local tool. */
export const GEN_AI_TOOL_NAME = "gen_ai.tool.name";
/** `gen_ai.tool.call.id`: the model's call id (absent for a script call). */
export const GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
/** `gen_ai.tool.type`: `function` (every Runvil tool is a function the client runs). */
export const GEN_AI_TOOL_TYPE = "gen_ai.tool.type";
/** `error.type`: a failed span's error class. */
export const ERROR_TYPE = "error.type";

/** The GenAI operation names. */
export const OPERATION_CHAT = "chat";
export const OPERATION_EXECUTE_TOOL = "execute_tool";

/** Runvil's own keys. */
export const RUNVIL_EXECUTION = "runvil.execution";
export const RUNVIL_RUN_TITLE = "runvil.run.title";
export const RUNVIL_RUN_OUTCOME = "runvil.run.outcome";
export const RUNVIL_RUN_STOPPED = "runvil.run.stopped";
export const RUNVIL_CHAIN_ID = "runvil.chain.id";
export const RUNVIL_ENTRY_ID = "runvil.entry.id";
export const RUNVIL_SECTION_NAME = "runvil.section.name";
export const RUNVIL_ENTRY_VIA = "runvil.entry.via";
export const RUNVIL_ENTRY_ENDED = "runvil.entry.ended";
export const RUNVIL_CALL_TARGET = "runvil.call.target";
export const RUNVIL_CALL_RETURNED = "runvil.call.returned";
export const RUNVIL_TASK_ID = "runvil.task.id";
export const RUNVIL_TASK_TARGET = "runvil.task.target";
export const RUNVIL_TASK_BY = "runvil.task.by";
export const RUNVIL_TASK_INDEX = "runvil.task.index";
export const RUNVIL_TASK_OUTCOME = "runvil.task.outcome";
export const RUNVIL_MODEL_ROLE = "runvil.model.role";
export const RUNVIL_MODEL_TURN = "runvil.model.turn";
export const RUNVIL_MODEL_VIA = "runvil.model.via";
export const RUNVIL_MODEL_MESSAGES = "runvil.model.messages";
export const RUNVIL_MODEL_TOOLS = "runvil.model.tools";
export const RUNVIL_MODEL_ESTIMATED_TOKENS = "runvil.model.estimated_tokens";
export const RUNVIL_MODEL_TOOL_CALLS = "runvil.model.tool_calls";
export const RUNVIL_USAGE_REASONING_TOKENS = "runvil.usage.reasoning_tokens";
export const RUNVIL_TOOL_ALIAS = "runvil.tool.alias";
export const RUNVIL_TOOL_CALLER = "runvil.tool.caller";
export const RUNVIL_BLOCK = "runvil.block";
export const RUNVIL_MESSAGE = "runvil.message";
export const RUNVIL_TARGET = "runvil.target";
export const RUNVIL_ATTEMPT = "runvil.attempt";
export const RUNVIL_REASON = "runvil.reason";

/** Runvil's span names (the GenAI spans are named `{operation} {model or tool}`). */
export const SPAN_RUN = "runvil.run";
export const SPAN_SECTION = "runvil.section";
export const SPAN_CHAIN = "runvil.chain";
export const SPAN_TASK = "runvil.task";
