/**
 * The one error catalogue: every error the service returns has a stable code,
 * an HTTP status and a title here, and a section in docs/errors.md
 * (a test fails when one is missing).
 */

export const errorCatalogue = {
  invalid_parameter: { status: 400, title: 'Invalid parameter' },
  invalid_json: { status: 400, title: 'Malformed JSON body' },
  invalid_text: { status: 400, title: 'Not text' },
  token_too_long: { status: 400, title: 'Token too long' },
  malformed_request: { status: 400, title: 'Malformed HTTP request' },
  key_missing: { status: 401, title: 'API key required' },
  key_malformed: { status: 401, title: 'Malformed API key' },
  key_unknown: { status: 401, title: 'Unknown API key' },
  key_revoked: { status: 401, title: 'API key revoked' },
  key_rotated: { status: 401, title: 'API key rotated out' },
  key_expired: { status: 401, title: 'API key expired' },
  not_in_tier: { status: 403, title: 'Not available in your tier' },
  language_not_in_plan: { status: 403, title: 'Language not in your plan' },
  origin_not_allowed: { status: 403, title: 'Origin not allowed' },
  route_not_found: { status: 404, title: 'No such route' },
  language_not_found: { status: 404, title: 'Unknown language' },
  recording_not_found: { status: 404, title: 'Unknown recording' },
  model_not_found: { status: 404, title: 'Unknown HFST model' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  consent_withdrawn: { status: 410, title: 'Consent withdrawn' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  batch_too_large: { status: 413, title: 'Batch larger than your tier allows' },
  text_too_long: { status: 413, title: 'Text too long' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  uri_too_long: { status: 414, title: 'URL too long' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  quota_exceeded: { status: 429, title: 'Daily quota exceeded' },
  internal_error: { status: 500, title: 'Internal error' },
  model_unreadable: { status: 500, title: 'HFST model unreadable' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  lookup_incomplete: { status: 503, title: 'Lookup stopped before an answer' },
  quota_unavailable: { status: 503, title: 'Quota counter unavailable' },
  storage_unavailable: { status: 503, title: 'Audio storage unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The problem type URI of a code: a page served by the service itself. */
export function problemType(code: ErrorCode): string {
  return `/problems/${code.replaceAll('_', '-')}`;
}

/**
 * An error a route or service raises on purpose. The HTTP layer renders it as
 * RFC 9457 problem+json; `extensions` become extra members of the problem body.
 */
export class LughaError extends Error {
  readonly status: number;
  readonly title: string;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'LughaError';
    this.status = errorCatalogue[code].status;
    this.title = errorCatalogue[code].title;
  }
}

/** Type guard for catalogue codes (for values arriving from outside). */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorCatalogue, value);
}
