import { EngineError } from "../lua";
import { userRecord } from "../messages/message-record";
import type { Entry } from "../walk/entry";
import { roundError, runModelRound } from "./model-round";
import { EMPTY_INFER_REPLY_MESSAGE } from "./models-texts";
import type { ModelRole } from "./run-models";

/**
 * `models.infer(prompt)` and `handle:infer(prompt)` once their arguments are checked
 * (docs/design/models.md §8): one round on `role` with no tools, sending one user record and the
 * role's system text; it neither reads nor appends `messages`. Resolves with the reply's text;
 * a reply with no text (whitespace only counts as none) is `empty_model_reply`, message
 * `empty model reply`, with the reply's `finish_reason` (`unknown` when it gave none). Tool
 * calls in the reply are ignored.
 */
export async function inferText(entry: Entry, role: ModelRole, prompt: string): Promise<string> {
  const { reply, turn } = await runModelRound(entry, {
    role,
    via: "infer",
    records: [userRecord(prompt)],
    tools: [],
  });
  if (reply.text.trim() === "") {
    const empty = new EngineError("empty_model_reply", EMPTY_INFER_REPLY_MESSAGE, {
      finish_reason: reply.finishReason === "" ? "unknown" : reply.finishReason,
    });
    throw roundError(entry, turn, role, empty);
  }
  return reply.text;
}
