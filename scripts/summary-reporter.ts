import type { File, Task } from '@vitest/runner';
import type { Reporter } from 'vitest/reporters';

/** Prints one plain closing line, `tests: N passed, N failed, N skipped`, that CI reads. */
export default class SummaryReporter implements Reporter {
  onFinished(files: File[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const walk = (task: Task): void => {
      if (task.type === 'suite') {
        for (const child of task.tasks) walk(child);
        return;
      }
      const state = task.result?.state;
      if (state === 'pass') counts.passed++;
      else if (state === 'fail') counts.failed++;
      else counts.skipped++;
    };
    for (const file of files) {
      walk(file);
      if (file.result?.state === 'fail' && file.tasks.length === 0) counts.failed++;
    }
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
