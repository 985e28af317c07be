/**
 * Group commit of daily request counts for keys without a limit. Such a request needs no
 * decision from the shared counter (it is always admitted), only to be counted: the count is
 * kept in memory and written with every other pending count in one statement (SQL) or one
 * pipeline (Redis) at most `windowMs` later. Writes add (`used = used + n`, INCRBY), so the
 * totals stay exact across instances. Pending counts are written on close (SIGTERM); a
 * process killed outright (SIGKILL, power loss) loses at most the last `windowMs` of them.
 * A write that fails is kept and tried again with the next window.
 */

export interface PendingCount {
  keyId: string;
  day: string;
  count: number;
}

export class CountBuffer {
  #pending = new Map<string, PendingCount>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #failures = 0;

  constructor(
    private readonly windowMs: number,
    private readonly write: (counts: PendingCount[]) => Promise<void>,
  ) {}

  /** Counts one request; written within `windowMs`. Returns the requests of this slot not yet written. */
  count(keyId: string, day: string): number {
    const slot = `${keyId}\u0000${day}`;
    let entry = this.#pending.get(slot);
    if (entry) entry.count++;
    else this.#pending.set(slot, (entry = { keyId, day, count: 1 }));
    this.#schedule();
    return entry.count;
  }

  /** Writes every pending count now (and waits for a write already under way). Throws if the write fails; the counts stay pending. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing.catch(() => undefined);
    if (this.#pending.size === 0) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    const writing = this.write(batch).then(
      () => {
        this.#failures = 0;
      },
      (error: unknown) => {
        // Back into the buffer, in front of anything counted meanwhile, for the next window.
        for (const { keyId, day, count } of batch) {
          const slot = `${keyId}\u0000${day}`;
          const entry = this.#pending.get(slot);
          if (entry) entry.count += count;
          else this.#pending.set(slot, { keyId, day, count });
        }
        if (this.#failures++ === 0) process.emitWarning(`daily request counts could not be written; kept in memory and retried (${(error as Error).message})`);
        this.#schedule();
        throw error;
      },
    );
    this.#writing = writing;
    try {
      await writing;
    } finally {
      this.#writing = undefined;
    }
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch(() => undefined); // reported and rescheduled by flush
    }, this.windowMs);
    // Pending counts never keep a process alive: close() writes them.
    this.#timer.unref();
  }
}
