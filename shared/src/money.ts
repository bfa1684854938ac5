/**
 * Exact decimal money. A Decimal is `coefficient × 10^-scale` with a bigint coefficient, so products of
 * prices and quantities are exact; rounding to nano-USD happens once per line item, half up.
 * Money is never a float: records carry integer nanos and a decimal string.
 */
export interface Decimal {
  coefficient: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** Parses a non-negative decimal ("2.5", "0.000125", "1e-7"); a number goes through its shortest string form. */
export function decimal(value: string | number): Decimal {
  const text = typeof value === "number" ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a non-negative decimal: ${JSON.stringify(value)}`);
  const [, whole = "0", fraction = "", exponent = "0"] = match;
  let coefficient = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { coefficient, scale };
}

export const isDecimalString = (value: string): boolean => DECIMAL.test(value.trim());

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { coefficient: a.coefficient * b.coefficient, scale: a.scale + b.scale };
}

/** Divides by a whole number of units (a price per million tokens -> per token), exactly. */
export function dividePerUnits(price: Decimal, per: number): Decimal {
  const exponent = Math.log10(per);
  if (!Number.isInteger(exponent) || exponent < 0) throw new RangeError(`per must be a power of ten: ${per}`);
  return { coefficient: price.coefficient, scale: price.scale + exponent };
}

export const NANOS_PER_USD = 1_000_000_000n;

/** Rounds to whole nano-USD, half up (amounts here are never negative). */
export function toNanos(amount: Decimal): bigint {
  if (amount.scale <= 9) return amount.coefficient * 10n ** BigInt(9 - amount.scale);
  const divisor = 10n ** BigInt(amount.scale - 9);
  const quotient = amount.coefficient / divisor;
  return amount.coefficient % divisor >= (divisor + 1n) / 2n ? quotient + 1n : quotient;
}

/**
 * `amount / per` in whole nano-USD, half up, exactly for any whole `per` (a price per minute billed by
 * the second divides by 60).
 */
export function toNanosPer(amount: Decimal, per: number): bigint {
  if (!Number.isSafeInteger(per) || per < 1) throw new RangeError(`per must be a positive whole number: ${per}`);
  const numerator = amount.coefficient * 10n ** 9n;
  const denominator = 10n ** BigInt(amount.scale) * BigInt(per);
  const quotient = numerator / denominator;
  return (numerator % denominator) * 2n >= denominator ? quotient + 1n : quotient;
}

/** Nano-USD as a fixed nine-place decimal string: 3500000n -> "0.003500000". */
export function nanosToUsd(nanos: bigint): string {
  const sign = nanos < 0n ? "-" : "";
  const abs = nanos < 0n ? -nanos : nanos;
  const whole = abs / NANOS_PER_USD;
  const fraction = (abs % NANOS_PER_USD).toString().padStart(9, "0");
  return `${sign}${whole}.${fraction}`;
}

/** A decimal as plain text without exponent or trailing zeros: for showing rates. */
export function formatDecimal(value: Decimal): string {
  const digits = value.coefficient.toString().padStart(value.scale + 1, "0");
  if (value.scale === 0) return digits;
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}
