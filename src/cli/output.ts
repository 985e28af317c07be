/** Small helpers the commands share for printing and failing. */

/** Exit codes: 1 = the operation failed, 2 = the command was used wrongly. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Raised by a command to stop with a message and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Renders rows as an aligned text table. */
export function table(rows: Array<Record<string, string>>): string {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n');
}
