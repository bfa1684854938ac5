/** A lone surrogate, high or low: text JSON allows (`"\ud800"`) that is not valid Unicode. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string is valid Unicode: storable as UTF-8 as it is. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);
