/**
 * The one way a form shows a failure: a red box announced to screen readers
 * (role="alert"). Renders nothing when there is no message.
 */
export function FormError({
  message,
  id,
  testId,
  className = "px-4 py-3 text-lg",
}: {
  message: string | null | undefined;
  id?: string;
  testId?: string;
  /** Padding and text size; the colours are fixed. */
  className?: string;
}) {
  if (!message) return null;
  return (
    <p id={id} data-testid={testId} role="alert" className={`rounded-lg border-2 border-red-700 bg-red-50 font-medium text-red-800 ${className}`}>
      {message}
    </p>
  );
}
