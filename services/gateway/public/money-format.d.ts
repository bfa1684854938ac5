// Types for money-format.js, which the dashboard loads as it is (no build step) and the unit test imports.
export declare function formatUsd(decimal: string): string;
export declare function formatAxisUsd(value: number): string;
