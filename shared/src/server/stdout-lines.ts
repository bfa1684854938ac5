/** Past this many buffered characters the lines are written at once rather than at the end of the turn. */
const FLUSH_AT_CHARS = 64 * 1024;

let buffered = "";
let scheduled = false;
let exitHooked = false;

function flush(): void {
  scheduled = false;
  if (buffered === "") return;
  const text = buffered;
  buffered = "";
  process.stdout.write(text);
}

/**
 * Writes log lines to standard output together, once per turn of the event loop: under load one
 * `write` (a system call, synchronous for files and pipes) carries many requests' lines instead of one
 * each. A line is out before the process waits for I/O again, and on every exit Node announces (an
 * uncaught exception, `process.exit`); only a kill without warning can lose one turn's lines.
 */
export function writeStdoutLine(line: string): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", flush);
  }
  buffered += line;
  if (buffered.length >= FLUSH_AT_CHARS) flush();
  else if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}
