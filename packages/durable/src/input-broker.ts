import type { InputBroker } from "@runvil/sdk";

/** The message of an ask that reached the broker: a durable run's asks never should. */
export const DURABLE_BROKER_MESSAGE =
  "a durable run's operator asks are answered with `runvil answer`, not through an input broker";

/**
 * The input broker a durable worker's Host offers so that the ask tool is in the run's catalog
 * (its Pack needs an input broker). The durable port answers every ask itself with a durable
 * wait, so this broker is never asked; if it is, it refuses.
 */
export const durableInputBroker: InputBroker = {
  ask: () => Promise.reject(new Error(DURABLE_BROKER_MESSAGE)),
};
