import packageJson from "../package.json" with { type: "json" };

/** The version of the `@runvil/cli` package. */
export const VERSION: string = packageJson.version;
