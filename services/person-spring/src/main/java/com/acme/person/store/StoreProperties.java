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
    @DefaultValue("65536") int cacheSize) {}
