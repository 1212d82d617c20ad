package com.acme.compat.harness;

import com.acme.compat.executor.v1.Outcome;
import com.acme.compat.executor.v1.Step;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One client's executor (clients/&lt;lang&gt;/run.sh exec), kept running for a session: Steps go
 * to its stdin, Outcomes come from its stdout, both length-prefixed (executor/README.md). Its
 * stderr is appended to the session's log. A step that gets no answer in time kills it; the
 * caller starts a new one.
 */
final class ExecutorProcess implements AutoCloseable {
  private final Process process;
  private final DataOutputStream in;
  private final DataInputStream out;
  private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "executor-reader");
    t.setDaemon(true);
    return t;
  });

  ExecutorProcess(Path clientDir, Map<String, String> env, Path log) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(List.of(clientDir.resolve("run.sh").toString(), "exec"))
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(env);
    process = builder.start();
    in = new DataOutputStream(process.getOutputStream());
    out = new DataInputStream(process.getInputStream());
  }

  /** The Outcome of one Step; an IOException when the executor died or did not answer in time. */
  Outcome call(Step step, Duration timeout) throws IOException, InterruptedException {
    byte[] bytes = step.toByteArray();
    in.writeInt(bytes.length);
    in.write(bytes);
    in.flush();
    Future<Outcome> answer = reader.submit(() -> {
      int length = out.readInt();
      return Outcome.parseFrom(out.readNBytes(length));
    });
    try {
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      close();
      throw new IOException("the executor gave no answer in " + timeout.toSeconds() + " s and was stopped");
    } catch (ExecutionException e) {
      close();
      throw new IOException("the executor ended (exit " + exitValue() + "): " + e.getCause(), e.getCause());
    }
  }

  boolean alive() {
    return process.isAlive();
  }

  private String exitValue() {
    return process.isAlive() ? "none yet" : String.valueOf(process.exitValue());
  }

  @Override
  public void close() {
    try {
      in.close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    } catch (IOException | InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
    reader.shutdownNow();
  }
}
