export { jsonLogger, type Logger, type Severity } from "../../gateway/src/logger.ts";
