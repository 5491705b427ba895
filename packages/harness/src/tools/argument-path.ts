const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** One step of a path into the arguments: a property name, or an array index. */
export type ArgumentStep = string | number;

/**
 * Splits an ajv `instancePath` (a JSON Pointer such as `/items/0/name`) into its steps, with
 * `~1` and `~0` decoded; every step is a string (see {@link argumentSteps} for indexes).
 */
export function pointerSteps(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((step) => step.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/**
 * Renders a path into the arguments the way the failure messages show it: plain property
 * names joined with `.`, array indexes as `[n]`, and any other property name as a JSON string
 * in brackets, so `/items/0/first name` reads `items[0]["first name"]`.
 */
export function renderArgumentPath(steps: readonly ArgumentStep[]): string {
  let text = "";
  for (const step of steps) {
    if (typeof step === "number") text += `[${step}]`;
    else if (PLAIN_KEY.test(step)) text += text === "" ? step : `.${step}`;
    else text += `[${JSON.stringify(step)}]`;
  }
  return text;
}

/**
 * The steps of an ajv `instancePath` inside `data` (the arguments), with each step that
 * indexes an array turned into a number.
 */
export function argumentSteps(data: unknown, pointer: string): ArgumentStep[] {
  const steps: ArgumentStep[] = [];
  let current: unknown = data;
  for (const step of pointerSteps(pointer)) {
    if (Array.isArray(current) && ARRAY_INDEX.test(step)) {
      const index = Number(step);
      steps.push(index);
      current = current[index];
    } else {
      steps.push(step);
      current =
        typeof current === "object" && current !== null
          ? (current as Record<string, unknown>)[step]
          : undefined;
    }
  }
  return steps;
}
