/**
 * Numbered SQL migrations: src/infrastructure/postgres/migrations/NNN_name.sql, applied in number
 * order, each in its own transaction together with its schema_migrations row, under a session
 * advisory lock so two processes starting at once never apply the same file twice.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { stopwatch } from '../../shared/clock';
import { silentLogger, type InfraLogger } from './log';

export const defaultMigrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Arbitrary constant: the advisory lock key every migrator contends on. */
const MIGRATION_LOCK_KEY = 727_100_001;

export interface Migration {
  version: number;
  name: string;
  file: string;
  sql: string;
  checksum: string;
  /** SHA-256 of the raw file, as recorded by the first version of this runner. */
  rawChecksum: string;
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/**
 * Checksum of what a migration does: whole-line `--` comments and blank lines are left out, so
 * correcting a comment in an applied migration is not mistaken for a change.
 */
export function checksumOf(sql: string): string {
  const meaningful = sql
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('--'))
    .join('\n');
  return createHash('sha256').update(meaningful).digest('hex');
}

export function loadMigrations(dir = defaultMigrationsDir): Migration[] {
  const migrations: Migration[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    const match = /^(\d{3,})_([A-Za-z0-9_-]+)\.sql$/.exec(file);
    if (!match) throw new MigrationError(`Migration file ${file} must be named NNN_name.sql`);
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    migrations.push({
      version: Number(match[1]),
      name: match[2]!,
      file,
      sql,
      checksum: checksumOf(sql),
      rawChecksum: createHash('sha256').update(sql).digest('hex'),
    });
  }
  migrations.sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version === migrations[i - 1]!.version) {
      throw new MigrationError(`Two migrations share number ${migrations[i]!.version}: ${migrations[i - 1]!.file} and ${migrations[i]!.file}`);
    }
  }
  return migrations;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(pool: pg.Pool, options: { dir?: string; logger?: InfraLogger } = {}): Promise<MigrateResult> {
  const logger = options.logger ?? silentLogger;
  const migrations = loadMigrations(options.dir);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ version: number; name: string; checksum: string }>(
        'SELECT version, name, checksum FROM schema_migrations',
      );
      const done = new Map(rows.map((r) => [r.version, r]));
      const applied: string[] = [];
      for (const migration of migrations) {
        const existing = done.get(migration.version);
        if (existing) {
          if (existing.checksum !== migration.checksum && existing.checksum !== migration.rawChecksum) {
            throw new MigrationError(
              `Migration ${migration.file} was changed after it was applied (checksum differs): add a new numbered migration instead`,
            );
          }
          continue;
        }
        const elapsed = stopwatch();
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
            migration.version,
            migration.name,
            migration.checksum,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new MigrationError(`Migration ${migration.file} failed: ${(err as Error).message}`);
        }
        applied.push(migration.file);
        logger.info({ migration: migration.file, ms: elapsed() }, 'migration applied');
      }
      return { applied, alreadyApplied: migrations.length - applied.length };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
