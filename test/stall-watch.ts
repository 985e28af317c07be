/**
 * Says what the event loop was doing at its longest stall: a timer every 10 ms notes the gap
 * since the last tick, and for the longest gap keeps the work in flight then (begun before the
 * gap ended, not finished before it began), the process's CPU time during the gap (user + system,
 * all threads: far below the gap, the process was waiting for a core, not working) and the garbage
 * collections that overlapped it. It also keeps the gap in which the process used the most CPU:
 * on a loaded machine the longest gap is mostly time waiting for a core, and the gap with the most
 * CPU is the work that would hold the loop on an idle one. The fuzzers (test/fuzz-harness.ts, test/mcp-fuzzer.ts) report it.
 */
import { performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** The longest gap between two 10 ms ticks, less the 10 ms, and what overlapped it. */
export interface Stall<T> {
  ms: number;
  /** CPU time of the whole process during the gap, in ms. */
  cpuMs: number;
  /** Time of the garbage collections that overlapped the gap, in ms. */
  gcMs: number;
  /** The work in flight during the gap, with how long each had run when the gap ended (ms). */
  inFlight: Array<{ item: T; ranMs: number }>;
}

const TICK_MS = 10;

/** No stall seen. */
export const NO_STALL: Stall<never> = Object.freeze({ ms: 0, cpuMs: 0, gcMs: 0, inFlight: [] });

type Gap<T> = Omit<Stall<T>, 'gcMs'> & { from: number; to: number };

export class StallWatch<T> {
  #next = 0;
  #open = new Map<number, { item: T; start: number }>();
  /** Work finished since the last tick. */
  #done: Array<{ item: T; start: number; end: number }> = [];
  #gc: Array<{ start: number; end: number }> = [];
  #timer: NodeJS.Timeout | undefined;
  #observer: PerformanceObserver | undefined;
  #last = 0;
  #lastCpu = process.cpuUsage();
  #worst: Gap<T> | undefined;
  #worstCpu: Gap<T> | undefined;

  start(): void {
    this.#last = performance.now();
    this.#lastCpu = process.cpuUsage();
    this.#observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEntry[]) this.#gc.push({ start: e.startTime, end: e.startTime + e.duration });
    });
    this.#observer.observe({ entryTypes: ['gc'] });
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
  }

  /** Marks a piece of work begun; pass the id to `end`. */
  begin(item: T): number {
    const id = this.#next++;
    this.#open.set(id, { item, start: performance.now() });
    return id;
  }

  end(id: number): void {
    const open = this.#open.get(id);
    if (!open) return;
    this.#open.delete(id);
    this.#done.push({ ...open, end: performance.now() });
  }

  #tick(): void {
    const now = performance.now();
    const cpu = process.cpuUsage(this.#lastCpu);
    const ms = now - this.#last - TICK_MS;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const worse = ms > (this.#worst?.ms ?? 0);
    const busier = cpuMs > (this.#worstCpu?.cpuMs ?? 0);
    if (worse || busier) {
      const inFlight = [...this.#done.filter((d) => d.end >= this.#last), ...this.#open.values()].map((w) => ({ item: w.item, ranMs: ('end' in w ? (w.end as number) : now) - w.start }));
      const gap = { ms, cpuMs, inFlight, from: this.#last, to: now };
      if (worse) this.#worst = gap;
      if (busier) this.#worstCpu = gap;
    }
    this.#done = [];
    // Only collections that may overlap the worst gap are kept.
    const keep = [this.#worst, this.#worstCpu];
    if (this.#gc.length > 1000) this.#gc = this.#gc.filter((g) => keep.some((w) => w && g.end >= w.from && g.start <= w.to));
    this.#last = now;
    this.#lastCpu = process.cpuUsage();
  }

  /** Stops watching; the longest stall seen and the gap with the most CPU (ms 0 when none). */
  stop(): { longest: Stall<T>; busiest: Stall<T> } {
    clearInterval(this.#timer);
    this.#tick();
    for (const e of this.#observer?.takeRecords() ?? []) this.#gc.push({ start: e.startTime, end: e.startTime + e.duration });
    this.#observer?.disconnect();
    const settle = (w: Gap<T> | undefined): Stall<T> => {
      if (!w) return NO_STALL;
      const gcMs = this.#gc.reduce((sum, g) => sum + Math.max(0, Math.min(g.end, w.to) - Math.max(g.start, w.from)), 0);
      return { ms: w.ms, cpuMs: w.cpuMs, gcMs, inFlight: w.inFlight };
    };
    return { longest: settle(this.#worst), busiest: settle(this.#worstCpu) };
  }
}
