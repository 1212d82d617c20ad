package com.acme.person.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The largest heap in use right after a garbage collection: what survives is the live set, so
 * a stream that buffered its people would show them here. (Peak usage per pool would count
 * garbage and add peaks from different moments.)
 */
final class LiveHeap {

  private final AtomicLong max = new AtomicLong();
  private final AtomicInteger collections = new AtomicInteger();

  static LiveHeap watch() {
    LiveHeap heap = new LiveHeap();
    // The GC reports every pool, metaspace and code cache included; count the heap's only.
    Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .map(MemoryPoolMXBean::getName)
        .collect(Collectors.toSet());
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
          return;
        }
        var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long used = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
            .filter(e -> heapPools.contains(e.getKey()))
            .mapToLong(e -> e.getValue().getUsed())
            .sum();
        heap.max.accumulateAndGet(used, Math::max);
        heap.collections.incrementAndGet();
      }, null, null);
    }
    return heap;
  }

  long maxAfterGc() {
    return max.get();
  }

  int collections() {
    return collections.get();
  }
}
