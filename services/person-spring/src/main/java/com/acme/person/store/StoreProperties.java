package com.acme.person.store;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The store's own settings (application.yaml maps the environment onto them).
 *
 * @param fsync the embedded store also forces every acknowledged write to the disk itself
 *     (the journal's fsync), so it survives a power loss, not only a crash of the process
 * @param groupSize at most this many single registrations share one commit
 * @param groupChars and at most this many characters of their text (names, hobbies, addresses),
 *     unless one registration alone has more
 * @param cacheSize the embedded H2's page cache, in KB
 */
@ConfigurationProperties("person.store")
public record StoreProperties(
    @DefaultValue("false") boolean fsync,
    @DefaultValue("256") int groupSize,
    @DefaultValue("4194304") long groupChars,
    @DefaultValue("65536") int cacheSize) {

  public StoreProperties {
    // Checked when the settings are read, before the store starts: a bound below one would make
    // empty groups, and the leader would loop without answering anyone.
    if (groupSize < 1 || groupChars < 1) {
      throw new IllegalArgumentException("STORE_GROUP_SIZE and STORE_GROUP_CHARS must be at least 1, not "
          + groupSize + " and " + groupChars);
    }
  }
}
