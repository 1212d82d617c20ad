package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A client the harness runs, with the schema it speaks: today's clients speak today's schema.
 *
 * <p>Clients built on released SDK versions (compatibility-tests/released/build.sh writes their
 * list, COMPAT_RELEASED names it): one line per client and version — the base client of
 * features.yaml, the version, the folder with the executor built on that version (its run.sh),
 * and the release's descriptor set. Each becomes a row "client@version" of the matrix, with the
 * base client's protocols and capabilities, speaking its release's schema.
 */
record ClientRun(Config.Client client, Schemas schemas) {

  static List<ClientRun> released(String listFile, Config config, Path nextSchema) throws Exception {
    List<ClientRun> out = new ArrayList<>();
    if (listFile == null || listFile.isBlank()) {
      return out;
    }
    for (String line : Files.readAllLines(Path.of(listFile))) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      if (f.length != 4) {
        throw new IllegalArgumentException(listFile + ": want client, version, folder and descriptors, tab-separated: " + line);
      }
      Config.Client base = config.clients().get(f[0]);
      if (base == null) {
        throw new IllegalArgumentException(listFile + ": no client " + f[0] + " in features.yaml");
      }
      Path dir = Path.of(f[2]);
      if (!Files.isExecutable(dir.resolve("run.sh")) || !Files.isRegularFile(Path.of(f[3]))) {
        throw new IOException(listFile + ": " + f[0] + "@" + f[1] + " is not built (no run.sh or descriptors)");
      }
      Config.Client client = new Config.Client(f[0] + "@" + f[1], dir, base.protocols(), base.capabilities(), false);
      out.add(new ClientRun(client, new Schemas("v" + f[1], Path.of(f[3]), nextSchema)));
    }
    return out;
  }
}
