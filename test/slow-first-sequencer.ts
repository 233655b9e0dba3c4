import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * With two workers, a pass lasts at least as long as its longest file: start the long ones first.
 * Vitest's own order does that from its cache of earlier durations; on a fresh clone there is no
 * cache yet, so the browser and end-to-end files (a minute or more each) go first, then the rest in
 * Vitest's order.
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const known = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`) !== undefined;
    if (sorted.every(known)) return sorted;
    const slow = (f: TestSpecification) => /^test\/(web|e2e)\//.test(relative(root, f.moduleId).replaceAll('\\', '/'));
    return [...sorted.filter(slow), ...sorted.filter((f) => !slow(f))];
  }
}
