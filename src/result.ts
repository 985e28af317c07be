/** An expected outcome as a value: success with a value, or failure with a code and a message. */
export type Result<T, C extends string = string> =
  | { ok: true; value: T }
  | { ok: false; code: C; message: string };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<C extends string>(code: C, message: string): { ok: false; code: C; message: string } {
  return { ok: false, code, message };
}
