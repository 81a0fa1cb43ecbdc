import { createColors } from 'picocolors';
import { type Io, useColor } from './io.js';

/** How long a step runs before its spinner shows. */
const SPINNER_DELAY_MS = 150;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Formats a duration for people: `420 ms`, `1.3 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Runs a long step with progress on stderr: on a terminal a spinner with the elapsed time, in CI a
 * single line when it ends (`ttyOnly`: only the spinner, erased at the end). Prints `✔ label (1.2 s)` or `✖ label` and passes on the result or error.
 * (A few lines instead of @clack/prompts' spinner, which writes to process.stdout directly and
 * could not honour `Io` or stay off stdout for `--json`.)
 *
 * @example
 * ```ts
 * const bundle = await withProgress(io, 'Bundling', () => bundleIntegration(dir));
 * ```
 */
export async function withProgress<T>(
  io: Io,
  label: string,
  step: () => Promise<T>,
  done?: (value: T) => string,
  options: { ttyOnly?: boolean } = {},
): Promise<T> {
  if (options.ttyOnly && !io.stderrIsTTY) return step();
  const c = createColors(useColor(io.env, io.stderrIsTTY));
  const started = performance.now();
  const elapsed = () => formatDuration(performance.now() - started);
  let timer: ReturnType<typeof setInterval> | undefined;
  let drawn = false;
  // The spinner appears only when the step lasts (no flash for fast steps).
  const delay = io.stderrIsTTY
    ? setTimeout(() => {
        let frame = 0;
        const draw = () => {
          drawn = true;
          io.stderr(
            `\r\u001b[2K${c.cyan(FRAMES[frame++ % FRAMES.length] ?? '')} ${label} ${c.dim(elapsed())}`,
          );
        };
        draw();
        timer = setInterval(draw, 80);
        timer.unref?.();
      }, SPINNER_DELAY_MS)
    : undefined;
  delay?.unref?.();
  const clear = () => {
    clearTimeout(delay);
    if (timer) clearInterval(timer);
    if (drawn) io.stderr('\r\u001b[2K');
  };
  try {
    const value = await step();
    clear();
    if (options.ttyOnly) return value;
    io.stderr(`${c.green('✔')} ${done ? done(value) : label} ${c.dim(`(${elapsed()})`)}\n`);
    return value;
  } catch (error) {
    clear();
    if (options.ttyOnly) throw error;
    io.stderr(`${c.red('✖')} ${label} ${c.dim(`(${elapsed()})`)}\n`);
    throw error;
  }
}

/** Human size: `12.3 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
