/** A child of {@link h}: an element, text (always a text node, never parsed as HTML), or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes of {@link h}: set with setAttribute (never an event handler). */
export type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Creates an element with attributes and children. Strings become text nodes, so whatever a
 * run recorded (a tool's output with `<script>` in it) shows as the characters it is.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: readonly Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith("on")) throw new Error(`h: ${name} is not an attribute the page sets`);
    element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children (text as text nodes). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: readonly Child[]): void {
  while (parent.firstChild !== null) parent.removeChild(parent.firstChild);
  append(parent, children);
}
