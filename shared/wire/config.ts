/**
 * The embedded backend's public runtime configuration route (`GET /v1/config`, DESIGN.md §2), on
 * its own: the portal reads it in every build, and a Firebase build must not carry the rest of the
 * route table (`shared/wire/routes.ts` includes this one in its table).
 */
import { z } from 'zod';

/** Path of the runtime configuration route. */
export const CONFIG_PATH = '/v1/config';

/** Its reply: the external viewer's URL, the Maps API key and the tool viewers' hosts, each a string or null. */
export const runtimeConfigSchema = z.object({
  viewerUrl: z.string().nullish(),
  mapsApiKey: z.string().nullish(),
  splatViewerUrl: z.string().nullish(),
  dualViewerUrl: z.string().nullish(),
});
