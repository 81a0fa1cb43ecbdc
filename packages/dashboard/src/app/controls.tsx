/** @jsxImportSource preact */
// The building blocks of the dashboard's forms and tables: an action's busy and error state, a labelled
// input on one line, a table's header row.
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { describeError } from './api';

/**
 * The header row of a table: one column header (`scope="col"`) per entry, in order.
 * @example <TableHead columns={['Name', 'Status', <span class="sr-only">Actions</span>]} />
 */
export function TableHead({ columns }: { columns: ComponentChildren[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th key={index} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A labelled input on one line (`field-inline`); `onValue` gets what is typed. Other attributes go to
 * the input.
 * @example <InlineField id="org-name" label="Name" value={name} onValue={setName} placeholder="e.g. Acme" />
 */
export function InlineField({
  label,
  onValue,
  ...input
}: { id: string; label: string; value: string; onValue(value: string): void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onInput' | 'label'
>) {
  return (
    <div class="field-inline">
      <label for={input.id}>{label}</label>
      <input {...input} onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)} />
    </div>
  );
}

/** The state of a user action that calls the API (a button or a form): busy while it runs, and its error. */
export interface Action {
  busy: boolean;
  error: string | null;
  setError(message: string | null): void;
  /**
   * Runs `work` with `busy` set: clears the error when it succeeds, shows why (described) when it throws,
   * then calls `settled` either way. Resolves whether it succeeded.
   */
  run(work: () => Promise<unknown>, settled?: () => void): Promise<boolean>;
}

/**
 * The busy flag and error of an action, and how to run it.
 * @example
 * const { busy, error, run } = useAction();
 * <button disabled={busy} onClick={() => void run(() => api('POST /v1/installations/{id}/pause', { params }))} />
 */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>, settled?: () => void) => {
    setBusy(true);
    try {
      await work();
      setError(null);
      return true;
    } catch (e) {
      setError(describeError(e));
      return false;
    } finally {
      setBusy(false);
      settled?.();
    }
  };
  return { busy, error, setError, run };
}

/**
 * The question of a destructive action and its two answers: `yes` (a danger button, disabled while `busy`)
 * and Cancel; `small` for the buttons of a table row.
 * @example <ConfirmPrompt question="Uninstall?" yes="Yes, uninstall" busy={busy} onYes={uninstall} onCancel={close} />
 */
export function ConfirmPrompt({
  question,
  yes,
  busy,
  small = false,
  onYes,
  onCancel,
}: {
  question: string;
  yes: string;
  busy?: boolean;
  small?: boolean;
  onYes(): void;
  onCancel(): void;
}) {
  const size = small ? ' btn-small' : '';
  return (
    <span class="confirm">
      <span>{question}</span>
      <button type="button" class={`btn btn-danger${size}`} disabled={busy} onClick={onYes}>
        {yes}
      </button>
      <button type="button" class={`btn btn-secondary${size}`} onClick={onCancel}>
        Cancel
      </button>
    </span>
  );
}

/**
 * A table that stacks into labelled cards on a narrow screen (`table stack`): a row per item of `rows`,
 * its cells from `cells`, each labelled (`data-label`) by its column's header when that is text.
 * @example <StackTable label="Organizations" columns={['Name', 'Id']} rows={orgs} keyOf={(o) => o.id} cells={(o) => [o.name, <code>{o.id}</code>]} />
 */
export function StackTable<T>({
  label,
  columns,
  rows,
  keyOf,
  testIdOf,
  cells,
}: {
  label?: string | undefined;
  columns: ComponentChildren[];
  rows: readonly T[];
  keyOf(row: T): string;
  testIdOf?(row: T): string;
  cells(row: T): ComponentChildren[];
}) {
  return (
    <table class="table stack" aria-label={label}>
      <TableHead columns={columns} />
      <tbody>
        {rows.map((row) => (
          <tr key={keyOf(row)} data-testid={testIdOf?.(row)}>
            {cells(row).map((cell, index) => (
              <td key={index} data-label={typeof columns[index] === 'string' ? columns[index] : ''}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
