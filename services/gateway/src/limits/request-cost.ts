/**
 * What a request is charged against the ingestion rate limits: its transactions, or the work it brings if
 * that is more. Each 4 KiB received (after gzip) and each 128 values parsed (object members, array
 * elements, OTLP attributes) count as one transaction, so a request heavy in bytes or members reaches its
 * tenant's limit at a bounded share of an instance, while an ordinary request (a transaction is a few
 * hundred bytes and a few dozen values) is charged by its transactions alone.
 */
export const BYTES_PER_CHARGED_TRANSACTION = 4_096;
export const VALUES_PER_CHARGED_TRANSACTION = 128;

export function requestCost(transactions: number, bytes: number, values: number): number {
  return Math.max(
    transactions,
    Math.ceil(bytes / BYTES_PER_CHARGED_TRANSACTION),
    Math.ceil(values / VALUES_PER_CHARGED_TRANSACTION),
  );
}

/**
 * A body declared larger than this (Content-Length) is charged its declared bytes before it is read, so
 * a tenant already past its limit is refused without its body being read or parsed; smaller ones (every
 * ordinary request) are charged once, after parsing, and cost the hot path nothing more.
 */
export const CHARGED_BEFORE_READING_ABOVE_BYTES = 64 * 1024;

/** Transactions' worth charged before reading a body of `declared` bytes: none for a small body. */
export function chargeBeforeReading(declared: string | undefined): number {
  if (declared === undefined || declared.length < 5) return 0;
  const bytes = Number(declared);
  return Number.isSafeInteger(bytes) && bytes > CHARGED_BEFORE_READING_ABOVE_BYTES
    ? Math.ceil(bytes / BYTES_PER_CHARGED_TRANSACTION)
    : 0;
}
