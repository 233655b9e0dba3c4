// What every part of the benchmark shares: its log line, Ctrl-C, and the clean-up list (everything
// started registers how to stop it; run in reverse order, once, even on error).

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

let interruptedFlag = false;

/** True once SIGINT or SIGTERM arrived: loops stop, the run cleans up and exits 130. */
export function interrupted(): boolean {
  return interruptedFlag;
}

export function stopOnSignals(): void {
  process.on('SIGINT', () => {
    if (interruptedFlag) return;
    interruptedFlag = true;
    log('interrupted: stopping');
  });
  process.on('SIGTERM', () => {
    interruptedFlag = true;
  });
}

interface CleanUpStep {
  name: string;
  run: () => Promise<void>;
}

const steps: CleanUpStep[] = [];

/** Registers a clean-up step; the returned function runs it now and takes it off the list. */
export function onCleanUp(name: string, run: () => Promise<void>): () => Promise<void> {
  const step = { name, run };
  steps.push(step);
  return async () => {
    const at = steps.indexOf(step);
    if (at >= 0) steps.splice(at, 1);
    await run();
  };
}

export async function cleanUp(): Promise<void> {
  while (steps.length > 0) {
    const step = steps.pop()!;
    try {
      await step.run();
    } catch (error) {
      process.stderr.write(`clean-up (${step.name}) failed: ${String(error)}\n`);
    }
  }
}
