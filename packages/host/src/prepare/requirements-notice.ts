import { RUNVIL_VENDOR } from "@runvil/names";

/** The first line of every requirements notice. */
export const NOTICE_HEADER = "the environment cannot satisfy this prompt:";

/** `- missing required Pack: {id}`: a runvil entry that no vendor's Pack of that id answers. */
export function missingPackLine(packId: string): string {
  return `- missing required Pack: ${packId}`;
}

/**
 * A runvil entry whose Pack id the Host has only from other vendors: `- poop is unavailable:
 * poop means runvil/poop, which is not installed; write acme/poop to use that Pack`. With
 * several such vendors: `write acme/poop or beta/poop to use one of those Packs` (sorted).
 */
export function otherVendorLine(packId: string, alternatives: readonly string[]): string {
  const choice =
    alternatives.length === 1
      ? `${alternatives[0]} to use that Pack`
      : `${alternatives.slice(0, -1).join(", ")} or ${alternatives[alternatives.length - 1]} to use one of those Packs`;
  return `- ${packId} is unavailable: ${packId} means ${RUNVIL_VENDOR}/${packId}, which is not installed; write ${choice}`;
}

/** `- {id} is unavailable: {vendor}/{id} is not installed`: a vendor/name entry the Host lacks. */
export function notInstalledLine(packId: string, fullName: string): string {
  return `- ${packId} is unavailable: ${fullName} is not installed`;
}

/** `- {pack} is unavailable: {reason}`: a declared Pack that failed to build or start. */
export function unavailableLine(packId: string, reason: string): string {
  return `- ${packId} is unavailable: ${reason}`;
}

/** `- {pack} needs {service}, and the environment provides none`. */
export function missingServiceLine(packId: string, service: string): string {
  return `- ${packId} needs ${service}, and the environment provides none`;
}

/**
 * The reason an undeclared Pack lacking a service is unavailable, as the run reports it to Lua
 * (`packs.offer: the web Pack is unavailable in this run: {reason}`).
 */
export function missingServiceReason(packId: string, service: string): string {
  return `${packId} needs ${service}, and this host provides none`;
}

/**
 * `- model role {label} cannot be bound: {reason}`: a declared model role the Host cannot bind
 * (docs/design/models.md §3). These lines come after the Pack lines.
 */
export function modelRoleLine(label: string, reason: string): string {
  return `- model role ${label} cannot be bound: ${reason}`;
}

/** The whole notice: the header, then one line per problem. */
export function requirementsNotice(lines: readonly string[]): string {
  return [NOTICE_HEADER, ...lines].join("\n");
}
