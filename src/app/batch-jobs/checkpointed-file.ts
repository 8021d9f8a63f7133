/**
 * An output file of a batch job that can say how many bytes it holds for sure: a Writable that writes at
 * its own position (after truncating the file to a checkpoint's size, so a resumed job overwrites what a
 * dead process wrote past its last checkpoint) and `settle()`, which waits until everything written so
 * far is on disk (data-synced) and returns the file's size at that point.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

export class CheckpointedFile extends Writable {
  private written: number;
  private waiters: { at: number; resolve: () => void }[] = [];

  private constructor(
    private readonly handle: FileHandle,
    size: number,
  ) {
    super({ decodeStrings: true });
    this.written = size;
  }

  /** Opens `file` (which must exist and hold at least `size` bytes) and cuts it to `size`. */
  static async openAt(file: string, size: number): Promise<CheckpointedFile> {
    const handle = await open(file, 'r+');
    try {
      const { size: actual } = await handle.stat();
      if (actual < size) throw new Error(`${file} holds ${actual} bytes, fewer than its checkpoint's ${size}`);
      await handle.truncate(size);
      return new CheckpointedFile(handle, size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeAll(chunk).then(
      () => {
        this.written += chunk.length;
        this.waiters = this.waiters.filter((w) => (w.at <= this.written ? (w.resolve(), false) : true));
        callback();
      },
      (error: Error) => callback(error),
    );
  }

  private async writeAll(chunk: Buffer): Promise<void> {
    for (let done = 0; done < chunk.length; ) {
      const { bytesWritten } = await this.handle.write(chunk, done, chunk.length - done, this.written + done);
      done += bytesWritten;
    }
  }

  /** The size once everything passed to write() so far is written and synced. */
  async settle(): Promise<number> {
    // writableLength: bytes passed to write() and not yet written (buffered, or being written).
    const target = this.written + this.writableLength;
    if (this.written < target) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        this.once('error', onError);
        this.waiters.push({
          at: target,
          resolve: () => {
            this.off('error', onError);
            resolve();
          },
        });
      });
    }
    await this.handle.datasync();
    return target;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.handle.close().then(
      () => callback(error),
      () => callback(error),
    );
  }
}
