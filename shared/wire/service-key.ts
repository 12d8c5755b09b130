/**
 * The service key of the embedded backend: the file `catalog serve` writes into
 * its data folder and the CLI reads to act as the service principal. The one home of its format.
 */
import { z } from 'zod';

/** File name of the service key in the data folder. */
export const SERVICE_KEY_FILE = 'service-key.json';

/** Shortest key the server keeps (it generates `csk_` + 43 base64url characters). */
export const SERVICE_KEY_MIN_LENGTH = 32;

/** `service-key.json`: `{"type":"catalog-service-key","url":…,"key":…}`; `url` is the server's address when written. */
export const serviceKeyFileSchema = z.object({
  type: z.literal('catalog-service-key'),
  url: z.string().optional(),
  key: z.string().min(SERVICE_KEY_MIN_LENGTH),
});

/** A service key file's contents. */
export type ServiceKeyFile = z.infer<typeof serviceKeyFileSchema>;
