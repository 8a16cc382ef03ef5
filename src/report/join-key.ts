// The report join's key (the provider payment id): which partition it goes to, and a fixed-size filter of the keys
// the workflows follow (partitioned-join.ts). Pure, deterministic: the same key always lands in the same partition.

/** FNV-1a, 32 bits, over the key's UTF-16 code units; `seed` gives a second, independent hash. */
function fnv1a(key: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // a final mix so keys that differ only at the end still spread over the low bits
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

export function partitionOf(key: string, partitions: number): number {
  return fnv1a(key) % partitions;
}

/** 2^23 bits (1 MiB), 3 probes: about 0.04 % false "maybe" at 200,000 keys, 1.3 % at 1,000,000. */
const FILTER_BITS = 1 << 23;
const PROBES = 3;

/**
 * A Bloom filter of the keys the payment workflows follow: a service payment outside the window is kept for the
 * join only when a workflow may follow it (the in-memory join passes the others by), so the service's whole history
 * is not written to the partitions. "No" is certain; "maybe" may be wrong (the join then finds no workflow).
 */
export function joinKeyFilter(): { add(key: string): void; mayHave(key: string): boolean } {
  const bits = new Uint8Array(FILTER_BITS / 8);
  // double hashing (a + i·b): PROBES bit positions from two hashes, no array made per key
  const visit = (key: string, each: (bit: number) => boolean): boolean => {
    const a = fnv1a(key);
    const b = fnv1a(key, 0x9747b28c) | 1;
    for (let i = 0; i < PROBES; i++) if (!each(((a + Math.imul(i, b)) >>> 0) % FILTER_BITS)) return false;
    return true;
  };
  return {
    add(key) {
      visit(key, (bit) => {
        bits[bit >>> 3]! |= 1 << (bit & 7);
        return true;
      });
    },
    mayHave(key) {
      return visit(key, (bit) => (bits[bit >>> 3]! & (1 << (bit & 7))) !== 0);
    },
  };
}
