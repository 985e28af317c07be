/** Parses a duration such as `24h`, `30m`, `90s`, `7d` or `0` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
  const value = Number(match[1]) * unit;
  return value <= 366 * 86_400_000 ? value : undefined;
}
