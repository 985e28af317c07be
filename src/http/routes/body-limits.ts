/**
 * The largest request body each POST route reads, in bytes: a body over it is refused
 * with 413 payload_too_large before it is parsed. Each limit is the route's largest
 * valid request with room to spare; LUGHA_BODY_LIMIT (the server-wide limit) caps them all.
 */
export const routeBodyLimits = {
  /** 20,000 characters of text, as JSON (escapes included) or text/plain. */
  analyzeText: 128 * 1024,
  /** 1,000 inputs (the Enterprise ceiling) of a word or an analysis string each. */
  hfstLookup: 256 * 1024,
  /** 5,000 items (the absolute batch ceiling) of about 200 bytes, or a paradigm. */
  batchGenerate: 1024 * 1024,
  /** One JSON-RPC message: the largest tool call is batch_conjugate's 5,000 items. */
  mcp: 1024 * 1024,
} as const;

/** The limit of `route` under the server-wide `serverLimit`. */
export function bodyLimitOf(route: keyof typeof routeBodyLimits, serverLimit: number): number {
  return Math.min(routeBodyLimits[route], serverLimit);
}
