export { describeParseError } from "./errors";
export { createPromptParser, type PromptParser, parsePrompt } from "./parse";
export type {
  ArgDeclaration,
  BlockRole,
  CompileReport,
  Frontmatter,
  JsonObject,
  JsonValue,
  ListItem,
  LuaBlock,
  ModelRoleDeclaration,
  ParseErrorKind,
  ParseOptions,
  ParseResult,
  Prompt,
  PromptParseError,
  ProseSegment,
  Section,
  SectionItem,
  SectionLevel,
  TitleArea,
  UsesDeclaration,
} from "./types";
