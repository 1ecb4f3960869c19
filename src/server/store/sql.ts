/**
 * One small SQL surface over two engines: the embedded SQLite of Node (`node:sqlite`, nothing to install
 * or start) and PostgreSQL (`pg`) for several instances sharing one database. Queries are written once
 * with `$1..$n` parameters; values are bound as text (ISO timestamps, JSON text) so that both engines
 * read them the same way, and rows come back normalised by the callers' mappers.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Pool, PoolClient } from 'pg';

export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | null;
export type Row = Record<string, unknown>;

export interface Sql {
  readonly dialect: Dialect;
  query<T extends Row = Row>(text: string, params?: SqlValue[]): Promise<T[]>;
  /** Runs `fn` in one transaction; everything it does commits or rolls back together. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** SQLite: `$1` is a named parameter there; `?1` is the positional form. */
function toSqlite(text: string): string {
  return text.replace(/\$(\d+)/g, '?$1');
}

class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  // node:sqlite is synchronous: transactions are serialised through this chain so that two requests never
  // interleave statements inside one BEGIN..COMMIT.
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: DatabaseSync) {}

  private run<T extends Row>(text: string, params: SqlValue[]): T[] {
    const stmt = this.db.prepare(toSqlite(text));
    if (/^\s*(select|with|pragma)\b/i.test(text) || /\breturning\b/i.test(text)) return stmt.all(...params) as T[];
    stmt.run(...params);
    return [];
  }

  async query<T extends Row = Row>(text: string, params: SqlValue[] = []): Promise<T[]> {
    await this.chain;
    return this.run<T>(text, params);
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const tx: Sql = {
      dialect: 'sqlite',
      query: async <R extends Row>(text: string, params: SqlValue[] = []) => this.run<R>(text, params),
      transaction: (inner) => inner(tx),
      close: async () => undefined,
    };
    const work = this.chain.then(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(tx);
        this.db.exec('COMMIT');
        return out;
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw err;
      }
    });
    this.chain = work.catch(() => undefined);
    return work;
  }

  async close(): Promise<void> {
    await this.chain;
    if (this.db.isOpen) this.db.close();
  }
}

class PostgresSql implements Sql {
  readonly dialect = 'postgres' as const;

  constructor(private readonly pool: Pool) {}

  async query<T extends Row = Row>(text: string, params: SqlValue[] = []): Promise<T[]> {
    const res = await this.pool.query(text, params);
    return res.rows as T[];
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    const tx: Sql = {
      dialect: 'postgres',
      query: async <R extends Row>(text: string, params: SqlValue[] = []) =>
        (await client.query(text, params)).rows as R[],
      transaction: (inner) => inner(tx),
      close: async () => undefined,
    };
    try {
      await client.query('BEGIN');
      const out = await fn(tx);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export interface OpenOptions {
  /** A postgres:// URL; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded database file, or `:memory:`. */
  dataDir?: string;
  /** Connections of the PostgreSQL pool. */
  poolSize?: number;
}

export async function openSql(options: OpenOptions): Promise<Sql> {
  if (options.databaseUrl) {
    const pg = await import('pg');
    const PoolCtor = pg.default?.Pool ?? (pg as unknown as { Pool: typeof Pool }).Pool;
    const pool = new PoolCtor({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process; the next query reports the problem.
    pool.on('error', () => undefined);
    await pool.query('SELECT 1');
    return new PostgresSql(pool);
  }
  const { DatabaseSync } = await import('node:sqlite');
  const dir = options.dataDir ?? ':memory:';
  let file = ':memory:';
  if (dir !== ':memory:') {
    mkdirSync(dir, { recursive: true });
    file = path.join(dir, 'docmill.sqlite');
  }
  const db = new DatabaseSync(file);
  // WAL with synchronous=NORMAL: the file cannot be corrupted by a crash; a power cut may lose the last commits.
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;',
  );
  return new SqliteSql(db);
}
