// Where log lines go: standard output, written off the call path. A call only appends its
// line to a queue; the queue is written in one piece per turn of the event loop, by a
// libuv worker (fs.write), so neither the call nor the event loop waits for the reader of
// the output (a terminal, a pipe to Docker's log driver). Node's own process.stdout would
// write each line synchronously, on the event loop, when the output is a pipe or a file.
// The queue is bounded: when the reader falls that far behind, lines are dropped and counted,
// and a line says how many once there is room again.
import { write, writeSync } from "node:fs";

export interface LineWriter {
  write(line: string): void;
  /** Resolves when every line written so far is out. */
  flush(): Promise<void>;
}

/** Lines queued at most, in UTF-16 code units (about as many bytes for JSON). */
const MAX_QUEUED = 8 * 1024 * 1024;

export function asyncLineWriter(fd = 1, maxQueued = MAX_QUEUED): LineWriter {
  let queue: string[] = [];
  let queued = 0;
  let dropped = 0;
  let writing = false;
  let scheduled = false;
  let idle: Array<() => void> = [];

  const settle = () => {
    if (writing || scheduled || queue.length > 0) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };
  const writeOut = (bytes: Buffer) => {
    write(fd, bytes, 0, bytes.length, null, (err, written) => {
      if (err && (err as NodeJS.ErrnoException).code === "EAGAIN") return void setTimeout(() => writeOut(bytes), 1);
      // Nothing to tell a failing standard output to: the lines are lost, the service goes on.
      if (!err && written < bytes.length) return writeOut(bytes.subarray(written));
      writing = false;
      if (queue.length > 0) drain();
      else settle();
    });
  };
  const drain = () => {
    scheduled = false;
    if (writing || queue.length === 0) return settle();
    if (dropped > 0) {
      queue.push(JSON.stringify({ time: new Date().toISOString(), level: "warn", msg: "log lines dropped: the output was too slow", dropped }));
      dropped = 0;
    }
    const text = queue.join("\n") + "\n";
    queue = [];
    queued = 0;
    writing = true;
    writeOut(Buffer.from(text));
  };
  // What is still queued when the process exits (process.exit, an uncaught exception) is
  // written synchronously; a batch already handed to the worker is the worker's to finish.
  process.once("exit", () => {
    if (queue.length > 0) {
      try {
        writeSync(fd, queue.join("\n") + "\n");
      } catch {
        // As above: lost.
      }
    }
  });

  return {
    write(line) {
      if (queued + line.length > maxQueued) {
        dropped++;
        return;
      }
      queue.push(line);
      queued += line.length + 1;
      if (!writing && !scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    flush: () =>
      new Promise<void>((resolve) => {
        idle.push(resolve);
        settle();
      }),
  };
}
