/**
 * Work written as a generator of steps (`yield` between steps), run at once or in slices that
 * give the event loop a turn: one body of code for a synchronous load and a load in the
 * background that keeps a server answering (learnt text models, tone data).
 */

/** Work as steps: `yield` between steps, the result returned at the end. */
export type Steps<T> = Generator<void, T>;

/** Runs steps to their end at once. */
export function runSteps<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** Runs steps in slices of about `sliceMs`, with a turn of the event loop between slices. */
export async function runStepsInSlices<T>(steps: Generator<void, T>, sliceMs = 20): Promise<T> {
  let sliceStart = performance.now();
  let step = steps.next();
  while (!step.done) {
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    step = steps.next();
  }
  return step.value;
}
