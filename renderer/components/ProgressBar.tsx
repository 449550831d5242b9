// A determinate progress bar; indeterminate (no aria-valuenow) until the total is known.

interface ProgressBarProps {
  label: string;
  /** Percent in [0, 100], or null while unknown. */
  value: number | null;
  valueText?: string;
}

export function ProgressBar({ label, value, valueText }: ProgressBarProps) {
  const percent = value === null ? null : Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      className={percent === null ? 'progress progress-indeterminate' : 'progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={{ width: percent === null ? undefined : `${percent}%` }} />
    </div>
  );
}
