export {
  CHROMIUM_ARGS,
  chromiumPath,
  chromiumSkipReason,
  launchChromium,
  requireChromium,
  type TestBrowser,
} from "./chromium";
export { type PngStats, pngStats } from "./png-check";
