export { endingView } from "./ending-view";
export { escapeHtml } from "./html";
export { InspectorError, type InspectorErrorReason } from "./inspector-error";
export { runListRow } from "./run-list";
export { runVersion, runView } from "./run-view";
export { DEFAULT_PORT, type Inspector, type InspectorOptions, startInspector } from "./server";
export type * from "./view-types";
