// Where log lines go: standard output, written off the call path. A call only hands over its
// line, or a function that makes it: lines are made one or two turns of the event loop later,
// after the I/O of the turn (a gRPC answer is handed to its socket whole, trailers included,
// before its access-log line is even built), queued, and the queue is written in one piece by
// a libuv worker (fs.write), so neither the call nor the event loop waits for the reader of the
// output (a terminal, a pipe to Docker's log driver). Node's own process.stdout would write
// each line synchronously, on the event loop, when the output is a pipe or a file. The queue is
// bounded: when the reader falls that far behind, lines are dropped and counted, and a line says
// how many once there is room again.
import { write, writeSync } from "node:fs";

/** A line, or what makes it: called once, one or two turns of the event loop after it was handed over. */
export type Line = string | (() => string);

export interface LineWriter {
  write(line: Line): void;
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
  /** Lines handed over, not made yet: at most two turns' worth, whatever the reader does. */
  let unmade: Line[] = [];

  const enqueue = (line: string) => {
    if (queued + line.length > maxQueued) {
      dropped++;
      return;
    }
    queue.push(line);
    queued += line.length + 1;
  };
  const make = () => {
    const lines = unmade;
    unmade = [];
    for (const line of lines) {
      if (typeof line === "string") {
        enqueue(line);
      } else if (queued >= maxQueued) {
        // Dropped either way: not worth making.
        dropped++;
      } else {
        try {
          enqueue(line());
        } catch (err) {
          // Made where no caller can be told: say so instead (log.ts names the line it could not make).
          enqueue(own("error", "a log line could not be made", { reason: describe(err) }));
        }
      }
    }
  };
  const settle = () => {
    if (writing || scheduled || queue.length > 0 || unmade.length > 0) return;
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
      send();
    });
  };
  const drain = () => {
    scheduled = false;
    make();
    send();
  };
  const send = () => {
    if (writing || queue.length === 0) return settle();
    if (dropped > 0) {
      queue.push(own("warn", "log lines dropped: the output was too slow", { dropped }));
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
    // A line made here may log another: make until none is left.
    while (unmade.length > 0) make();
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
      unmade.push(line);
      // Made two check phases later (an immediate that sets an immediate), even while a write is
      // out, so the bound holds. A gRPC answer leaves in two writes a turn of the event loop
      // apart: headers and message from one native immediate, trailers from the next turn's
      // (Node's HTTP/2 sends trailers once the message is out). Lines made in the first check
      // phase, or in the next timers phase, would hold the trailers back by the time it takes to
      // make and hand them over; here the call is answered first (strace: writev, write, then
      // the lines' fs.write).
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => setImmediate(drain));
      }
    },
    flush: () =>
      new Promise<void>((resolve) => {
        idle.push(resolve);
        settle();
      }),
  };
}

/** A line of the writer's own, in log.ts's shape. */
function own(level: "warn" | "error", msg: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
}

/** What went wrong, even for a thrown value that cannot be turned into a string. */
function describe(err: unknown): string {
  try {
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  } catch {
    return "an unprintable value was thrown";
  }
}
