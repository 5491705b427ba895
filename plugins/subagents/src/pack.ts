import { definePack } from "@runvil/sdk";

/**
 * runvil/subagents: the Pack every run holds (it is in every run's catalog as an extra Pack).
 * It contributes no tools and no prelude yet; it reserves the Pack id `subagents` for the
 * model's task tools and sub-agent runs (see docs/design/subagents.md). It needs no service.
 */
export const subagentsPack = definePack({
  vendor: "runvil",
  name: "subagents",
  description: "Delegate work to sub-agents",
  tools: [],
});
