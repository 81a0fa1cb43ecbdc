/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { ConfirmPrompt } from '../controls';

/**
 * A "Rotate…" button that asks first: `question` and Yes / Cancel, then `onConfirm`. Used by the signing
 * secret and the ed25519 key of a webhook installation.
 *
 * @example
 * <ConfirmRotate label="Rotate…" question="Rotate? The old secret stays valid for 24 hours." onConfirm={rotate} />
 */
export function ConfirmRotate({
  label,
  question,
  onConfirm,
}: {
  label: string;
  question: string;
  onConfirm(): void;
}) {
  const [asking, setAsking] = useState(false);
  return asking ? (
    <ConfirmPrompt
      question={question}
      yes="Yes, rotate"
      onYes={() => {
        setAsking(false);
        onConfirm();
      }}
      onCancel={() => setAsking(false)}
    />
  ) : (
    <button type="button" class="btn btn-danger-outline" onClick={() => setAsking(true)}>
      {label}
    </button>
  );
}

/**
 * The end of a secret row: "Copy" (`onCopy`), then the asking "Rotate…" button of {@link ConfirmRotate}.
 *
 * @example
 * <CopyAndRotate onCopy={copy} label="Rotate key…" question="Rotate? The old key keeps signing for 24 hours." onConfirm={rotate} />
 */
export function CopyAndRotate({
  onCopy,
  ...rotate
}: {
  onCopy(): void;
  label: string;
  question: string;
  onConfirm(): void;
}) {
  return (
    <>
      <button type="button" class="btn btn-secondary" onClick={onCopy}>
        Copy
      </button>
      <ConfirmRotate {...rotate} />
    </>
  );
}
