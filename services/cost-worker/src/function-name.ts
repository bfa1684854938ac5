/** The name the worker registers under; deployment and the local stack target it. */
export const FUNCTION_NAME = "priceUsage";
