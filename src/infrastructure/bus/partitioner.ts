/**
 * Key → partition for the in-process bus. Any stable hash keeps per-key ordering;
 * this is FNV-1a (Kafka's murmur2 is not needed: in-process partitions never meet Kafka ones).
 */
export function partitionForKey(key: string, partitionCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitionCount;
}
